import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertAllStrings, assertError, call } from '../helpers/native.js';
import { connect } from '../../server/services/connections.js';
import { getConnection, setAbconfig, updateConnection } from '../../server/store/connections.js';
import { setPConfig } from '../../server/store/config.js';

let t: TestHub;
let bobAbook: number;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave'] });
  const { alice, bob, dave } = t.channels;
  connect(t.hub, alice!, bob!.channel_hash);
  connect(t.hub, bob!, alice!.channel_hash);
  connect(t.hub, alice!, dave!.channel_hash);
  connect(t.hub, dave!, alice!.channel_hash);
  bobAbook = getConnection(t.hub.db, alice!.channel_id, bob!.channel_hash)!.abook_id;
  setAbconfig(t.hub.db, alice!.channel_id, bob!.channel_hash, 'system', 'note', 'met at the fair');
  setAbconfig(t.hub.db, alice!.channel_id, dave!.channel_hash, 'system', 'note', 'neighbour');
});
after(() => t.stop());

test('abook lists connections with their xchan, the channel\'s own entry included', async () => {
  const r = await call(t, 'alice', 'abook');
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.map((a: { xchan_addr: string }) => a.xchan_addr.split('@')[0]), ['alice', 'bob', 'dave']);
  for (const a of r.json) {
    assertAllStrings(a);
    assert.equal(a.abook_xchan, a.xchan_hash);
    assert.equal(a.abook_channel, String(t.channels.alice!.channel_id));
    assert.equal('xchan_id' in a, false);
  }
  assert.equal(r.json[0].abook_self, '1');
  assert.equal(r.json[1].abook_self, '0');
  assert.equal(r.json[1].abook_pending, '0');
  const one = await call(t, 'alice', `abook?abook_id=${bobAbook}`);
  assert.deepEqual(one.json, [r.json[1]]);
});

test('abook: someone else\'s or unknown abook_id 404, malformed 400', async () => {
  assertError(await call(t, 'bob', `abook?abook_id=${bobAbook}`), 404);
  assertError(await call(t, 'alice', 'abook?abook_id=4242'), 404);
  assertError(await call(t, 'alice', 'abook?abook_id=x'), 400, /abook_id/);
  assertError(await call(t, undefined, 'abook'), 401);
});

test('abconfig lists connection metadata, optionally of one connection', async () => {
  const all = await call(t, 'alice', 'abconfig');
  assert.equal(all.status, 200);
  assert.equal(all.json.length, 2);
  for (const row of all.json) {
    assert.deepEqual(Object.keys(row), ['id', 'chan', 'xchan', 'cat', 'k', 'v']);
    assertAllStrings(row);
  }
  const one = await call(t, 'alice', `abconfig?abook_id=${bobAbook}`);
  assert.deepEqual(one.json.map((r: { v: string }) => r.v), ['met at the fair']);
  assert.deepEqual((await call(t, 'bob', 'abconfig')).json, []);
  assertError(await call(t, 'bob', `abconfig?abook_id=${bobAbook}`), 404);
});

test('perm_allowed evaluates the named xchan with Hubzilla\'s permission names', async () => {
  const { bob, carol } = t.channels;
  const byAbook = await call(t, 'alice', `perm_allowed?perm=post_comments&abook_id=${bobAbook}`);
  assert.equal(byAbook.status, 200);
  assert.deepEqual(byAbook.json, [{ perm: 'post_comments', allowed: true }]);
  const byHash = await call(t, 'alice', `perm_allowed?perm=post_comments&xchan=${encodeURIComponent(bob!.channel_hash)}`);
  assert.deepEqual(byHash.json, [{ perm: 'post_comments', allowed: true }]);
  // carol is not a connection: public permissions yes (viewing, and commenting as anyone may
  // who sees a public post), per-connection ones no.
  const carolComments = await call(t, 'alice', `perm_allowed?perm=post_comments&address=carol@${t.hub.hostname}`);
  assert.deepEqual(carolComments.json, [{ perm: 'post_comments', allowed: true }]);
  const carolWall = await call(t, 'alice', `perm_allowed?perm=post_wall&address=carol@${t.hub.hostname}`);
  assert.deepEqual(carolWall.json, [{ perm: 'post_wall', allowed: false }]);
  const carolView = await call(t, 'alice', `perm_allowed?perm=view_stream&hash=${encodeURIComponent(carol!.channel_hash)}`);
  assert.deepEqual(carolView.json, [{ perm: 'view_stream', allowed: true }]);
  // write_storage is not among a new connection's grants.
  assert.deepEqual((await call(t, 'alice', `perm_allowed?perm=write_storage&abook_id=${bobAbook}`)).json, [{ perm: 'write_storage', allowed: false }]);
});

