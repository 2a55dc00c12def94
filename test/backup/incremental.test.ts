import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../../server/db/native-binding.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { backupIdOf, hearth, storeFiles, tableRows } from '../helpers/backup.js';

// The database copy in a target is incremental: a backup after a small change writes a small part
// of the database, not all of it (observed from what appears in the target folder). Encrypted
// targets name the database's pieces without giving away a checksum of their plain bytes. Backups
// made before (a whole hearth.db in the backup's folder) still restore.

const PASSPHRASE = 'correct horse battery staple';

/** Every file under a folder with its size, by path relative to it. */
async function filesIn(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    out.set(path.slice(dir.length + 1), (await stat(path)).size);
  }
  return out;
}

/** A hub whose database is large (40 MB in a table of its own), with a few posts and photos. */
async function largeHub(): Promise<TestHub> {
  const t = await startHub({ channels: ['alice'] });
  const db = openSqlite(join(t.dataDir, 'hearth.db'));
  try {
    db.pragma('busy_timeout = 10000');
    db.exec('CREATE TABLE test_bulk (id INTEGER PRIMARY KEY, data BLOB)');
    const insert = db.prepare('INSERT INTO test_bulk (data) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 40 * 16; i++) insert.run(randomBytes(64 * 1024));
    })();
  } finally {
    db.close();
  }
  for (let i = 0; i < 2; i++) {
    const res = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: `photo ${i}` }, { media: { data: await makeImage(300 + i, 200), name: 'p.jpg', type: 'image/jpeg' } }) });
    assert.equal(res.status, 200, await res.text());
  }
  return t;
}

