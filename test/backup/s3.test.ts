import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { backupIdOf, hearth, startCli, storeFiles } from '../helpers/backup.js';
import { S3Target } from '../../server/backup/targets/s3.js';
import { findMotoServer, startMoto, startRelay, type Moto, type Relay } from '../helpers/moto.js';

// Backups to an S3 bucket, against a real S3 implementation (moto) on 127.0.0.1: restored whole,
// a file larger than one upload part included; every object encrypted, unreadable without the
// passphrase; a connection dropped in the middle fails that backup only, and the next completes.

const MOTO = findMotoServer();
const skip = MOTO ? false : 'moto_server (Python moto 5.2.1) is not installed on this machine: the S3 target is not tested';
const BUCKET = 'hearth-backups';
const PASSPHRASE = 'four words for a bucket';

let moto: Moto;
let relay: Relay;
let t: TestHub;
let work: string;
let env: NodeJS.ProcessEnv;
/** A file larger than 11 MiB and than one part of a multipart upload (8 MiB). */
const big = randomBytes(20 * 1024 * 1024);

before(async () => {
  if (!MOTO) return;
  moto = await startMoto(MOTO);
  await moto.createBucket(BUCKET);
  relay = await startRelay(moto.url);
  t = await startHub({ channels: ['alice'] });
  work = await mkdtemp(join(tmpdir(), 'hearth-s3-'));
  env = { AWS_ENDPOINT_URL: relay.url, AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'hearth-test', AWS_SECRET_ACCESS_KEY: 'hearth-test-secret', HEARTH_BACKUP_PASSPHRASE: PASSPHRASE };
  for (let i = 0; i < 4; i++) {
    const res = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: `to the bucket ${i}` }, { media: { data: await makeImage(700 + i, 500), name: 'p.jpg', type: 'image/jpeg' } }) });
    assert.equal(res.status, 200);
  }
  const res = await t.request('/api/z/1.0/file/upload', { method: 'POST', as: 'alice', body: form({}, { file: { data: big, name: 'big.bin', type: 'application/octet-stream' } }) });
  assert.equal(res.status, 200, await res.text());
});

after(async () => {
  if (!MOTO) return;
  await t?.stop();
  await relay?.close();
  await moto?.stop();
  await rm(work, { recursive: true, force: true });
});

test('a backup to an S3 bucket restores whole, a 20 MiB file included; its objects are unreadable without the passphrase', { skip, timeout: 300_000 }, async () => {
  const run = await hearth(['backup', '--to', `s3://${BUCKET}/home`, '--data', t.dataDir], env);
  assert.equal(run.code, 0, run.stderr);
  const id = backupIdOf(run);

  const into = join(work, 'restored');
  const restore = await hearth(['restore', '--from', `s3://${BUCKET}/home`, '--data', into], env);
  assert.equal(restore.code, 0, restore.stderr);
  assert.deepEqual([...(await storeFiles(into)).entries()].sort(), [...(await storeFiles(t.dataDir)).entries()].sort());

  // What the bucket holds: age files, none of the hub's bytes in clear.
  const bucket = new S3Target(`s3://${BUCKET}/home`, { endpoint: moto.url, region: 'eu-west-1', accessKeyId: 'hearth-test', secretAccessKey: 'hearth-test-secret' });
  const raw = async (name: string) => Buffer.concat(await (await bucket.read(name)).toArray());
  const chunks = await bucket.list('chunks/');
  assert.ok(chunks.length > 0, 'the database copy is in chunks');
  for (const chunk of chunks) {
    const db = await raw(chunk);
    assert.ok(db.toString('latin1', 0, 22).startsWith('age-encryption.org/v1'));
    assert.equal(db.includes(Buffer.from('SQLite format 3')), false);
    assert.equal(db.includes(Buffer.from('to the bucket 1')), false);
  }
  assert.ok((await bucket.list(`backups/${id}/`)).every((name) => name.endsWith('manifest.json')), 'the backup\'s own folder holds only its manifest');
  const keys = await bucket.list('files/');
  assert.ok(keys.length >= 4 * 3 + 1);
  const largest = (await Promise.all(keys.map(raw))).sort((a, b) => b.length - a.length)[0]!;
  bucket.close();
  assert.ok(largest.length > big.length, 'the large file went up whole (encrypted, so a little larger)');
  assert.equal(largest.includes(big.subarray(1000, 1064)), false, 'not in clear');

  const without = await hearth(['restore', '--from', `s3://${BUCKET}/home`, '--data', join(work, 'nope')], { ...env, HEARTH_BACKUP_PASSPHRASE: '' });
  assert.equal(without.code, 1);
  assert.match(without.stderr, /encrypted: the passphrase is needed/);
  const wrong = await hearth(['restore', '--from', `s3://${BUCKET}/home`, '--data', join(work, 'nope')], { ...env, HEARTH_BACKUP_PASSPHRASE: 'guessed' });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /the passphrase does not open the backups/);
  await rm(into, { recursive: true, force: true });
});

test('backups to a bucket without a passphrase are refused', { skip, timeout: 60_000 }, async () => {
  const run = await hearth(['backup', '--to', `s3://${BUCKET}/plain`, '--data', t.dataDir], { ...env, HEARTH_BACKUP_PASSPHRASE: '' });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /leave this machine, so they are encrypted: set a passphrase/);
});

test('a connection dropped during a backup to S3 fails that backup only: the earlier one restores, the next completes', { skip, timeout: 300_000 }, async () => {
  const where = `s3://${BUCKET}/dropped`;
  const first = await hearth(['backup', '--to', where, '--data', t.dataDir], env);
  assert.equal(first.code, 0, first.stderr);
  const earlier = backupIdOf(first);
  // New files, a large one among them, for the next backup to send.
  const res = await t.request('/api/z/1.0/file/upload', { method: 'POST', as: 'alice', body: form({}, { file: { data: randomBytes(24 * 1024 * 1024), name: 'another.bin', type: 'application/octet-stream' } }) });
  assert.equal(res.status, 200);

  const run = startCli(['backup', '--to', where, '--data', t.dataDir], env);
  // Cut once it sends files.
  await new Promise<void>((resolve) => {
    run.child.stderr!.on('data', (d: Buffer) => d.toString().includes('Files') && resolve());
    run.child.once('exit', () => resolve());
  });
  relay.cut();
  const failed = await run.done;
  relay.restore();
  assert.equal(failed.code, 1, failed.stdout);
  assert.match(failed.stderr, /hearth: .*(fail|ECONNRESET|socket|connect)/i);
  console.log(`the dropped backup said: ${failed.stderr.trim().split('\n').pop()}`);

  const into = join(work, 'after-drop');
  const restore = await hearth(['restore', '--from', where, '--backup', earlier, '--data', into], env);
  assert.equal(restore.code, 0, restore.stderr);
  await rm(into, { recursive: true, force: true });

  const next = await hearth(['backup', '--to', where, '--data', t.dataDir], env);
  assert.equal(next.code, 0, next.stderr);
  const latest = await hearth(['restore', '--from', where, '--data', into], env);
  assert.equal(latest.code, 0, latest.stderr);
  assert.deepEqual([...(await storeFiles(into)).entries()].sort(), [...(await storeFiles(t.dataDir)).entries()].sort());
});
