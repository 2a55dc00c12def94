import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertError, call, post, seedPosts } from '../helpers/native.js';
import { connect } from '../../server/services/connections.js';
import { addGroupMember, insertGroup } from '../../server/store/groups.js';
import { getConnection } from '../../server/store/connections.js';
import { setStarred } from '../../server/store/items.js';
import { deleteItem } from '../../server/services/items.js';

let t: TestHub;
let groupId: number;
let publicPost: Record<string, any>;
let groupPost: Record<string, any>;

type Portable = Record<string, any>;
const bodies = (items: Portable[]) => items.map((i) => i.body);

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave'] });
  const { alice, bob, carol } = t.channels;
  for (const [a, b] of [[alice!, bob!], [alice!, carol!]] as const) {
    connect(t.hub, a, b.channel_hash);
    connect(t.hub, b, a.channel_hash);
  }
  groupId = insertGroup(t.hub.db, alice!.channel_id, 'friends-hash', 'Friends');
  addGroupMember(t.hub.db, alice!.channel_id, groupId, bob!.channel_hash);
  // Distinct creation times make the orders below unambiguous; the comment (now) makes alice's
  // public thread the one with the latest activity.
  await post(t, 'dave', { body: 'dave talks to nobody', created: '2024-01-01 09:00:00' });
  publicPost = await post(t, 'alice', { body: 'public hello from alice', created: '2024-01-01 10:00:00' });
  groupPost = await post(t, 'alice', { body: 'only for friends', 'group_allow[]': 'friends-hash', created: '2024-01-01 11:00:00' });
  await post(t, 'bob', { body: 'bob on his own wall', created: '2024-01-01 12:00:00' });
  await post(t, 'bob', { body: 'bob answers', parent: publicPost.id });
});
after(() => t.stop());

test('channel/stream returns the owner\'s wall threads, private ones included, in the portable format', async () => {
  const r = await call(t, 'alice', 'channel/stream');
  assert.equal(r.status, 200);
  assert.ok(Array.isArray(r.json));
  assert.deepEqual(bodies(r.json), ['public hello from alice', 'bob answers', 'only for friends']);
  const top = r.json[0] as Portable;
  assert.equal(top.type, 'activity');
  assert.equal(top.encoding, 'zot');
  assert.equal(top.message_id, publicPost.mid);
  assert.equal(top.message_top, publicPost.mid);
  assert.equal(top.expires, '0000-00-00 00:00:00');
  assert.deepEqual(top.flags, ['thread_parent']);
  assert.equal(top.comment_scope, 'contacts');
  assert.equal(top.public_scope, '');
  assert.equal(top.owner.address, `alice@${new URL(t.url).host}`);
  assert.equal(top.owner.network, 'zot6');
  assert.match(top.owner.key, /BEGIN PUBLIC KEY/);
  assert.deepEqual(Object.keys(top.owner.photo), ['mimetype', 'src']);
  assert.equal('id' in top, false, 'the non-mirror form carries no database ids');
  const reply = r.json[1] as Portable;
  assert.equal(reply.author.address, `bob@${new URL(t.url).host}`);
  assert.equal(reply.message_parent, publicPost.mid);
  const priv = r.json[2] as Portable;
  assert.deepEqual(priv.flags, ['thread_parent', 'private']);
});

test('channel/stream mindate limits the threads; bad dates are 400', async () => {
  const future = await call(t, 'alice', 'channel/stream?mindate=2999-01-01');
  assert.deepEqual(future.json, []);
  const old = await call(t, 'alice', 'channel/stream?mindate=2000-01-01%2000:00:00');
  assert.equal(old.json.length, 3);
  assertError(await call(t, 'alice', 'channel/stream?mindate=last%20week'), 400, /mindate/);
  assertError(await call(t, undefined, 'channel/stream'), 401);
});

test('channel/stream leaves out threads older than 14 days unless mindate reaches them', async () => {
  const t2 = await startHub({ channels: ['erin'] });
  try {
    seedPosts(t2.hub, t2.channels.erin!, 3, { end: new Date(Date.now() - 20 * 86400_000), body: (i) => `old ${i}` });
    await post(t2, 'erin', { body: 'new' });
    assert.deepEqual(bodies((await call(t2, 'erin', 'channel/stream')).json), ['new']);
    assert.deepEqual(bodies((await call(t2, 'erin', 'channel/stream?mindate=2000-01-01')).json), ['old 0', 'old 1', 'old 2', 'new']);
  } finally {
    await t2.stop();
  }
});