/** The SHA-256 of the large table's rows, in order. */
function bulkDigest(dataDir: string): string {
  const db = openSqlite(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  try {
    const hash = createHash('sha256');
    for (const data of db.prepare('SELECT data FROM test_bulk ORDER BY id').pluck().iterate()) hash.update(data as Buffer);
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

async function post(t: TestHub, status: string): Promise<void> {
  const res = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: new URLSearchParams({ status }) });
  assert.equal(res.status, 200, await res.text());
}

for (const encrypted of [false, true]) {
  const env = encrypted ? { HEARTH_BACKUP_PASSPHRASE: PASSPHRASE } : {};
  const kind = encrypted ? 'an encrypted' : 'an';

  test(`${kind} incremental backup after a few posts writes far fewer bytes to the target than the database's size, and restores whole`, { timeout: 180_000 }, async () => {
    const t = await largeHub();
    const work = await mkdtemp(join(tmpdir(), 'hearth-incremental-'));
    try {
      const target = join(work, 'target');
      const first = await hearth(['backup', '--to', target, '--data', t.dataDir], env);
      assert.equal(first.code, 0, first.stderr);
      const before = await filesIn(target);

      for (let i = 0; i < 5; i++) await post(t, `a post after the first backup ${i}`);
      const second = await hearth(['backup', '--to', target, '--data', t.dataDir], env);
      assert.equal(second.code, 0, second.stderr);
      const after = await filesIn(target);

      const dbSize = (await stat(join(t.dataDir, 'hearth.db'))).size;
      assert.ok(dbSize > 40e6, `the database is large (${dbSize} bytes)`);
      let written = 0;
      for (const [path, size] of after) if (before.get(path) !== size) written += size;
      assert.ok(written < dbSize / 10, `the second backup wrote ${written} bytes to the target; the database has ${dbSize}`);

      // The second backup holds the new posts, and restores byte for byte.
      const restored = join(work, 'restored');
      const run = await hearth(['restore', '--from', target, '--backup', backupIdOf(second), '--data', restored], env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /every checksum verified/);
      assert.equal(bulkDigest(restored), bulkDigest(t.dataDir));
      for (const table of ['item', 'photo', 'attach']) assert.deepEqual(tableRows(restored, table), tableRows(t.dataDir, table), `table ${table}`);
      assert.ok([...tableRows(restored, 'item').values()].some((r) => r.includes('a post after the first backup 4')));
      const files = await storeFiles(t.dataDir);
      for (const [content, sha256] of files) assert.equal(createHash('sha256').update(await readFile(join(restored, content))).digest('hex'), sha256);

      // The first backup went by the retention policy (one a day is kept), the chunks only it had with it.
      const older = await hearth(['restore', '--from', target, '--backup', backupIdOf(first), '--data', join(work, 'older')], env);
      assert.equal(older.code, 1);
      const chunks = [...after.keys()].filter((p) => p.startsWith('chunks/'));
      assert.ok(chunks.length > 10, 'the database copy is in chunks');
      const third = await hearth(['backup', '--to', target, '--data', t.dataDir], env);
      assert.equal(third.code, 0, third.stderr);
      if (!encrypted) {
        // In a plain target a chunk is the bytes of the database copy at its place, named by their SHA-256: what is left is the kept backup's chunks, no more.
        const now = await filesIn(target);
        const kept = [...now.keys()].filter((p) => p.startsWith('chunks/'));
        const size = Math.max(...kept.map((p) => now.get(p)!));
        const newest = join(work, 'newest');
        assert.equal((await hearth(['restore', '--from', target, '--backup', backupIdOf(third), '--data', newest], env)).code, 0);
        const db = await readFile(join(newest, 'hearth.db'));
        const expected = new Set<string>();
        for (let at = 0; at < db.length; at += size) expected.add(createHash('sha256').update(db.subarray(at, at + size)).digest('hex'));
        assert.deepEqual(new Set(kept.map((p) => p.slice(p.lastIndexOf('/') + 1))), expected, 'the chunks of the backups the policy removed are gone; the kept one has all of its own');
      }
    } finally {
      await t.stop();
      await rm(work, { recursive: true, force: true });
    }
  });
}

test('the names of the database pieces in an encrypted target are not checksums of their plain bytes', { timeout: 180_000 }, async () => {
  const t = await largeHub();
  const work = await mkdtemp(join(tmpdir(), 'hearth-incremental-'));
  try {
    const target = join(work, 'target');
    const run = await hearth(['backup', '--to', target, '--data', t.dataDir], { HEARTH_BACKUP_PASSPHRASE: PASSPHRASE });
    assert.equal(run.code, 0, run.stderr);
    const restored = join(work, 'restored');
    assert.equal((await hearth(['restore', '--from', target, '--data', restored], { HEARTH_BACKUP_PASSPHRASE: PASSPHRASE })).code, 0);

    // Whatever the piece size, the plain database's SHA-256 of each piece (of the sizes the target's objects suggest) is nowhere among the names.
    const names = [...(await filesIn(target)).keys()].map((p) => p.slice(p.lastIndexOf('/') + 1));
    const pieces = names.filter((n) => /^[0-9a-f]{64}$/.test(n));
    assert.ok(pieces.length > 10, `the database is kept in pieces (${pieces.length} objects named by a hash)`);
    const db = await readFile(join(restored, 'hearth.db'));
    const taken = new Set(names);
    for (const size of [64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20]) {
      for (let at = 0; at < db.length; at += size) {
        assert.equal(taken.has(createHash('sha256').update(db.subarray(at, at + size)).digest('hex')), false, `a name is the SHA-256 of the plain bytes at ${at} (${size})`);
      }
    }
    assert.equal(taken.has(createHash('sha256').update(db).digest('hex')), false);
  } finally {
    await t.stop();
    await rm(work, { recursive: true, force: true });
  }
});

test('a backup in the earlier format (a whole hearth.db in its folder) still restores', { timeout: 180_000 }, async () => {
  const t = await startHub({ channels: ['alice'] });
  const work = await mkdtemp(join(tmpdir(), 'hearth-incremental-'));
  try {
    const res = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: 'an old backup' }, { media: { data: await makeImage(320, 240), name: 'p.jpg', type: 'image/jpeg' } }) });
    assert.equal(res.status, 200, await res.text());

    // The target as Hearth wrote it before the database was kept in pieces.
    const target = join(work, 'target');
    const id = '20250131-042000';
    const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    await mkdir(join(target, 'backups', id), { recursive: true });
    await writeFile(join(target, 'hearth-backups.json'), JSON.stringify({ format: 1, encrypted: false }) + '\n');
    const dbCopy = join(target, 'backups', id, 'hearth.db');
    const live = openSqlite(join(t.dataDir, 'hearth.db'), { readonly: true });
    try {
      await live.backup(dbCopy);
    } finally {
      live.close();
    }
    const copy = openSqlite(dbCopy);
    copy.pragma('journal_mode = DELETE');
    const schema = copy.pragma('user_version', { simple: true }) as number;
    copy.close();
    const files: [string, number, string][] = [];
    for (const content of (await storeFiles(t.dataDir)).keys()) {
      const key = content.slice(content.lastIndexOf('/') + 1);
      const bytes = await readFile(join(t.dataDir, content));
      await mkdir(join(target, 'files', key.slice(0, 2)), { recursive: true });
      await copyFile(join(t.dataDir, content), join(target, 'files', key.slice(0, 2), key));
      files.push([key, bytes.length, sha256(bytes)]);
    }
    assert.ok(files.length > 0);
    const db = await readFile(dbCopy);
    const manifest = { format: 1, id, created: '2025-01-31T04:20:00.000Z', hearth: { version: '0.1.0', schema }, database: { size: db.length, sha256: sha256(db) }, files, copied: { files: files.length, bytes: 0 } };
    await writeFile(join(target, 'backups', id, 'manifest.json'), JSON.stringify(manifest));

    const restored = join(work, 'restored');
    const run = await hearth(['restore', '--from', target, '--data', restored]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`restored backup ${id}`));
    assert.deepEqual(tableRows(restored, 'item'), tableRows(t.dataDir, 'item'));
    for (const [content, hash] of await storeFiles(t.dataDir)) assert.equal(sha256(await readFile(join(restored, content))), hash);

    // A damaged one is refused as before, naming its database copy.
    const middle = Math.floor(db.length / 2);
    db[middle] = db[middle]! ^ 0x20;
    await writeFile(dbCopy, db);
    const damaged = await hearth(['restore', '--from', target, '--data', join(work, 'again')]);
    assert.equal(damaged.code, 1);
    assert.match(damaged.stderr, new RegExp(`the database copy \\(backups/${id}/hearth\\.db\\) is damaged`));

    // A new backup to the same target goes on beside it.
    db[middle] = db[middle]! ^ 0x20;
    await writeFile(dbCopy, db);
    const next = await hearth(['backup', '--to', target, '--data', t.dataDir]);
    assert.equal(next.code, 0, next.stderr);
    assert.equal((await hearth(['restore', '--from', target, '--backup', id, '--data', join(work, 'old-again')])).code, 0, 'the old backup is kept');
  } finally {
    await t.stop();
    await rm(work, { recursive: true, force: true });
  }
});
