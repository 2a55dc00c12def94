import { createPrivateKey, createPublicKey, type JsonWebKey } from 'node:crypto';
import { importJwk } from '@fedify/fedify';
import type { ChannelRow } from '../store/rows.js';

const imported = new Map<string, Promise<CryptoKeyPair>>();

/** A channel's RSA key pair (stored as PEM) as the Web Crypto keys Fedify signs with; imported once. */
export function channelKeyPair(channel: Pick<ChannelRow, 'channel_hash' | 'channel_prvkey' | 'channel_pubkey'>): Promise<CryptoKeyPair> {
  const key = `${channel.channel_hash}:${channel.channel_pubkey.length}`;
  let pair = imported.get(key);
  if (!pair) {
    pair = (async () => ({
      privateKey: await importJwk(createPrivateKey(channel.channel_prvkey).export({ format: 'jwk' }) as JsonWebKey, 'private'),
      publicKey: await importJwk(createPublicKey(channel.channel_pubkey).export({ format: 'jwk' }) as JsonWebKey, 'public'),
    }))();
    imported.set(key, pair);
  }
  return pair;
}
