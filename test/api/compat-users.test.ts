import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call, fails, ok, parseXml } from '../helpers/compat.js';
import { getConnection, updateConnection } from '../../server/store/connections.js';
import { addGroupMember, insertGroup, removeGroupMember } from '../../server/store/groups.js';

let t: TestHub;
const id = { alice: 0, bob: 0, carol: 0, dave: 0, erin: 0 };

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave', 'erin'] });
  for (const nick of ['alice', 'bob', 'carol', 'dave', 'erin'] as const) id[nick] = (await ok(t, `/api/users/show.json?screen_name=${nick}`)).id;
  // alice and bob follow each other; carol follows alice; dave approves followers by hand, and
  // erin asked to follow him (pending on dave's side).
  await ok(t, '/api/friendships/create.json', { as: 'alice', form: { screen_name: 'bob' } });
  await ok(t, '/api/friendships/create.json', { as: 'bob', form: { user_id: String(id.alice) } });
  await ok(t, '/api/friendships/create.json', { as: 'carol', form: { screen_name: 'alice' } });
  await ok(t, '/api/account/settings.json', { as: 'dave', form: { protected: '1' } });
  await ok(t, '/api/friendships/create.json', { as: 'erin', form: { screen_name: 'dave' } });
  await ok(t, '/api/statuses/update.json', { as: 'bob', form: { status: 'bob public' } });
  await ok(t, '/api/statuses/update.json', { as: 'bob', form: { status: 'bob newest' } });
});
after(() => t.stop());

test('account/verify_credentials: the caller with its latest status; JSON and XML', async () => {
  const me = await ok(t, '/api/account/verify_credentials.json', { as: 'bob' });
  assert.equal(me.id, id.bob);
  assert.equal(me.id_str, String(id.bob));
  assert.equal(me.screen_name, 'bob');
  assert.equal(me.name, 'Bob');
  assert.equal(me.statuses_count, 2);
  assert.equal(me.friends_count, 1);
  assert.equal(me.followers_count, 1);
  assert.equal(me.status.text, 'bob newest');
  assert.equal('self' in me, false, 'no key named self: clients build users from keyword arguments');
  assert.equal(me.statusnet_profile_url, `${t.url}/channel/bob`);
  assert.match(me.created_at, /^\w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/);
  assert.ok(!('uid' in me) && !('verified' in me), 'verify_credentials leaves out uid and verified');
  assert.ok(!('status' in (await ok(t, '/api/account/verify_credentials.json?skip_status=true', { as: 'bob' }))));
  const xml = parseXml((await call(t, '/api/account/verify_credentials.xml', { as: 'bob' })).text);
  assert.equal(xml.user.screen_name, 'bob');
  assert.equal(xml.user['statusnet:profile_url'], `${t.url}/channel/bob`);
  assert.equal(xml.user.status.text, 'bob newest');
});

