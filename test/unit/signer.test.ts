import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { signInBackground, signNow } from '../../server/services/signer.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const publicKey = createPublicKey(privateKey);

test('background signatures are the RSA-SHA256 signatures made in place, in any number at once', async () => {
  const texts = Array.from({ length: 40 }, (_, i) => `post ${i} ✓ with some text`);
  const sigs = await Promise.all(texts.map((t) => signInBackground(pem, t)));
  sigs.forEach((sig, i) => {
    assert.equal(sig, signNow(pem, texts[i]!));
    assert.ok(verify('sha256', Buffer.from(texts[i]!, 'utf8'), publicKey, Buffer.from(sig, 'base64url')));
  });
});

test('a bad key is an error for that signature only', async () => {
  await assert.rejects(signInBackground('not a key', 'x'));
  assert.equal(await signInBackground(pem, 'still fine'), signNow(pem, 'still fine'));
});

test('a process waits for the signature it asked for, then exits', () => {
  const signer = fileURLToPath(new URL('../../server/services/signer.ts', import.meta.url));
  const script = `import { signInBackground } from ${JSON.stringify(signer)};
const pem = ${JSON.stringify(pem)};
console.log(await signInBackground(pem, 'hello'));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), signNow(pem, 'hello'));
});
