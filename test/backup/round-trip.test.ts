import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { webLogin } from '../helpers/web-session.js';
import { registerApp } from '../helpers/oauth-client.js';
import { registerMastodonApp } from '../helpers/mastodon.js';
import { backupIdOf, hearth, startCli, storeFiles, tableRows } from '../helpers/backup.js';
import { openSqlite } from '../../server/db/native-binding.js';

// The whole hub, backed up by `hearth backup` while it serves and a client keeps posting, then
// restored by `hearth restore` into a new folder: everything made before the backup is there, byte
// for byte; each post made during it is there whole (its photo's every scale too) or not at all;
// and a hub started on the restored folder finds nothing to repair.

/**
 * Tables whose rows change by themselves while the hub serves (sessions seen, counters, backup state).
 * The counters kept by triggers (statuses per author, exported items per month, hashtag uses, photos
 * per album) move with every post the client makes during the backup; the copy holds them as of its
 * commit, with the items they count.
 */
const LIVE = new Set(['session', 'audience_generation', 'author_status_count', 'item_export_month', 'hashtag_use', 'photo_album', 'oauth_nonce', 'fed_kv', 'fed_queue']);
/** What the owner made: nothing the client's posting does may change these rows, so they are restored exactly. */
/** Columns that posting updates (a channel's time of last post): any value of theirs is fine. */
const VOLATILE = /"channel_lastpost":"[^"]*"/;
const CONTENT = new Set(['item', 'photo', 'attach', 'mail', 'conv', 'oauth_client', 'oauth', 'oauth_token', 'pconfig', 'config', 'profile', 'term', 'media_meta', 'account']);

async function ok(res: Promise<Response>): Promise<any> {
  const r = await res;
  const text = await r.text();
  assert.ok(r.status < 300, `${r.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function fill(t: TestHub): Promise<void> {
  for (let i = 0; i < 12; i++) {
    await ok(t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: `before the backup ${i} #hearth` }, { media: { data: await makeImage(900 + i, 700, 'jpeg', `#${(i * 20).toString(16).padStart(2, '0')}5533`), name: `p${i}.jpg`, type: 'image/jpeg' } }) }));
  }
  for (let i = 0; i < 5; i++) await ok(t.request('/api/z/1.0/file/upload', { method: 'POST', as: 'alice', body: form({}, { file: { data: `a file ${i} `.repeat(2000 * (i + 1)), name: `notes-${i}.txt`, type: 'text/plain' } }) }));
  for (const [from, to] of [['alice', 'bob'], ['bob', 'alice'], ['alice', 'bob']]) {
    await ok(t.request('/api/direct_messages/new.json', { method: 'POST', as: from, body: new URLSearchParams({ screen_name: to!, text: `a message from ${from} to ${to}` }) }));
  }
  await ok(t.request('/api/account/settings.json', { method: 'POST', as: 'alice', body: new URLSearchParams({ protected: 'true', comment_policy: 'connections' }) }));
  const owner = await webLogin(t, 'alice');
  await registerApp(owner, { name: 'An OAuth 1.0a client' });
  await registerMastodonApp(t, { name: 'A Mastodon app' });
}

