import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertAllStrings, assertError, call, post } from '../helpers/native.js';
import { connect } from '../../server/services/connections.js';
import { insertGroup, addGroupMember } from '../../server/store/groups.js';
import { nowDb } from '../../server/util/time.js';

let t: TestHub;
let alice: string;
let bob: string;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  alice = t.channels.alice!.channel_hash;
  bob = t.channels.bob!.channel_hash;
  connect(t.hub, t.channels.alice!, bob);
  connect(t.hub, t.channels.bob!, alice);
});
after(() => t.stop());

const SEED_ITEM_FIELDS = [
  'id', 'mid', 'aid', 'uid', 'parent', 'parent_mid', 'thr_parent', 'created', 'edited', 'expires', 'commented', 'received', 'changed',
  'comments_closed', 'owner_xchan', 'author_xchan', 'source_xchan', 'mimetype', 'title', 'body', 'html', 'app', 'lang', 'revision', 'verb',
  'obj_type', 'obj', 'tgt_type', 'target', 'layout_mid', 'postopts', 'route', 'llink', 'plink', 'resource_id', 'resource_type', 'attach',
  'sig', 'diaspora_meta', 'location', 'coord', 'public_policy', 'comment_policy', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid',
  'item_restrict', 'item_flags', 'item_private', 'item_origin', 'item_unseen', 'item_starred', 'item_uplink', 'item_consensus', 'item_wall',
  'item_thread_top', 'item_notshown', 'item_nsfw', 'item_relay', 'item_mentionsme', 'item_nocomment', 'item_obscured', 'item_verified',
  'item_retained', 'item_rss', 'item_deleted', 'item_type', 'item_hidden', 'item_unpublished', 'item_delayed', 'item_pending_remove', 'item_blocked',
];

function secondsApart(a: string, b: string): number {
  return Math.abs(Date.parse(a.replace(' ', 'T') + 'Z') - Date.parse(b.replace(' ', 'T') + 'Z')) / 1000;
}

test('item/update with only a body returns the seed defaults', async () => {
  const before = nowDb();
  const r = await call(t, 'alice', 'item/update', { form: { body: 'hello world' } });
  assert.equal(r.status, 200);
  assert.equal(r.json.success, true);
  const item = r.json.item;
  assert.equal(r.json.item_id, item.id);
  assert.match(r.json.item_id, /^\d+$/);
  for (const f of SEED_ITEM_FIELDS) assert.ok(f in item, `item lacks ${f}`);
  assertAllStrings(item);
  assert.equal(item.body, 'hello world');
  assert.equal(item.mimetype, 'text/bbcode');
  assert.equal(item.verb, 'http://activitystrea.ms/schema/1.0/post');
  assert.equal(item.obj_type, 'http://activitystrea.ms/schema/1.0/note');
  assert.equal(item.parent, item.id);
  assert.equal(item.parent_mid, item.mid);
  assert.equal(item.thr_parent, item.mid);
  assert.equal(item.comment_policy, 'contacts');
  for (const f of ['item_wall', 'item_origin', 'item_thread_top', 'item_verified']) assert.equal(item[f], '1', f);
  for (const f of ['allow_cid', 'allow_gid', 'deny_cid', 'deny_gid']) assert.equal(item[f], '', f);
  assert.equal(item.item_private, '0');
  for (const f of ['created', 'edited', 'commented', 'received', 'changed']) {
    assert.match(item[f], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.ok(secondsApart(item[f], before) <= 5, `${f} = ${item[f]} is not now`);
  }
  assert.equal(item.owner_xchan, alice);
  assert.equal(item.author_xchan, alice);
  assert.equal(item.uid, String(t.channels.alice!.channel_id));
  assert.match(item.mid, new RegExp(`^[^@\\s]+@${t.hub.hostname.replace(/\./g, '\\.')}$`));
  assert.equal(item.llink, `${t.url}/display/${item.mid}`);
  assert.equal(item.plink, `${t.url}/channel/alice/?f=&mid=${item.mid}`);
  assert.equal(item.expires, '0001-01-01 00:00:00');
  assert.match(item.sig, /^sha256\./);
});

test('item/update refuses a missing or empty body, anonymous callers and GET', async () => {
  assertError(await call(t, 'alice', 'item/update', { form: { title: 'no body' } }), 400, /body/);
  assertError(await call(t, 'alice', 'item/update', { form: { body: '   ' } }), 400, /body/);
  const anon = await call(t, undefined, 'item/update', { form: { body: 'x' } });
  assertError(anon, 401);
  assert.match(anon.headers.get('www-authenticate')!, /^Basic realm="Hearth"/);
  assertError(await t.request('/api/z/1.0/item/update', { as: 'alice', password: 'wrong', method: 'POST', body: new URLSearchParams({ body: 'x' }) }).then(async (r) => ({ status: r.status, json: await r.json() })), 401);
  const get = await call(t, 'alice', 'item/update?body=x');
  assertError(get, 405);
  assert.match(get.headers.get('allow')!, /POST/);
});

test('item/update takes title, location, coord, mimetype, verb, obj_type and the app/plink aliases', async () => {
  const a = await post(t, 'alice', {
    body: '*hi*', title: 'A title', location: 'Home', coord: '51.5 -0.1', mimetype: 'text/markdown', verb: 'http://activitystrea.ms/schema/1.0/share',
    obj_type: 'http://activitystrea.ms/schema/1.0/article', app: 'MyApp', plink: 'https://elsewhere.example/p/1',
  });
  assert.equal(a.title, 'A title');
  assert.equal(a.location, 'Home');
  assert.equal(a.coord, '51.5 -0.1');
  assert.equal(a.mimetype, 'text/markdown');
  assert.match(a.html, /<em>hi<\/em>/);
  assert.equal(a.verb, 'http://activitystrea.ms/schema/1.0/share');
  assert.equal(a.obj_type, 'http://activitystrea.ms/schema/1.0/article');
  assert.equal(a.app, 'MyApp');
  assert.equal(a.plink, 'https://elsewhere.example/p/1');
  const b = await post(t, 'alice', { body: 'aliases', source: 'SourceApp', permalink: 'https://elsewhere.example/p/2' });
  assert.equal(b.app, 'SourceApp');
  assert.equal(b.plink, 'https://elsewhere.example/p/2');
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', mimetype: 'application/x-php' } }), 400, /mimetype/);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', title: 'x'.repeat(300) } }), 400, /title/);
});

