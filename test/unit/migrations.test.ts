import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { listMigrations, migrate, openDatabase, schemaVersion } from '../../server/db/open.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('a new database gets every migration, in order, and the schema version of the last', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-mig-'));
  const db = openDatabase(join(dir, 'h.db'));
  const migrations = listMigrations();
  assert.ok(migrations.length >= 1);
  assert.deepEqual(migrations.map((m) => m.version), [...migrations.map((m) => m.version)].sort((a, b) => a - b));
  assert.equal(schemaVersion(db), migrations.at(-1)!.version);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  assert.ok((db.pragma('busy_timeout', { simple: true }) as number) >= 1000);
  for (const table of ['account', 'channel', 'xchan', 'profile', 'abook', 'abconfig', 'pgrp', 'pgrp_member', 'item', 'term', 'attach', 'photo', 'notify', 'mail', 'conv', 'oauth_client', 'oauth_token', 'config', 'pconfig']) {
    assert.ok(db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table), `table ${table} exists`);
  }
  db.close();
  // Reopening applies nothing again.
  const again = new Database(join(dir, 'h.db'));
  assert.deepEqual(migrate(again, migrations), []);
  again.close();
});

test('every column of the seed item table exists', () => {
  const db = new Database(':memory:');
  migrate(db);
  const cols = new Set((db.prepare('PRAGMA table_info(item)').all() as { name: string }[]).map((c) => c.name));
  const seed = `id mid aid uid parent parent_mid thr_parent created edited expires commented received changed comments_closed owner_xchan
    author_xchan source_xchan mimetype title body html app lang revision verb obj_type obj tgt_type target layout_mid postopts route llink
    plink resource_id resource_type attach sig diaspora_meta location coord public_policy comment_policy allow_cid allow_gid deny_cid deny_gid
    item_restrict item_flags item_private item_origin item_unseen item_starred item_uplink item_consensus item_wall item_thread_top
    item_notshown item_nsfw item_relay item_mentionsme item_nocomment item_obscured item_verified item_retained item_rss item_deleted
    item_type item_hidden item_unpublished item_delayed item_pending_remove item_blocked`.split(/\s+/);
  for (const c of seed) assert.ok(cols.has(c), `item.${c}`);
});

