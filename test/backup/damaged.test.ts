import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { backupIdOf, hearth } from '../helpers/backup.js';

// A backup that was damaged where it is kept is refused on restore, with a message naming what is
// wrong, and nothing is restored: a flipped byte in the database copy, an attachment file gone,
// and the same in an encrypted backup (where a flipped byte breaks the decryption).

const PASSPHRASE = 'correct horse battery staple';

async function hubWithPhotos(): Promise<TestHub> {
  const t = await startHub({ channels: ['alice'] });
  for (let i = 0; i < 3; i++) {
    const res = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: `photo ${i}` }, { media: { data: await makeImage(400 + i, 300), name: 'p.jpg', type: 'image/jpeg' } }) });
    assert.equal(res.status, 200, await res.text());
  }
  return t;
}

async function flipByte(file: string, at: number): Promise<void> {
  const bytes = await readFile(file);
  bytes[at] = bytes[at]! ^ 0x20;
  await writeFile(file, bytes);
}

/** The first file in a folder of the target: 'files' (attachments) or 'chunks' (the database copy's). */
async function anyFile(dir: string, folder = 'files'): Promise<string> {
  const entries = await readdir(join(dir, folder), { recursive: true, withFileTypes: true });
  const f = entries.filter((e) => e.isFile()).sort((a, b) => (a.name < b.name ? -1 : 1))[0]!;
  return join(f.parentPath, f.name);
}

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

for (const encrypted of [false, true]) {
  const env = encrypted ? { HEARTH_BACKUP_PASSPHRASE: PASSPHRASE } : {};
  const kind = encrypted ? 'an encrypted backup' : 'a backup';

  test(`${kind} with a flipped byte in its database copy or a missing attachment file is refused, naming what is damaged`, { timeout: 180_000 }, async () => {
    const t = await hubWithPhotos();
    const work = await mkdtemp(join(tmpdir(), 'hearth-damaged-'));
    try {
      const target = join(work, 'target');
      const run = await hearth(['backup', '--to', target, '--data', t.dataDir], env);
      assert.equal(run.code, 0, run.stderr);
      const id = backupIdOf(run);
      // A chunk of the database copy, one byte flipped in its middle.
      const database = await anyFile(target, 'chunks');
      const chunk = database.slice(database.lastIndexOf('/') + 1);
      const size = (await readFile(database)).length;
      await flipByte(database, Math.floor(size / 2));
      const newDir = join(work, 'restored');
      const flipped = await hearth(['restore', '--from', target, '--data', newDir], env);
      assert.equal(flipped.code, 1, flipped.stdout);
      assert.match(flipped.stderr, new RegExp(`backup ${id} is damaged; nothing was restored`));
      assert.match(flipped.stderr, new RegExp(`the database chunk chunks/${chunk.slice(0, 2)}/${chunk} \\(\\d+ of \\d+\\) is damaged`));
      assert.equal(existsSync(newDir), false, 'nothing is restored');
      assert.deepEqual((await readdir(work)).sort(), ['target'], 'no half-restored folder is left');
      await flipByte(database, Math.floor(size / 2));

      // A chunk of the database copy gone.
      await rename(database, `${database}.aside`);
      const noChunk = await hearth(['restore', '--from', target, '--data', newDir], env);
      assert.equal(noChunk.code, 1);
      assert.match(noChunk.stderr, new RegExp(`the database chunk chunks/${chunk.slice(0, 2)}/${chunk} \\(\\d+ of \\d+\\) is missing`));
      assert.equal(existsSync(newDir), false);
      await rename(`${database}.aside`, database);

      // An attachment file gone from the target.
      const gone = await anyFile(target);
      await rm(gone);
      const key = gone.slice(gone.lastIndexOf('/') + 1);
      const missing = await hearth(['restore', '--from', target, '--data', newDir], env);
      assert.equal(missing.code, 1, missing.stdout);
      assert.match(missing.stderr, new RegExp(`the attachment file files/${key.slice(0, 2)}/${key} is missing`));
      assert.equal(existsSync(newDir), false);

      // An attachment file with a flipped byte (the missing one is back, whole, from the next backup).
      const again = await hearth(['backup', '--to', target, '--data', t.dataDir], env);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /, 1 files copied/, 'the next backup copies the missing file again');
      const other = await anyFile(target);
      await flipByte(other, 100);
      const otherKey = other.slice(other.lastIndexOf('/') + 1);
      const corrupt = await hearth(['restore', '--from', target, '--data', newDir], env);
      assert.equal(corrupt.code, 1);
      assert.match(corrupt.stderr, new RegExp(`the attachment file files/${otherKey.slice(0, 2)}/${otherKey} is damaged`));
      assert.equal(existsSync(newDir), false);
      await flipByte(other, 100);

      const fine = await hearth(['restore', '--from', target, '--data', newDir], env);
      assert.equal(fine.code, 0, fine.stderr);
      assert.match(fine.stdout, /every checksum verified/);
    } finally {
      await t.stop();
      await rm(work, { recursive: true, force: true });
    }
  });
}

test('an encrypted backup cannot be read without its passphrase, nor restored with a wrong one', { timeout: 120_000 }, async () => {
  const t = await hubWithPhotos();
  const work = await mkdtemp(join(tmpdir(), 'hearth-damaged-'));
  try {
    const target = join(work, 'target');
    const run = await hearth(['backup', '--to', target, '--data', t.dataDir], { HEARTH_BACKUP_PASSPHRASE: PASSPHRASE });
    assert.equal(run.code, 0, run.stderr);
    const id = backupIdOf(run);
    const chunks = await allFiles(join(target, 'chunks'));
    assert.ok(chunks.length > 0);
    for (const chunk of chunks) {
      const db = await readFile(chunk);
      assert.ok(db.subarray(0, 40).toString('latin1').startsWith('age-encryption.org/v1'), 'each chunk of the database copy is an age file');
      assert.equal(db.includes(Buffer.from('SQLite format 3')), false);
      assert.equal(db.includes(Buffer.from('photo 1')), false, 'no post text is readable');
    }
    const manifest = await readFile(join(target, 'backups', id, 'manifest.json'));
    assert.equal(manifest.includes(Buffer.from('sha256')), false, 'the manifest is encrypted too');

    const without = await hearth(['restore', '--from', target, '--data', join(work, 'a')], { HEARTH_BACKUP_PASSPHRASE: '' });
    assert.equal(without.code, 1);
    assert.match(without.stderr, /encrypted: the passphrase is needed/);
    const wrong = await hearth(['restore', '--from', target, '--data', join(work, 'b')], { HEARTH_BACKUP_PASSPHRASE: 'not the passphrase' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /the passphrase does not open the backups/);
    assert.deepEqual((await readdir(work)).sort(), ['target']);
  } finally {
    await t.stop();
    await rm(work, { recursive: true, force: true });
  }
});
