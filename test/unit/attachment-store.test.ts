import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { AttachmentStore, commitWithFiles } from '../../server/files/store.js';
import { openDatabase } from '../../server/db/open.js';
import { checkIntegrity, startIntegrityCheck } from '../../server/services/integrity.js';

async function newStore() {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-store-'));
  const store = new AttachmentStore(join(dir, 'store'));
  await store.init();
  return { dir, store };
}

test('bytes stored under a key read back whole and by range', async () => {
  const { store } = await newStore();
  const data = Buffer.from('0123456789abcdef');
  const key = await store.putBuffer(data);
  assert.match(key, /^[0-9a-f]{64}$/);
  assert.deepEqual(await store.read(key), data);
  assert.equal((await store.read(key, 4, 3)).toString(), '456');
  assert.equal((await store.read(key, 14, 100)).toString(), 'ef');
  assert.equal((await store.read(key, 100, 5)).length, 0);
  assert.equal(store.relativePath(key), join('store', key.slice(0, 2), key.slice(2, 4), key));
  assert.deepEqual(await store.listKeys(), [key]);
});

test('a failed database write removes the files stored for it', async () => {
  const { store } = await newStore();
  const key = await store.putBuffer(Buffer.from('x'));
  await assert.rejects(commitWithFiles(store, [key], () => {
    throw new Error('constraint failed');
  }));
  assert.equal(existsSync(store.path(key)), false);
  assert.deepEqual(await store.listKeys(), []);
});

test('a failed file write leaves neither a file nor a temporary file', async () => {
  const { store } = await newStore();
  // Make the temporary directory unusable: writes must fail cleanly.
  await rm(join(store.root, '.tmp'), { recursive: true });
  await writeFile(join(store.root, '.tmp'), 'not a directory');
  await assert.rejects(store.putBuffer(Buffer.from('data')));
  assert.deepEqual(await store.listKeys(), []);
});

/** A database file with one channel, next to the store (the check reads it from a worker thread). */
function newDatabase(dir: string) {
  const db = openDatabase(join(dir, 'hearth.db'));
  db.prepare("INSERT INTO account (account_email, account_password) VALUES ('a@b.c', 'x')").run();
  db.prepare("INSERT INTO xchan (xchan_hash) VALUES ('h')").run();
  db.prepare("INSERT INTO channel (channel_account_id, channel_address, channel_hash) VALUES (1, 'a', 'h')").run();
  return db;
}

test('the integrity check removes orphan files and rows whose file is missing', async () => {
  const { dir, store } = await newStore();
  const db = newDatabase(dir);
  const kept = await store.putBuffer(Buffer.from('kept'));
  const orphan = await store.putBuffer(Buffer.from('orphan'));
  const missing = 'f'.repeat(64);
  const insert = db.prepare('INSERT INTO attach (uid, hash, content) VALUES (1, ?, ?)');
  insert.run('a'.repeat(64), store.relativePath(kept));
  insert.run('b'.repeat(64), store.relativePath(missing));
  insert.run('d'.repeat(64), 'store/not-a-key');
  const report = await checkIntegrity(db, store);
  assert.equal(report.orphanFiles, 1);
  assert.equal(report.rowsWithoutFile, 2);
  assert.deepEqual(await store.listKeys(), [kept]);
  assert.equal((db.prepare('SELECT count(*) AS n FROM attach').get() as { n: number }).n, 1);
  assert.equal(existsSync(store.path(orphan)), false);
  assert.deepEqual(await readdir(join(store.root, '.tmp')), []);
  db.close();
  await rm(dir, { recursive: true, force: true });
});

test('the integrity check leaves alone the files of writes made while it runs', async () => {
  const { dir, store } = await newStore();
  const db = newDatabase(dir);
  const insert = db.prepare('INSERT INTO attach (uid, hash, content) VALUES (1, ?, ?)');
  const orphan = await store.putBuffer(Buffer.from('orphan'));
  // Its file is not there when the check lists the store, but is by the time it looks again: the
  // row and its file were committed between the listing and the reading of the rows.
  const late = 'e'.repeat(64);
  insert.run('c'.repeat(64), store.relativePath(late));
  const check = startIntegrityCheck(db, store, {
    delayMs: 500,
    beforeRepair: async () => {
      await mkdir(join(store.root, late.slice(0, 2), late.slice(2, 4)), { recursive: true });
      await writeFile(store.path(late), 'late');
    },
  });
  // Stored after the check began (before it lists the store), its row not committed yet.
  const uncommitted = await store.putBuffer(Buffer.from('uncommitted'));
  assert.equal(check.status().state, 'waiting', 'the check began before the write: the test proves nothing');
  const report = await check.done;
  assert.deepEqual([report.orphanFiles, report.rowsWithoutFile], [1, 0], report.repaired.join('; '));
  assert.equal(existsSync(store.path(orphan)), false);
  assert.deepEqual((await store.listKeys()).sort(), [uncommitted, late].sort());
  assert.equal((db.prepare('SELECT count(*) AS n FROM attach').get() as { n: number }).n, 1);
  db.close();
  await rm(dir, { recursive: true, force: true });
});

test('a store that cannot be listed is an error, not an empty store (which would make every row look fileless)', async () => {
  const { dir, store } = await newStore();
  const notADirectory = join(store.root, 'placeholder');
  await writeFile(notADirectory, '');
  await assert.rejects(new AttachmentStore(notADirectory).listKeys(), /ENOTDIR/);
  assert.deepEqual(await new AttachmentStore(join(dir, 'absent')).listKeys(), []);
  await rm(dir, { recursive: true, force: true });
});
