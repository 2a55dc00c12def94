import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertAllStrings, assertError, call } from '../helpers/native.js';
import { connect } from '../../server/services/connections.js';
import { addGroupMember, deleteGroup, insertGroup } from '../../server/store/groups.js';

let t: TestHub;
let friends: number;

const MEMBER_FIELDS = [
  'id', 'uid', 'gid', 'xchan',
  'abook_id', 'abook_account', 'abook_channel', 'abook_xchan', 'abook_my_perms', 'abook_their_perms', 'abook_closeness', 'abook_created',
  'abook_updated', 'abook_connected', 'abook_dob', 'abook_flags', 'abook_blocked', 'abook_ignored', 'abook_hidden', 'abook_archived',
  'abook_pending', 'abook_unconnected', 'abook_self', 'abook_feed', 'abook_profile', 'abook_incl', 'abook_excl', 'abook_instance',
  'xchan_hash', 'xchan_guid', 'xchan_guid_sig', 'xchan_pubkey', 'xchan_photo_mimetype', 'xchan_photo_l', 'xchan_photo_m', 'xchan_photo_s',
  'xchan_addr', 'xchan_url', 'xchan_connurl', 'xchan_follow', 'xchan_connpage', 'xchan_name', 'xchan_network', 'xchan_instance_url',
  'xchan_flags', 'xchan_photo_date', 'xchan_name_date', 'xchan_hidden', 'xchan_orphan', 'xchan_censored', 'xchan_selfcensored',
  'xchan_system', 'xchan_pubforum', 'xchan_deleted',
];

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  const { alice, bob, carol } = t.channels;
  connect(t.hub, alice!, bob!.channel_hash);
  connect(t.hub, alice!, carol!.channel_hash);
  friends = insertGroup(t.hub.db, alice!.channel_id, 'hash-friends', 'Friends', true);
  addGroupMember(t.hub.db, alice!.channel_id, friends, bob!.channel_hash);
  addGroupMember(t.hub.db, alice!.channel_id, friends, carol!.channel_hash);
  insertGroup(t.hub.db, alice!.channel_id, 'hash-empty', 'Empty');
  const gone = insertGroup(t.hub.db, alice!.channel_id, 'hash-gone', 'Gone');
  deleteGroup(t.hub.db, gone);
  insertGroup(t.hub.db, bob!.channel_id, 'hash-bobs', 'Bob\'s');
});
after(() => t.stop());

test('group lists the channel\'s groups as a bare array of group records', async () => {
  const r = await call(t, 'alice', 'group');
  assert.equal(r.status, 200);
  assert.ok(Array.isArray(r.json));
  assert.deepEqual(r.json.map((g: { gname: string }) => g.gname), ['Friends', 'Empty', 'Gone']);
  for (const g of r.json) {
    assert.deepEqual(Object.keys(g), ['id', 'hash', 'uid', 'visible', 'deleted', 'gname']);
    assertAllStrings(g);
  }
  assert.deepEqual(r.json[0], { id: String(friends), hash: 'hash-friends', uid: String(t.channels.alice!.channel_id), visible: '1', deleted: '0', gname: 'Friends' });
  assert.equal(r.json[2].deleted, '1');
  const bob = await call(t, 'bob', 'group');
  assert.deepEqual(bob.json.map((g: { gname: string }) => g.gname), ['Bob\'s']);
  assertError(await call(t, undefined, 'group'), 401);
});

test('group_members by group_id or group_name joins member, connection and xchan with every seed field', async () => {
  const byId = await call(t, 'alice', `group_members?group_id=${friends}`);
  assert.equal(byId.status, 200);
  assert.equal(byId.json.length, 2);
  for (const m of byId.json) {
    for (const f of MEMBER_FIELDS) assert.ok(f in m, `member lacks ${f}`);
    assertAllStrings(m);
    assert.equal(m.gid, String(friends));
    assert.equal(m.xchan, m.xchan_hash);
    assert.equal(m.abook_xchan, m.xchan_hash);
    assert.equal(m.abook_channel, String(t.channels.alice!.channel_id));
  }
  assert.deepEqual(byId.json.map((m: { xchan_addr: string }) => m.xchan_addr), [`bob@${new URL(t.url).host}`, `carol@${new URL(t.url).host}`]);
  const byName = await call(t, 'alice', 'group_members?group_name=Friends');
  assert.deepEqual(byName.json, byId.json);
  const empty = await call(t, 'alice', 'group_members?group_name=Empty');
  assert.deepEqual(empty.json, []);
});

test('group_members: missing or malformed selector 400, unknown or someone else\'s group 404', async () => {
  assertError(await call(t, 'alice', 'group_members'), 400, /group_id/);
  assertError(await call(t, 'alice', 'group_members?group_id=abc'), 400, /group_id/);
  assertError(await call(t, 'alice', 'group_members?group_id=99999'), 404);
  assertError(await call(t, 'alice', 'group_members?group_name=Nope'), 404);
  assertError(await call(t, 'bob', `group_members?group_id=${friends}`), 404);
  assertError(await call(t, 'bob', 'group_members?group_name=Friends'), 404);
});
