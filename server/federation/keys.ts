import { createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import type { ChannelRow } from '../store/rows.js';

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
const imported = new Map<string, Promise<CryptoKeyPair>>();

/** A channel's RSA key pair (stored as PEM) as the Web Crypto keys Fedify signs with; imported once. */
export function channelKeyPair(channel: Pick<ChannelRow, 'channel_hash' | 'channel_prvkey' | 'channel_pubkey'>): Promise<CryptoKeyPair> {
  const key = `${channel.channel_hash}:${channel.channel_pubkey.length}`;
  let pair = imported.get(key);
  if (!pair) {
    pair = (async () => ({
      privateKey: (await webcrypto.subtle.importKey('pkcs8', createPrivateKey(channel.channel_prvkey).export({ type: 'pkcs8', format: 'der' }), RSA, true, ['sign'])) as CryptoKey,
      publicKey: (await webcrypto.subtle.importKey('spki', createPublicKey(channel.channel_pubkey).export({ type: 'spki', format: 'der' }), RSA, true, ['verify'])) as CryptoKey,
    }))();
    imported.set(key, pair);
  }
  return pair;
}