test('a private group post is seen by group members only: network/stream of bob (in), carol (out), dave (not connected)', async () => {
  const bob = await call(t, 'bob', 'network/stream');
  assert.equal(bob.status, 200);
  assert.ok(bodies(bob.json).includes('only for friends'), 'bob is in the group');
  assert.ok(bodies(bob.json).includes('public hello from alice'));
  assert.ok(bodies(bob.json).includes('bob on his own wall'), 'own posts are in the network stream');
  const carol = await call(t, 'carol', 'network/stream');
  assert.ok(!bodies(carol.json).includes('only for friends'), 'carol is outside the group');
  assert.ok(!carol.text.includes('only for friends'));
  assert.ok(bodies(carol.json).includes('public hello from alice'));
  assert.ok(bodies(carol.json).includes('bob answers'), 'replies come with their thread');
  const dave = await call(t, 'dave', 'network/stream');
  assert.deepEqual(bodies(dave.json), ['dave talks to nobody']);
  // Nor can carol reach it another way.
  assertError(await call(t, 'carol', 'item/update', { form: { body: 'sneaky', parent: groupPost.id } }), 404);
  assertError(await call(t, 'carol', `item/full?item_id=${groupPost.id}`), 404);
});

test('network/stream orders threads by latest activity and pages through them', async () => {
  const all = await call(t, 'alice', 'network/stream');
  const tops = (all.json as Portable[]).filter((i) => i.message_id === i.message_top).map((i) => i.body);
  // alice's public post was commented on last, so it comes first.
  assert.deepEqual(tops.slice(0, 3), ['public hello from alice', 'bob on his own wall', 'only for friends']);
  const p1 = await call(t, 'alice', 'network/stream?records=1&page=1');
  const p2 = await call(t, 'alice', 'network/stream?records=1&page=2');
  assert.deepEqual(bodies(p1.json), ['public hello from alice', 'bob answers']);
  assert.deepEqual(bodies(p2.json), ['bob on his own wall']);
  const s = await call(t, 'alice', 'network/stream?start=2&records=1');
  assert.deepEqual(bodies(s.json), ['only for friends']);
  const byPost = await call(t, 'alice', 'network/stream?order=post&top=1');
  assert.deepEqual(bodies(byPost.json).slice(0, 3), ['bob on his own wall', 'only for friends', 'public hello from alice']);
  assertError(await call(t, 'alice', 'network/stream?order=sideways'), 400, /order/);
  assertError(await call(t, 'alice', 'network/stream?records=x'), 400, /records/);
});

test('network/stream filters by group (gid, or gid=1&group=<id>) and by connection (cid)', async () => {
  const byGroup = await call(t, 'alice', `network/stream?gid=${groupId}`);
  assert.deepEqual(bodies(byGroup.json).sort(), ['bob on his own wall', 'only for friends']);
  const hubzillaSpelling = await call(t, 'alice', `network/stream?gid=1&group=${groupId}`);
  assert.deepEqual(bodies(hubzillaSpelling.json).sort(), ['bob on his own wall', 'only for friends']);
  const aliceInBobs = getConnection(t.hub.db, t.channels.bob!.channel_id, t.channels.alice!.channel_hash)!;
  const byConnection = await call(t, 'bob', `network/stream?cid=${aliceInBobs.abook_id}&top=1`);
  assert.deepEqual(bodies(byConnection.json).sort(), ['only for friends', 'public hello from alice']);
  assertError(await call(t, 'alice', 'network/stream?gid=99999'), 404, /group/);
  const bobsGroup = insertGroup(t.hub.db, t.channels.bob!.channel_id, 'bobs-group', 'Mine');
  assertError(await call(t, 'alice', `network/stream?gid=${bobsGroup}`), 404, /group/);
  assertError(await call(t, 'carol', `network/stream?cid=${aliceInBobs.abook_id}`), 404, /connection/);
});

test('network/stream filters by date (dbegin, dend), star, wall, search and item_id', async () => {
  const none = await call(t, 'alice', 'network/stream?dend=2000-01-01');
  assert.deepEqual(none.json, []);
  const later = await call(t, 'alice', 'network/stream?dbegin=2999-01-01');
  assert.deepEqual(later.json, []);
  const range = await call(t, 'alice', `network/stream?dbegin=${encodeURIComponent(groupPost.created)}&dend=2999-01-01&top=1`);
  assert.ok(bodies(range.json).includes('only for friends'));
  assert.ok(!bodies(range.json).includes('dave talks to nobody'));
  assertError(await call(t, 'alice', 'network/stream?dbegin=soon'), 400, /dbegin/);
  assertError(await call(t, 'alice', 'network/stream?dbegin=2020-01-02&dend=2020-01-01'), 400, /dend/);
  const wall = await call(t, 'alice', 'network/stream?wall=1&top=1');
  assert.deepEqual(bodies(wall.json).sort(), ['only for friends', 'public hello from alice']);
  const search = await call(t, 'carol', 'network/stream?search=ANSWERS');
  assert.deepEqual(bodies(search.json), ['public hello from alice', 'bob answers']);
  const one = await call(t, 'carol', `network/stream?item_id=${publicPost.id}`);
  assert.deepEqual(bodies(one.json), ['public hello from alice', 'bob answers']);
  assert.deepEqual((await call(t, 'alice', 'network/stream?star=1')).json, []);
});

test('network/stream answers GET only', async () => {
  const r = await call(t, 'alice', 'network/stream', { form: { x: '1' } });
  assertError(r, 405);
});