// The database is copied in memory up to a size, through a file beyond it: both ways are tried.
for (const [how, env] of [['copied in memory', {}], ['copied through a file', { HEARTH_BACKUP_MEMORY_MB: '0' }]] as const) {
  test(`a hub backed up while a client posts is restored whole, byte for byte, and passes its integrity check (the database ${how})`, { timeout: 300_000 }, async () => {
    const t = await startHub({ channels: ['alice', 'bob'] });
    const work = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
    // A long read (another program reading the database, an export) holds the WAL: what is written
    // from now on stays in hearth.db-wal, not in hearth.db, until it ends. A backup must take it all.
    const reader = openSqlite(join(t.dataDir, 'hearth.db'), { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM item').get();
    try {
      await fill(t);
      const before = new Map<string, Map<string, string>>();
      const db = t.hub.db;
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%'").pluck().all() as string[]).filter((n) => !LIVE.has(n));
      for (const table of tables) before.set(table, tableRows(t.dataDir, table, table === 'config' ? "cat <> 'backup'" : '1'));
      const filesBefore = await storeFiles(t.dataDir);
      assert.ok(filesBefore.size >= 12 * 3 + 5, `photos in every scale and files: ${filesBefore.size}`);

      // A client posting all along the backup, a photo every third post.
      const during: { id: string; text: string; photo: boolean }[] = [];
      let posting = true;
      const image = await makeImage(640, 480, 'jpeg', '#3366aa');
      const client = (async () => {
        for (let i = 0; posting; i++) {
          const text = `during the backup ${i}`;
          const photo = i % 3 === 0;
          const status = await ok(t.request('/api/statuses/update.json', { method: 'POST', as: 'bob', body: photo ? form({ status: text }, { media: { data: image, name: 'd.jpg', type: 'image/jpeg' } }) : new URLSearchParams({ status: text }) }));
          during.push({ id: status.id_str, text, photo });
        }
      })();
      const target = join(work, 'target');
      const run = await hearth(['backup', '--to', target, '--data', t.dataDir], env);
      posting = false;
      await client;
      reader.exec('COMMIT');
      reader.close();
      assert.equal(run.code, 0, run.stderr);
      const id = backupIdOf(run);
      assert.match(run.stdout, /^backup \S+: [\d.]+ MB \(the database and \d+ files\), \d+ files copied \([\d.]+ MB\), [\d.]+ of [\d.]+ MB of the database copied, [\d.]+ s$/m);
      assert.ok(during.length >= 3, `the client posted during the backup (${during.length} posts)`);

      const restoredDir = join(work, 'restored');
      const restore = await hearth(['restore', '--from', target, '--backup', id, '--data', restoredDir]);
      assert.equal(restore.code, 0, restore.stderr);

      // Rows of other tables may have changed during the backup (bob's channel has a newer last
      // post): each is restored as it was before the backup or as it is after it.
      for (const [table, rows] of before) {
        const where = table === 'config' ? "cat <> 'backup'" : '1';
        const restoredRows = tableRows(restoredDir, table, where);
        const now = tableRows(t.dataDir, table, where);
        for (const [key, row] of rows) {
          const got = restoredRows.get(key);
          const same = got === row || (!CONTENT.has(table) && (got === now.get(key) || got?.replace(VOLATILE, '') === row.replace(VOLATILE, '')));
          assert.ok(same, `${table} row ${key} is restored byte for byte`);
        }
      }
      const filesAfter = await storeFiles(restoredDir);
      for (const [path, sha] of filesBefore) assert.equal(filesAfter.get(path), sha, `${path} is restored byte for byte`);
      for (const [path, sha] of filesAfter) assert.equal(sha, (await storeFiles(t.dataDir)).get(path), `${path} is the hub's own file`);

      // Each post made during the backup: in it whole (item, photo rows in every scale, files) or absent.
      const sourceItems = tableRows(t.dataDir, 'item');
      const restoredItems = tableRows(restoredDir, 'item');
      const present = during.filter((p) => restoredItems.has(p.id));
      for (const p of present) assert.equal(restoredItems.get(p.id), sourceItems.get(p.id), `"${p.text}" is restored as posted`);
      assert.ok(present.length < during.length, 'posts made after the database copy are not in it');
      const photosOf = (dir: string) => [...tableRows(dir, 'photo').values()].map((r) => JSON.parse(r) as { resource_id: string; imgscale: number; content: string });
      const sourcePhotos = photosOf(t.dataDir);
      const restoredPhotos = photosOf(restoredDir);
      for (const p of during.filter((d) => d.photo)) {
        const item = sourceItems.get(p.id)!;
        const resources = new Set(sourcePhotos.filter((ph) => JSON.parse(item).body.includes(ph.resource_id)).map((ph) => ph.resource_id));
        assert.ok(resources.size > 0, `"${p.text}" has its photo`);
        for (const resource of resources) {
          const scales = restoredPhotos.filter((ph) => ph.resource_id === resource);
          const expected = sourcePhotos.filter((ph) => ph.resource_id === resource);
          assert.ok(scales.length === 0 || scales.length === expected.length, `the photo of "${p.text}" is there in every scale or not at all`);
          assert.equal(scales.length > 0, restoredItems.has(p.id), `the photo of "${p.text}" is restored exactly when its post is`);
          for (const s of scales) assert.equal(filesAfter.get(s.content), (await storeFiles(t.dataDir)).get(s.content));
        }
      }

      // The restored hub starts, finds nothing to repair, and serves what it holds.
      const restored = await startHub({ dataDir: restoredDir, options: { integrity: { delayMs: 0, pauseMs: 0 } } });
      try {
        const report = await restored.hub.integrity;
        assert.deepEqual(report, { orphanFiles: 0, rowsWithoutFile: 0, repaired: [] });
        assert.equal(String(restored.hub.db.pragma('integrity_check', { simple: true })), 'ok');
        const timeline = await ok(restored.request('/api/statuses/user_timeline.json?count=200', { as: 'alice' }));
        assert.ok(timeline.some((s: { text: string }) => s.text.startsWith('before the backup 11')));
      } finally {
        await restored.stop();
      }
      const leftovers = (await readdir(t.dataDir)).filter((n) => n.startsWith('backup'));
      assert.deepEqual(leftovers, [], 'the backup leaves nothing behind in the data folder');
      assert.ok((await readFile(join(target, 'hearth-backups.json'), 'utf8')).includes('"encrypted":false'));
    } finally {
      if (reader.open) reader.close();
      await t.stop();
      await rm(work, { recursive: true, force: true });
    }
  });
}

test('hearth restore never writes into a folder that is not empty, and a second backup copies only new files', { timeout: 120_000 }, async () => {
  const t = await startHub({ channels: ['alice'] });
  const work = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
  try {
    await ok(t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: 'one' }, { media: { data: await makeImage(300, 200), name: 'a.jpg', type: 'image/jpeg' } }) }));
    const target = join(work, 'target');
    const first = await hearth(['backup', '--to', target, '--data', t.dataDir]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /, [1-9]\d* files copied/);
    await ok(t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: 'two' }, { media: { data: await makeImage(310, 200), name: 'b.jpg', type: 'image/jpeg' } }) }));
    const second = await hearth(['backup', '--to', target, '--data', t.dataDir]);
    assert.equal(second.code, 0, second.stderr);
    const photoFiles = [...(await storeFiles(t.dataDir)).keys()].length;
    const copied = Number(/, (\d+) files copied/.exec(second.stdout)![1]);
    assert.ok(copied > 0 && copied < photoFiles, `only the new photo's files are copied (${copied} of ${photoFiles})`);

    const busy = startCli(['restore', '--from', target, '--data', t.dataDir]);
    const refused = await busy.done;
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is not empty: restore into a new folder/);
    const before = await storeFiles(t.dataDir);
    assert.ok(before.size > 0);
  } finally {
    await t.stop();
    await rm(work, { recursive: true, force: true });
  }
});
