import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/backup.js';
import { openDatabase } from '../../server/db/open.js';
import { readBackupSettings } from '../../server/backup/settings.js';
import { lastBackup } from '../../server/backup/service.js';

// A headless hub backs itself up on the schedule that --backup-to and --backup-every give it, and
// keeps them as its settings (which Settings → Backups then shows).

test('hearth serve --backup-to DIR --backup-every 3s makes a backup every 3 seconds', { timeout: 120_000 }, async () => {
  const work = await mkdtemp(join(tmpdir(), 'hearth-schedule-'));
  const data = join(work, 'hub');
  const target = join(work, 'backups');
  const child = spawn(process.execPath, [BIN, 'serve', '--data', data, '--port', '0', '--backup-to', target, '--backup-every', '3s'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  try {
    const complete = async () => (existsSync(join(target, 'backups')) ? (await readdir(join(target, 'backups'))).filter((id) => existsSync(join(target, 'backups', id, 'manifest.json'))) : []);
    const seen = new Set<string>();
    const deadline = Date.now() + 90_000;
    while (seen.size < 2 && Date.now() < deadline) {
      for (const id of await complete()) seen.add(id);
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(seen.size >= 2, `two scheduled backups were made:\n${out}`);
    assert.match(out, /backup \d{8}-\d{6}(-\d+)? to .*backups: \d+ files, \d+ copied/);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  const db = openDatabase(join(data, 'hearth.db'));
  try {
    const settings = readBackupSettings(db);
    assert.equal(settings.target, target);
    assert.equal(settings.everySeconds, 3);
    assert.equal(lastBackup(db)?.ok, true);
  } finally {
    db.close();
  }
  await rm(work, { recursive: true, force: true });
});
