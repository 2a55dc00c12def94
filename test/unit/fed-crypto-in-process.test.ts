import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { checkSignaturesInProcess } from '../../server/federation/crypto-in-process.js';

/** Every answer (or error name) WebCrypto gives for digests and RSA checks of a good and of bad signatures. */
async function answers(): Promise<unknown[]> {
  const subtle = globalThis.crypto.subtle;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const rsa = (hash: string, usages: KeyUsage[]) => subtle.importKey('spki', spki, { name: 'RSASSA-PKCS1-v1_5', hash }, true, usages);
  const pss = await subtle.importKey('spki', spki, { name: 'RSA-PSS', hash: 'SHA-256' }, true, ['verify']);
  const message = new TextEncoder().encode('(request-target): post /inbox\ndate: Sat, 28 Nov 2026 13:00:00 GMT');
  const good = sign('sha256', message, privateKey);
  const flipped = Buffer.from(good);
  flipped[7]! ^= 1;
  const sha256 = await rsa('SHA-256', ['verify']);
  const hex = (b: ArrayBuffer) => Buffer.from(b).toString('hex');
  const outcome = (p: Promise<unknown>) => p.then((v) => (v instanceof ArrayBuffer ? hex(v) : v)).catch((e: Error) => `throws ${e.name}`);
  return Promise.all([
    outcome(subtle.digest('SHA-256', message)),
    outcome(subtle.digest({ name: 'sha-512' }, message.buffer)),
    outcome(subtle.digest('SHA-256', new DataView(message.buffer, 3, 10))),
    outcome(subtle.digest('MD5', message)),
    outcome(subtle.verify('RSASSA-PKCS1-v1_5', sha256, good, message)),
    outcome(subtle.verify({ name: 'rsassa-pkcs1-v1_5' }, sha256, good, message)),
    outcome(subtle.verify('RSASSA-PKCS1-v1_5', sha256, flipped, message)),
    outcome(subtle.verify('RSASSA-PKCS1-v1_5', sha256, good.subarray(1), message)),
    outcome(subtle.verify('RSASSA-PKCS1-v1_5', sha256, good, message.subarray(1))),
    outcome(subtle.verify('RSASSA-PKCS1-v1_5', await rsa('SHA-512', ['verify']), good, message)),
    outcome(subtle.verify('RSASSA-PKCS1-v1_5', pss, good, message)),
    outcome(subtle.verify({ name: 'RSA-PSS', saltLength: 32 } as AlgorithmIdentifier, sha256, good, message)),
    outcome(subtle.verify('RSASSA-PKCS1-v1_5', await rsa('SHA-256', ['encrypt' as KeyUsage]).catch(() => sha256), good, message)),
  ]);
}

test('digests and RSA checks made in the process give WebCrypto’s own answers, refusals and errors', async () => {
  const before = await answers();
  checkSignaturesInProcess();
  const after = await answers();
  assert.deepEqual(after, before);
  assert.equal(after[4], true, 'the good signature holds');
  assert.equal(after[6], false, 'a flipped bit does not');
  assert.equal(after[7], false, 'nor a shortened signature');
});