test('channel/stream POST creates an item and answers with it', async () => {
  const r = await call(t, 'carol', 'channel/stream', { form: { body: 'posted through channel/stream', title: 'CS' } });
  assert.equal(r.status, 200);
  assert.equal(r.json.success, true);
  assert.equal(r.json.activity.id, r.json.item_id);
  assert.equal(r.json.activity.title, 'CS');
  assert.equal(r.json.activity.owner_xchan, t.channels.carol!.channel_hash);
  const priv = await call(t, 'alice', 'channel/stream', { form: { body: 'acl columns', allow_cid: `<${t.channels.bob!.channel_hash}>` } });
  assert.equal(priv.json.activity.allow_cid, `<${t.channels.bob!.channel_hash}>`);
  assert.equal(priv.json.activity.item_private, '1');
  const reply = await call(t, 'bob', 'channel/stream', { form: { body: 'comment by parent_mid', parent_mid: publicPost.mid } });
  assert.equal(reply.json.activity.parent, publicPost.id);
  assertError(await call(t, 'carol', 'channel/stream', { form: { title: 'no body' } }), 400, /body/);
  assertError(await call(t, 'carol', 'channel/stream', { form: { body: 'x', allow_cid: '<nobody>' } }), 400);
});

test('network/stream filters by conversation, hashtag and category anywhere in the thread, message id and star; order=post pages across channels', async () => {
  const { alice } = t.channels;
  const tagged = await post(t, 'bob', { body: 'a #Lighthouse at dusk', category: 'Trips', created: '2024-01-02 09:00:00' });
  const carolThread = await post(t, 'carol', { body: 'carol wonders', created: '2024-01-02 10:00:00' });
  const mention = await post(t, 'carol', { body: 'hey @alice, look', created: '2024-01-02 11:00:00' });
  await post(t, 'alice', { body: 'alice replies to carol', parent: carolThread.id });
  await post(t, 'carol', { body: 'what a #sunset', parent: publicPost.id });
  const gone = await post(t, 'alice', { body: 'a #Vanished tag', parent: carolThread.id });
  deleteItem(t.hub, alice!, Number(gone.id));
  setStarred(t.hub.db, Number(tagged.id), true);
  const tops = async (query: string) => bodies((await call(t, 'alice', `network/stream?top=1&${query}`)).json);

  const conv = await tops('conv=1');
  for (const b of ['carol wonders', 'hey @alice, look', 'public hello from alice', 'only for friends']) assert.ok(conv.includes(b), b);
  for (const b of ['bob on his own wall', 'a #Lighthouse at dusk']) assert.ok(!conv.includes(b), b);
  assert.deepEqual(await tops('search=%23lighthouse'), ['a #Lighthouse at dusk']);
  assert.deepEqual(await tops('search=%23SUNSET'), ['public hello from alice'], 'a tag in a comment finds its thread');
  assert.deepEqual(await tops('search=%23vanished'), [], 'not the tags of deleted comments');
  assert.deepEqual(await tops('cat=trips'), ['a #Lighthouse at dusk']);
  assert.deepEqual(await tops(`mid=${encodeURIComponent(carolThread.mid)}`), ['carol wonders']);
  assert.deepEqual(await tops('star=1'), ['a #Lighthouse at dusk']);
  const byPost = 'order=post&dend=2024-01-03';
  assert.deepEqual(await tops(byPost), ['hey @alice, look', 'carol wonders', 'a #Lighthouse at dusk', 'bob on his own wall', 'only for friends', 'public hello from alice']);
  assert.deepEqual(await tops(`${byPost}&records=2&page=2`), ['a #Lighthouse at dusk', 'bob on his own wall']);
  assert.deepEqual(await tops(`${byPost}&start=4&records=5`), ['only for friends', 'public hello from alice']);
  assert.deepEqual(await tops(`${byPost}&wall=1`), ['only for friends', 'public hello from alice']);
  assert.deepEqual(await tops('order=post&search=%23lighthouse'), ['a #Lighthouse at dusk']);
});

test('network/stream pages=1 shows web pages only, item_type=* every kind, the default ordinary posts', async () => {
  await post(t, 'alice', { body: 'a page of alice', webpage: '3', pagetitle: 'about' });
  await post(t, 'bob', { body: 'a block of bob', webpage: '1', pagetitle: 'side' });
  const tops = async (as: string, query: string) => bodies((await call(t, as, `network/stream?top=1&records=100&${query}`)).json);
  assert.deepEqual(await tops('alice', 'pages=1'), ['a page of alice']);
  assert.deepEqual(await tops('carol', 'pages=1'), ['a page of alice'], 'a connection sees it too');
  assert.deepEqual(await tops('dave', 'pages=1'), [], 'not connected');
  const any = await tops('alice', 'item_type=*');
  assert.ok(any.includes('a page of alice') && any.includes('a block of bob'));
  assert.ok(!(await tops('alice', '')).includes('a page of alice'));
});