test('a failing migration is rolled back and leaves the previous schema version', () => {
  const db = new Database(':memory:');
  const ok = { version: 1, name: '001_ok.sql', sql: 'CREATE TABLE a (x INTEGER);' };
  const bad = { version: 2, name: '002_bad.sql', sql: 'CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);' };
  assert.throws(() => migrate(db, [ok, bad]));
  assert.equal(schemaVersion(db), 1);
  assert.equal((db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'b'").get() as { n: number }).n, 0);
  assert.deepEqual(migrate(db, [ok, { ...bad, sql: 'CREATE TABLE b (y INTEGER);' }]), [2]);
});

test('notifications stored with a base URL keep only the path of the hub\'s pages (migration 18)', () => {
  const db = new Database(':memory:');
  const all = listMigrations();
  migrate(db, all.filter((m) => m.version < 18));
  db.prepare("INSERT INTO account (account_id, account_email, account_password) VALUES (1, 'a@example.com', '')").run();
  db.prepare("INSERT INTO xchan (xchan_hash, xchan_url) VALUES ('local', 'http://127.0.0.1:8420/channel/bob'), ('me', 'http://127.0.0.1:8420/channel/alice'), ('remote', 'https://elsewhere.example/channel/eve')").run();
  db.prepare("INSERT INTO channel (channel_id, channel_account_id, channel_hash, channel_address) VALUES (2, 1, 'local', 'bob'), (3, 1, 'me', 'alice')").run();
  const insert = db.prepare('INSERT INTO notify (uid, xchan, link, url, photo) VALUES (3, ?, ?, ?, ?)');
  insert.run('local', 'http://127.0.0.1:8420/display/abc@127.0.0.1', 'http://127.0.0.1:8420/channel/bob', 'http://127.0.0.1:8420/photo/profile/s/2');
  insert.run('remote', 'https://192.168.1.20:8420/connections/7', 'https://elsewhere.example/channel/eve', 'https://elsewhere.example/photo/e.jpg');
  migrate(db, all);
  assert.deepEqual(db.prepare('SELECT link, url, photo FROM notify ORDER BY id').all(), [
    { link: '/display/abc@127.0.0.1', url: '/channel/bob', photo: '/photo/profile/s/2' },
    { link: '/connections/7', url: 'https://elsewhere.example/channel/eve', photo: 'https://elsewhere.example/photo/e.jpg' },
  ]);
});

test('migration 013 gives a channel made before it the pconfig rows a new channel starts with', async () => {
  const { generateChannelKeys, insertChannel } = await import('../../server/store/channels.js');
  const { createChannel } = await import('../../server/services/channels.js');
  const db = new Database(':memory:');
  const all = listMigrations();
  migrate(db, all.filter((m) => m.version < 13));
  db.prepare("INSERT INTO account (account_email, account_password) VALUES ('a@example.com', 'x')").run();
  const old = insertChannel(db, { accountId: 1, nick: 'old', name: 'Old', baseUrl: 'http://127.0.0.1:8420', keys: await generateChannelKeys() });
  db.prepare("INSERT INTO pconfig (uid, cat, k, v) VALUES (?, 'perm_limits', 'view_stream', '8')").run(old.channel_id);
  migrate(db, all);
  const fresh = new Database(':memory:');
  migrate(fresh, all);
  const made = await createChannel(fresh, { baseUrl: 'http://127.0.0.1:8420' }, { nick: 'new', password: 'a good password' });
  const rows = (d: Database.Database, uid: number) => d.prepare('SELECT cat, k, v FROM pconfig WHERE uid = ? ORDER BY id').all(uid);
  const expected = rows(fresh, made.channel_id) as { cat: string; k: string; v: string }[];
  assert.equal(expected.length, 22);
  const got = rows(db, old.channel_id) as { cat: string; k: string; v: string }[];
  assert.deepEqual(got[0], { cat: 'perm_limits', k: 'view_stream', v: '8' }, 'a row the channel had is kept');
  // Migration 034 added the social defaults later, so its row comes last.
  const byKey = (list: { cat: string; k: string; v: string }[]) => [...list].sort((a, b) => `${a.cat}/${a.k}`.localeCompare(`${b.cat}/${b.k}`));
  assert.deepEqual(byKey(got.slice(1)), byKey(expected.filter((r) => !(r.cat === 'perm_limits' && r.k === 'view_stream'))));
});

test('migration 034: existing channels get the social defaults; choices they made are kept', async () => {
  const { generateChannelKeys, insertChannel } = await import('../../server/store/channels.js');
  const db = new Database(':memory:');
  const all = listMigrations();
  migrate(db, all.filter((m) => m.version < 34));
  db.prepare("INSERT INTO account (account_email, account_password) VALUES ('a@example.com', 'x')").run();
  const made: Awaited<ReturnType<typeof insertChannel>>[] = [];
  for (const nick of ['plain', 'chose', 'locked']) made.push(insertChannel(db, { accountId: 1, nick, name: nick, baseUrl: 'http://127.0.0.1:8420', keys: await generateChannelKeys() }));
  const [plain, chose, locked] = made;
  const limit = db.prepare("INSERT OR REPLACE INTO pconfig (uid, cat, k, v) VALUES (?, 'perm_limits', ?, ?)");
  for (const ch of [plain!, chose!, locked!]) for (const k of ['post_comments', 'post_like', 'republish', 'post_wall']) limit.run(ch.channel_id, k, '128');
  limit.run(chose!.channel_id, 'post_comments', '8');
  db.prepare("INSERT INTO pconfig (uid, cat, k, v) VALUES (?, 'system', 'autoperms', '0')").run(chose!.channel_id);
  db.prepare("INSERT INTO pconfig (uid, cat, k, v) VALUES (?, 'mastodon', 'locked', '1')").run(locked!.channel_id);
  // plain follows chose (accepted); locked asked to follow plain (waiting).
  const abook = db.prepare('INSERT INTO abook (abook_channel, abook_xchan, abook_pending) VALUES (?, ?, ?)');
  abook.run(plain!.channel_id, chose!.channel_hash, 0);
  abook.run(chose!.channel_id, plain!.channel_hash, 0);
  abook.run(plain!.channel_id, locked!.channel_hash, 1);
  migrate(db, all);

  const v = (uid: number, cat: string, k: string) => (db.prepare('SELECT v FROM pconfig WHERE uid = ? AND cat = ? AND k = ?').get(uid, cat, k) as { v: string } | undefined)?.v;
  for (const k of ['post_comments', 'post_like', 'republish']) assert.equal(v(plain!.channel_id, 'perm_limits', k), '1', `${k} is public`);
  assert.equal(v(plain!.channel_id, 'perm_limits', 'post_wall'), '128', 'other permissions stay per connection');
  assert.equal(v(chose!.channel_id, 'perm_limits', 'post_comments'), '8', 'a limit the channel chose is kept');
  assert.deepEqual([v(plain!.channel_id, 'system', 'autoperms'), v(chose!.channel_id, 'system', 'autoperms'), v(locked!.channel_id, 'system', 'autoperms')], ['1', '0', '0']);
  assert.equal(v(locked!.channel_id, 'mastodon', 'locked'), undefined, 'one setting for every API');
  const unconnected = (uid: number, xchan: string) => (db.prepare('SELECT abook_unconnected AS u FROM abook WHERE abook_channel = ? AND abook_xchan = ?').get(uid, xchan) as { u: number }).u;
  assert.equal(unconnected(plain!.channel_id, chose!.channel_hash), 0, 'plain follows chose');
  assert.equal(unconnected(plain!.channel_id, locked!.channel_hash), 1, 'a request waiting is no follow of plain\'s');
});
