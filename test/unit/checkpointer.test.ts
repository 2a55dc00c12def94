import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/open.js';
import { writeTogether } from '../../server/db/group-commit.js';
import { startCheckpointer } from '../../server/db/checkpointer.js';

const MB = 1024 * 1024;

test('under writes that never pause, the WAL starts over instead of growing with everything written', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'hearth-ckpt-')), 'h.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE blob_test (id INTEGER PRIMARY KEY, data BLOB)');
  const checkpointer = startCheckpointer(db);
  const insert = db.prepare('INSERT INTO blob_test (data) VALUES (?)');
  let largestWal = 0;
  try {
    // 100 MB in commits of 160 KiB, each next one queued as soon as the last has committed.
    for (let batch = 0; batch < 640; batch++) {
      await writeTogether(db, () => {
        for (let i = 0; i < 40; i++) insert.run(randomBytes(4096));
      });
      largestWal = Math.max(largestWal, statSync(`${file}-wal`).size);
    }
  } finally {
    await checkpointer.stop();
    db.close();
  }
  assert.ok(largestWal < 30 * MB, `the WAL reached ${(largestWal / MB).toFixed(0)} MB`);
});