test('account/rate_limit_status: the unmetered allowance in JSON and the StatusNet XML hash', async () => {
  const r = await ok(t, '/api/account/rate_limit_status.json', { as: 'bob' });
  assert.equal(r.remaining_hits, r.hourly_limit);
  assert.ok(r.hourly_limit > 0);
  assert.ok(Number.isInteger(r.reset_time_in_seconds) && r.reset_time_in_seconds > Date.now() / 1000);
  assert.match(r.reset_time, /\+0000/);
  const a = await call(t, '/api/account/rate_limit_status.xml', { as: 'bob' });
  const x = parseXml(a.text);
  assert.equal(x.hash['@_xmlns'], undefined, 'no namespaces on hash');
  assert.equal(x.hash['remaining-hits']['@_type'], 'integer');
  assert.equal(Number(x.hash['hourly-limit']['#text']), r.hourly_limit);
  assert.match(x.hash['reset-time']['#text'], /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
});

test('account/update_profile: name, description, location, url', async () => {
  const u = await ok(t, '/api/account/update_profile.json', { as: 'dave', form: { name: 'Dave D', description: 'I test things', location: 'Lyon', url: 'https://dave.example' } });
  assert.deepEqual([u.name, u.description, u.location, u.url, u.screen_name], ['Dave D', 'I test things', 'Lyon', 'https://dave.example', 'dave']);
  const again = await ok(t, '/api/users/show.json?screen_name=dave');
  assert.deepEqual([again.name, again.description, again.location], ['Dave D', 'I test things', 'Lyon']);
  const only = await ok(t, '/api/account/update_profile.xml'.replace('.xml', '.json'), { as: 'dave', form: { description: '' } });
  assert.deepEqual([only.name, only.description], ['Dave D', ''], 'an absent name is kept, a present empty description clears it');
  const x = await call(t, '/api/account/update_profile.xml', { as: 'dave', form: { name: 'Dave' } });
  assert.equal(parseXml(x.text).user.name, 'Dave');
  await fails(t, '/api/account/update_profile.json', 400, { as: 'dave', form: { url: 'javascript:alert(1)' } });
  await fails(t, '/api/account/update_profile.json', 400, { as: 'dave', form: { name: 'x'.repeat(300) } });
  await fails(t, '/api/account/update_profile.json', 405, { as: 'dave' });
});

test('users/show: by screen_name, user_id or path, anonymous allowed; 404 and 400', async () => {
  const anon = await ok(t, '/api/users/show.json?screen_name=bob');
  assert.equal(anon.id, id.bob);
  assert.equal(anon.following, false);
  assert.equal(anon.status.text, 'bob newest');
  assert.ok(!('uid' in anon));
  const seen = await ok(t, `/api/users/show/${id.bob}.json`, { as: 'alice' });
  assert.equal(seen.following, true, 'alice follows bob');
  assert.equal(seen.verified, true);
  assert.ok(seen.cid > 0);
  assert.equal((await ok(t, '/api/users/show/carol.json', { as: 'bob' })).screen_name, 'carol');
  assert.equal((await ok(t, '/api/users/show.json', { as: 'carol' })).screen_name, 'carol', 'the caller when nobody is named');
  const carolSeen = await ok(t, '/api/users/show.json?screen_name=alice', { as: 'carol' });
  assert.equal(carolSeen.following, true);
  assert.equal(carolSeen.follow_request_sent, false, 'alice does not approve followers by hand');
  assert.equal(carolSeen.protected, false);
  const erinSeen = await ok(t, '/api/users/show.json?screen_name=dave', { as: 'erin' });
  assert.equal(erinSeen.following, false, 'dave has not accepted erin yet');
  assert.equal(erinSeen.follow_request_sent, true);
  assert.equal(erinSeen.protected, true);
  assert.equal(parseXml((await call(t, '/api/users/show.xml?screen_name=bob')).text).user.screen_name, 'bob');
  await fails(t, '/api/users/show.json?screen_name=nobody', 404);
  await fails(t, '/api/users/show.json?user_id=99999', 404);
  await fails(t, '/api/users/show.json?user_id=bob', 400);
  await fails(t, '/api/users/show.json', 400, {});
});

test('users/lookup, users/search, externalprofile/show', async () => {
  const list = await ok(t, `/api/users/lookup.json?user_id=${id.bob},${id.carol},x&screen_name=dave`, { as: 'alice' });
  assert.deepEqual(list.map((u: any) => u.screen_name), ['bob', 'carol', 'dave']);
  const xml = parseXml((await call(t, `/api/users/lookup.xml?user_id=${id.bob}`, { as: 'alice' })).text);
  assert.equal(xml.users.user[0].screen_name, 'bob');
  await fails(t, '/api/users/lookup.json', 404, { as: 'alice' });
  await fails(t, '/api/users/lookup.json?user_id=99999', 404, { as: 'alice' });

  assert.deepEqual((await ok(t, '/api/users/search.json?q=car')).map((u: any) => u.screen_name), ['carol']);
  assert.deepEqual((await ok(t, `/api/users/search.json?q=bob@${new URL(t.url).host}`)).map((u: any) => u.screen_name), ['bob']);
  assert.deepEqual(await ok(t, '/api/users/search.json?q=zzz'), []);
  assert.equal(parseXml((await call(t, '/api/users/search.xml?q=alice')).text).users.user[0].screen_name, 'alice');
  await fails(t, '/api/users/search.json', 400);

  assert.equal((await ok(t, `/api/externalprofile/show.json?profileurl=${encodeURIComponent(`${t.url}/channel/carol`)}`)).screen_name, 'carol');
  await fails(t, '/api/externalprofile/show.json', 400);
  await fails(t, `/api/externalprofile/show.json?profileurl=${encodeURIComponent('https://elsewhere.example/x')}`, 404);
});

test('followers/ids and friends/ids: bare arrays without cursor on the StatusNet path, the Twitter envelope with it and always under api/1.1/', async () => {
  assert.deepEqual(await ok(t, '/api/friends/ids.json', { as: 'alice' }), [id.bob]);
  assert.deepEqual((await ok(t, '/api/followers/ids.json', { as: 'alice' })).sort(), [id.bob, id.carol].sort());
  assert.deepEqual(await ok(t, '/api/friends/ids.json?stringify_ids=true', { as: 'alice' }), [String(id.bob)]);
  const env = await ok(t, '/api/followers/ids.json?cursor=-1&count=1', { as: 'alice' });
  const desc = [id.bob, id.carol].sort((a, b) => b - a);
  assert.deepEqual(env, { ids: [desc[0]], next_cursor: desc[0], next_cursor_str: String(desc[0]), previous_cursor: 0, previous_cursor_str: '0', total_count: 2 });
  const next = await ok(t, `/api/followers/ids.json?cursor=${env.next_cursor}&count=1`, { as: 'alice' });
  assert.deepEqual(next.ids, [desc[1]]);
  assert.equal(next.next_cursor, 0);
  assert.equal(next.previous_cursor, -desc[1]!);
  const back = await ok(t, `/api/followers/ids.json?cursor=${next.previous_cursor}&count=1`, { as: 'alice' });
  assert.deepEqual(back.ids, [desc[0]]);
  assert.deepEqual(await ok(t, '/api/friends/ids.json?cursor=-1', { as: 'dave' }), { ids: [], next_cursor: -1, next_cursor_str: '-1', previous_cursor: 0, previous_cursor_str: '0', total_count: 0 });
  const xml = parseXml((await call(t, '/api/friends/ids.xml', { as: 'alice' })).text);
  assert.deepEqual(xml.ids.id, [String(id.bob)]);
  assert.equal(xml.ids['@_xmlns'], undefined);
  assert.equal(parseXml((await call(t, '/api/friends/ids.xml?cursor=-1', { as: 'alice' })).text).id_list.ids.id, String(id.bob));
  await fails(t, '/api/friends/ids.json?screen_name=bob', 403, { as: 'alice' });
  assert.deepEqual(await ok(t, '/api/friends/ids.json?screen_name=alice', { as: 'alice' }), [id.bob], 'naming oneself is fine');
  await fails(t, '/api/followers/ids.json?cursor=abc', 400, { as: 'alice' });
  // Twitter v1.1 clients read the envelope whether or not they sent a cursor.
  assert.deepEqual(await ok(t, '/api/1.1/friends/ids.json', { as: 'alice' }), { ids: [id.bob], next_cursor: 0, next_cursor_str: '0', previous_cursor: 0, previous_cursor_str: '0', total_count: 1 });
  assert.deepEqual((await ok(t, '/api/1.1/followers/ids.json?stringify_ids=true', { as: 'alice' })).ids.sort(), [String(id.bob), String(id.carol)].sort());
});

test('statuses/friends, statuses/followers, friendships/incoming, blocks/list', async () => {
  const friends = await ok(t, '/api/statuses/friends.json', { as: 'alice' });
  assert.deepEqual(friends.map((u: any) => u.screen_name), ['bob']);
  assert.equal(friends[0].status.text, 'bob newest');
  assert.ok(!('entities' in friends[0]), 'no user entities unless include_user_entities');
  assert.ok('entities' in (await ok(t, '/api/statuses/friends.json?include_user_entities=1', { as: 'alice' }))[0]);
  assert.ok(!('status' in (await ok(t, '/api/statuses/friends.json?skip_status=1', { as: 'alice' }))[0]));
  const followers = await ok(t, '/api/statuses/followers.json?cursor=-1', { as: 'alice' });
  assert.deepEqual(followers.users.map((u: any) => u.screen_name).sort(), ['bob', 'carol']);
  assert.equal(followers.total_count, 2);
  assert.equal(parseXml((await call(t, '/api/statuses/followers.xml', { as: 'alice' })).text).users.user.length, 2);

  assert.deepEqual(await ok(t, '/api/friendships/incoming.json', { as: 'dave' }), [id.erin]);
  assert.deepEqual((await ok(t, '/api/friendships/incoming.json?cursor=-1', { as: 'dave' })).ids, [id.erin]);
  assert.deepEqual(await ok(t, '/api/friendships/incoming.json', { as: 'alice' }), [], 'follows of alice need no answer');

  assert.deepEqual(await ok(t, '/api/blocks/list.json', { as: 'dave' }), []);
  const row = getConnection(t.hub.db, t.channels.dave!.channel_id, t.channels.erin!.channel_hash)!;
  updateConnection(t.hub.db, row.abook_id, { abook_blocked: 1 });
  try {
    const blocked = await ok(t, '/api/blocks/list.json', { as: 'dave' });
    assert.deepEqual(blocked.map((u: any) => [u.screen_name, u.statusnet_blocking]), [['erin', true]]);
    assert.deepEqual((await ok(t, '/api/blocks/list.json?cursor=-1', { as: 'dave' })).users.length, 1);
    assert.deepEqual(await ok(t, '/api/friendships/incoming.json', { as: 'dave' }), [], 'blocked requests are not offered');
  } finally {
    updateConnection(t.hub.db, row.abook_id, { abook_blocked: 0 });
  }
});

test('friendships/create, show and destroy', async () => {
  const before = await ok(t, '/api/friendships/show.json?target_screen_name=dave', { as: 'carol' });
  assert.deepEqual([before.relationship.source.following, before.relationship.source.followed_by], [false, false]);
  const created = await ok(t, '/api/friendships/create.json', { as: 'carol', form: { screen_name: 'dave' } });
  assert.equal(created.screen_name, 'dave');
  assert.equal(created.following, false, 'dave approves followers by hand');
  assert.equal(created.follow_request_sent, true);
  const shown = await ok(t, `/api/friendships/show.json?target_id=${id.dave}`, { as: 'carol' });
  assert.equal(shown.relationship.source.following, false);
  assert.equal(shown.relationship.source.following_requested, true, 'dave has not accepted');
  assert.equal(shown.relationship.target.following_received, true);
  const mutual = await ok(t, '/api/friendships/show.json?target_screen_name=bob', { as: 'alice' });
  assert.deepEqual([mutual.relationship.source.following, mutual.relationship.source.followed_by, mutual.relationship.source.can_dm], [true, true, true]);
  const xml = parseXml((await call(t, '/api/friendships/show.xml?target_screen_name=bob', { as: 'alice' })).text);
  assert.equal(xml.relationship.target.screen_name, 'bob');
  assert.deepEqual(await ok(t, '/api/friendships/incoming.json', { as: 'dave' }), [id.carol, id.erin].sort((a, b) => b - a));

  const destroyed = await ok(t, `/api/friendships/destroy/${id.dave}.json`, { as: 'carol', method: 'POST' });
  assert.equal(destroyed.following, false);
  await fails(t, '/api/friendships/destroy.json', 404, { as: 'carol', form: { screen_name: 'dave' } });
  await fails(t, '/api/friendships/create.json', 400, { as: 'carol', form: { screen_name: 'carol' } });
  await fails(t, '/api/friendships/create.json', 404, { as: 'carol', form: { screen_name: 'nobody' } });
  await fails(t, '/api/friendships/create.json', 400, { as: 'carol', method: 'POST' });
  await fails(t, '/api/friendships/show.json', 400, { as: 'carol' });
  await fails(t, `/api/friendships/show.json?source_id=${id.alice}&target_id=${id.bob}`, 403, { as: 'carol' });
});

test('users/show: the embedded status is the newest one the viewer may see', async () => {
  await ok(t, '/api/statuses/update.json', { as: 'dave', form: { status: 'dave public' } });
  await ok(t, '/api/z/1.0/item/update', { as: 'dave', form: { body: 'dave for alice', 'contact_allow[]': t.channels.alice!.channel_hash } });
  assert.equal((await ok(t, '/api/users/show.json?screen_name=dave')).status.text, 'dave public');
  assert.equal((await ok(t, '/api/users/show.json?screen_name=dave', { as: 'carol' })).status.text, 'dave public');
  assert.equal((await ok(t, '/api/users/show.json?screen_name=dave', { as: 'alice' })).status.text, 'dave for alice');
  assert.equal((await ok(t, '/api/account/verify_credentials.json', { as: 'dave' })).status.text, 'dave for alice');
});

test('statuses_count follows what each viewer may see as posts, groups and members change', async () => {
  const count = async (as?: 'carol' | 'bob') => (await ok(t, '/api/users/show.json?screen_name=dave', as ? { as } : {})).statuses_count as number;
  const start = { anon: await count(), carol: await count('carol'), bob: await count('bob') };
  await ok(t, '/api/statuses/update.json', { as: 'dave', form: { status: 'dave public again' } });
  assert.deepEqual([await count(), await count('carol'), await count('bob')], [start.anon + 1, start.carol + 1, start.bob + 1]);
  const dave = t.channels.dave!;
  const gid = insertGroup(t.hub.db, dave.channel_id, 'count-group-hash', 'Close friends');
  await ok(t, '/api/statuses/update.json', { as: 'dave', form: { status: 'for close friends', 'group_allow[]': 'count-group-hash' } });
  assert.deepEqual([await count(), await count('carol'), await count('bob')], [start.anon + 1, start.carol + 1, start.bob + 1], 'nobody is in the group yet');
  addGroupMember(t.hub.db, dave.channel_id, gid, t.channels.carol!.channel_hash);
  assert.equal(await count('carol'), start.carol + 2, 'carol joined the group');
  assert.equal(await count('bob'), start.bob + 1);
  removeGroupMember(t.hub.db, gid, t.channels.carol!.channel_hash);
  assert.equal(await count('carol'), start.carol + 1, 'carol left the group');
});