test('consensus and nocomment set their flags; nocomment closes comments', async () => {
  const plain = await post(t, 'alice', { body: 'plain', consensus: 'false', nocomment: '0' });
  assert.equal(plain.item_consensus, '0');
  assert.equal(plain.item_nocomment, '0');
  assert.equal(plain.comments_closed, '0001-01-01 00:00:00');
  const vote = await post(t, 'alice', { body: 'vote on this', consensus: 'true' });
  assert.equal(vote.item_consensus, '1');
  const closed = await post(t, 'alice', { body: 'no comments please', nocomment: '1' });
  assert.equal(closed.item_nocomment, '1');
  assert.equal(closed.comments_closed, closed.created);
  assertError(await call(t, 'bob', 'item/update', { form: { body: 'a comment', parent: closed.id } }), 403);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', consensus: 'perhaps' } }), 400, /consensus/);
});

test('expire and created are datetimes; expire must lie ahead', async () => {
  const e = await post(t, 'alice', { body: 'expiring', expire: '2099-01-31 10:00:00' });
  assert.equal(e.expires, '2099-01-31 10:00:00');
  const c = await post(t, 'alice', { body: 'backdated', created: '2021-05-06 07:08:09' });
  assert.equal(c.created, '2021-05-06 07:08:09');
  assert.equal(c.edited, '2021-05-06 07:08:09');
  assert.equal(c.item_delayed, '0');
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', expire: '2001-01-01 00:00:00' } }), 400, /expire/);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', expire: 'someday' } }), 400, /expire/);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', created: 'yesterday-ish' } }), 400, /created/);
});

test('message_id sets the mid; a second item with it is refused', async () => {
  const m = await post(t, 'alice', { body: 'with my own id', message_id: 'my-own-id-1' });
  assert.equal(m.mid, `my-own-id-1@${t.hub.hostname}`);
  assert.equal(m.parent_mid, m.mid);
  assert.equal(m.llink, `${t.url}/display/${m.mid}`);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'again', message_id: 'my-own-id-1' } }), 400, /message_id/);
});

test('category becomes category terms', async () => {
  const c = await post(t, 'alice', { body: 'sorted', category: 'Cooking, Travel' });
  const full = await call(t, 'alice', `item/full?item_id=${c.id}`);
  const tags = full.json.item[0].tags as { tag: string; type: string; url: string }[];
  assert.deepEqual(tags.filter((x) => x.type === 'category').map((x) => x.tag).sort(), ['Cooking', 'Travel']);
  assert.ok(tags.every((x) => x.type !== 'category' || x.url.includes('cat=')));
});

test('comments via parent or parent_mid live in the thread and point at what they answer', async () => {
  const top = await post(t, 'alice', { body: 'a thread' });
  const c1 = await post(t, 'bob', { body: 'first reply', parent: top.id });
  assert.equal(c1.parent, top.id);
  assert.equal(c1.parent_mid, top.mid);
  assert.equal(c1.thr_parent, top.mid);
  assert.equal(c1.item_thread_top, '0');
  assert.equal(c1.uid, top.uid);
  assert.equal(c1.owner_xchan, alice);
  assert.equal(c1.author_xchan, bob);
  assert.equal(c1.obj_type, 'http://activitystrea.ms/schema/1.0/comment');
  const c2 = await post(t, 'alice', { body: 'reply to the reply', parent_mid: c1.mid });
  assert.equal(c2.parent, top.id);
  assert.equal(c2.parent_mid, top.mid);
  assert.equal(c2.thr_parent, c1.mid);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', parent: '999999' } }), 404);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', parent_mid: 'nothing@nowhere' } }), 404);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', parent: 'abc' } }), 400, /parent/);
});