test('perm_allowed without perm lists every permission; limits and blocking change the answers', async () => {
  const { alice, dave } = t.channels;
  const daveHash = encodeURIComponent(dave!.channel_hash);
  const all = await call(t, 'alice', `perm_allowed?xchan=${daveHash}`);
  assert.equal(all.json.length, 17);
  assert.ok(all.json.every((p: { allowed: unknown }) => p.allowed === 1 || p.allowed === 0), 'the full list answers 1 or 0, as Hubzilla does');
  assert.deepEqual(all.json.find((p: { perm: string }) => p.perm === 'post_wall'), { perm: 'post_wall', allowed: 1 });
  const self = await call(t, 'alice', `perm_allowed?xchan=${encodeURIComponent(alice!.channel_hash)}`);
  assert.ok(self.json.every((p: { allowed: number }) => p.allowed === 1));

  setPConfig(t.hub.db, alice!.channel_id, 'perm_limits', 'view_stream', '0');
  assert.deepEqual((await call(t, 'alice', `perm_allowed?perm=view_stream&xchan=${daveHash}`)).json, [{ perm: 'view_stream', allowed: false }]);
  setPConfig(t.hub.db, alice!.channel_id, 'perm_limits', 'view_stream', '8');
  assert.deepEqual((await call(t, 'alice', `perm_allowed?perm=view_stream&xchan=${daveHash}`)).json, [{ perm: 'view_stream', allowed: true }]);
  assert.deepEqual(
    (await call(t, 'alice', `perm_allowed?perm=view_stream&address=carol@${t.hub.hostname}`)).json,
    [{ perm: 'view_stream', allowed: false }],
    'contacts only: carol is not one',
  );
  setAbconfig(t.hub.db, alice!.channel_id, dave!.channel_hash, 'my_perms', 'write_storage', '1');
  assert.deepEqual((await call(t, 'alice', `perm_allowed?perm=write_storage&xchan=${daveHash}`)).json, [{ perm: 'write_storage', allowed: true }]);

  const conn = getConnection(t.hub.db, alice!.channel_id, dave!.channel_hash)!;
  updateConnection(t.hub.db, conn.abook_id, { abook_blocked: 1 });
  const blocked = await call(t, 'alice', `perm_allowed?xchan=${daveHash}`);
  assert.ok(blocked.json.every((p: { allowed: boolean }) => !p.allowed), 'a blocked connection may do nothing');
});

test('perm_allowed: unknown permission or missing target 400, unknown target 404', async () => {
  assertError(await call(t, 'alice', `perm_allowed?perm=fly&abook_id=${bobAbook}`), 400, /fly/);
  assertError(await call(t, 'alice', 'perm_allowed?perm=view_stream'), 400, /abook_id/);
  assertError(await call(t, 'alice', 'perm_allowed?perm=view_stream&xchan=nobody'), 404);
  assertError(await call(t, 'alice', 'perm_allowed?perm=view_stream&abook_id=9999'), 404);
  assertError(await call(t, 'bob', `perm_allowed?abook_id=${bobAbook}`), 404);
});

test('abconfig POST with cat, k and v grants or withdraws a permission of one connection', async () => {
  const { bob } = t.channels;
  const before = await call(t, 'alice', `perm_allowed?perm=chat&xchan=${encodeURIComponent(bob!.channel_hash)}`);
  const set = await call(t, 'alice', 'abconfig', { form: { abook_id: String(bobAbook), cat: 'my_perms', k: 'chat', v: before.json[0].allowed ? '0' : '1' } });
  assert.equal(set.status, 200);
  assert.ok(set.json.some((r: { cat: string; k: string; v: string }) => r.cat === 'my_perms' && r.k === 'chat'));
  const after = await call(t, 'alice', `perm_allowed?perm=chat&xchan=${encodeURIComponent(bob!.channel_hash)}`);
  assert.equal(after.json[0].allowed, !before.json[0].allowed);
  assertError(await call(t, 'alice', 'abconfig', { form: { cat: 'my_perms', k: 'chat', v: '1' } }), 400, /abook_id/);
  assertError(await call(t, 'alice', 'abconfig', { form: { abook_id: String(bobAbook), cat: 'my_perms', k: 'fly', v: '1' } }), 400, /permission/);
  assertError(await call(t, 'alice', 'abconfig', { form: { abook_id: String(bobAbook), cat: 'my_perms', k: 'chat', v: 'maybe' } }), 400);
  assertError(await call(t, 'bob', 'abconfig', { form: { abook_id: String(bobAbook), cat: 'my_perms', k: 'chat', v: '1' } }), 404);
});
