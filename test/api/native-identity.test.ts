import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertAllStrings, assertError, call } from '../helpers/native.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
});
after(() => t.stop());

const PORTABLE_XCHAN_KEYS = [
  'hash', 'guid', 'guid_sig', 'pubkey', 'photo_mimetype', 'photo_l', 'photo_m', 'photo_s', 'address', 'url', 'connurl', 'follow',
  'connpage', 'name', 'network', 'instance_url', 'flags', 'photo_date', 'name_date', 'hidden', 'orphan', 'censored', 'selfcensored',
  'system', 'pubforum', 'deleted',
];

test('verify returns the authenticated channel and its xchan, without secrets', async () => {
  const r = await call(t, 'bob', 'verify');
  assert.equal(r.status, 200);
  const v = r.json;
  assertAllStrings(v);
  assert.equal(v.channel_address, 'bob');
  assert.equal(v.channel_id, String(t.channels.bob!.channel_id));
  assert.equal(v.channel_hash, t.channels.bob!.channel_hash);
  assert.equal(v.xchan_hash, v.channel_hash);
  assert.equal(v.xchan_addr, `bob@${new URL(t.url).host}`);
  assert.equal(v.xchan_url, `${t.url}/channel/bob`);
  assert.match(v.channel_pubkey, /BEGIN PUBLIC KEY/);
  for (const secret of ['channel_prvkey', 'channel_password', 'channel_salt', 'channel_passwd_reset', 'account_password']) assert.equal(secret in v, false, secret);
  assert.doesNotMatch(r.text, /PRIVATE KEY/);
  assert.doesNotMatch(r.text, /scrypt/);
});

test('verify follows the channel parameter within the account and needs credentials', async () => {
  const r = await call(t, 'alice', 'verify?channel=bob');
  assert.equal(r.json.channel_address, 'bob');
  const anon = await call(t, undefined, 'verify');
  assertError(anon, 401);
  assert.match(anon.headers.get('www-authenticate')!, /Basic/);
  const bad = await t.request('/api/z/1.0/verify', { as: 'alice', password: 'nope' });
  assert.equal(bad.status, 401);
  assert.equal((await bad.json()).success, false);
});

test('channel/list names every channel of the account', async () => {
  const r = await call(t, 'bob', 'channel/list');
  assert.equal(r.status, 200);
  assert.deepEqual(r.json, ['alice', 'bob']);
  assertError(await call(t, undefined, 'channel/list'), 401);
});

test('xchan finds an identity by hash, guid or address, unwrapped with the seed\'s keys', async () => {
  const alice = t.channels.alice!;
  const byHash = await call(t, 'bob', `xchan?hash=${encodeURIComponent(alice.channel_hash)}`);
  assert.equal(byHash.status, 200);
  assert.deepEqual(Object.keys(byHash.json), PORTABLE_XCHAN_KEYS);
  assertAllStrings(byHash.json);
  assert.equal(byHash.json.hash, alice.channel_hash);
  assert.equal(byHash.json.guid, alice.channel_guid);
  assert.equal(byHash.json.address, `alice@${new URL(t.url).host}`);
  assert.equal(byHash.json.name, 'Alice');
  assert.equal(byHash.json.network, 'zot6');
  assert.equal(byHash.json.follow, `${t.url}/follow?f=&url=%s`);
  assert.match(byHash.json.pubkey, /^-----BEGIN PUBLIC KEY-----\n/);
  assert.equal(byHash.json.deleted, '0');
  const byGuid = await call(t, 'bob', `xchan?guid=${alice.channel_guid}`);
  assert.deepEqual(byGuid.json, byHash.json);
  const byAddress = await call(t, 'bob', `xchan?address=alice@${t.hub.hostname}`);
  assert.deepEqual(byAddress.json, byHash.json);
});

test('xchan: no selector is 400, an unknown one 404, values are bound not interpolated', async () => {
  assertError(await call(t, 'bob', 'xchan'), 400, /address/);
  assertError(await call(t, 'bob', 'xchan?hash=nope'), 404);
  assertError(await call(t, 'bob', `xchan?address=${encodeURIComponent("x' OR '1'='1")}`), 404);
  assertError(await call(t, undefined, 'xchan?hash=nope'), 401);
});