test('post_id edits one of the channel\'s own items; anybody else\'s is 404', async () => {
  const orig = await post(t, 'alice', { body: 'first version', title: 'T1' });
  const r = await call(t, 'alice', 'item/update', { form: { body: 'second version', title: 'T2', post_id: orig.id } });
  assert.equal(r.status, 200);
  assert.equal(r.json.item_id, orig.id);
  assert.equal(r.json.item.body, 'second version');
  assert.equal(r.json.item.title, 'T2');
  assert.equal(r.json.item.mid, orig.mid);
  assert.equal(r.json.item.created, orig.created);
  const bobs = await post(t, 'bob', { body: 'bob writes' });
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'hijack', post_id: bobs.id } }), 404);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', post_id: '987654' } }), 404);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', post_id: '1.5' } }), 400, /post_id/);
  const still = await call(t, 'bob', `item/full?item_id=${bobs.id}`);
  assert.equal(still.json.item[0].body, 'bob writes');
});

test('access lists come as x[] arrays or comma lists; unknown hashes are refused', async () => {
  const gid = insertGroup(t.hub.db, t.channels.alice!.channel_id, 'g-hash-1', 'Friends');
  addGroupMember(t.hub.db, t.channels.alice!.channel_id, gid, bob);
  const a = await post(t, 'alice', { body: 'for bob', 'contact_allow[]': [bob, alice] });
  assert.equal(a.allow_cid, `<${bob}><${alice}>`);
  assert.equal(a.item_private, '1');
  const b = await post(t, 'alice', { body: 'for the group', group_allow: 'g-hash-1', contact_deny: bob });
  assert.equal(b.allow_gid, '<g-hash-1>');
  assert.equal(b.deny_cid, `<${bob}>`);
  assert.equal(b.item_private, '1');
  const c = await post(t, 'alice', { body: 'not the group', 'group_deny[]': 'g-hash-1' });
  assert.equal(c.deny_gid, '<g-hash-1>');
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', contact_allow: 'no-such-hash' } }), 400, /contact_allow/);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', group_allow: 'no-such-group' } }), 400, /group_allow/);
  // Another channel's group hash is not this channel's group.
  assertError(await call(t, 'bob', 'item/update', { form: { body: 'x', group_allow: 'g-hash-1' } }), 400, /group_allow/);
});

test('remote_xchan may name only the posting channel itself (no federation here)', async () => {
  const r = await post(t, 'alice', { body: 'written by alice, said so', remote_xchan: alice });
  assert.equal(r.author_xchan, alice);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'written by bob on alice\'s wall', remote_xchan: bob } }), 403, /remote_xchan/);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', remote_xchan: 'unknown-xchan' } }), 403, /remote_xchan/);
});

test('webpage, pagetitle and layout_mid make design elements', async () => {
  const layout = await post(t, 'alice', { body: '[region=content]$content[/region]', webpage: '2', pagetitle: 'Main Layout' });
  assert.equal(layout.item_type, '2');
  assert.equal(layout.item_wall, '0');
  const page = await post(t, 'alice', { body: 'About me', webpage: '3', pagetitle: 'About Me', layout_mid: layout.mid });
  assert.equal(page.item_type, '3');
  assert.equal(page.layout_mid, layout.mid);
  const full = await call(t, 'alice', `item/full?item_id=${page.id}`);
  const meta = full.json.item[0].meta as { family: string; key: string; value: string }[];
  assert.deepEqual(meta.find((m) => m.key === 'WEBPAGE'), { family: 'system', key: 'WEBPAGE', value: 'about-me', sharing: '1' });
  const plain = await post(t, 'alice', { body: 'just a post' });
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', webpage: '3', layout_mid: plain.mid } }), 400, /layout_mid/);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', webpage: 'page' } }), 400, /webpage/);
});

test('namespace + remote_id: the first call creates, the next edits the same item', async () => {
  const first = await call(t, 'alice', 'item/update', { form: { body: 'imported v1', namespace: 'rss', remote_id: 'https://blog.example/1' } });
  assert.equal(first.status, 200);
  const second = await call(t, 'alice', 'item/update', { form: { body: 'imported v2', namespace: 'rss', remote_id: 'https://blog.example/1' } });
  assert.equal(second.json.item_id, first.json.item_id);
  assert.equal(second.json.item.body, 'imported v2');
  const other = await call(t, 'bob', 'item/update', { form: { body: 'bob import', namespace: 'rss', remote_id: 'https://blog.example/1' } });
  assert.notEqual(other.json.item_id, first.json.item_id);
  assertError(await call(t, 'alice', 'item/update', { form: { body: 'x', namespace: 'rss' } }), 400, /remote_id/);
});
