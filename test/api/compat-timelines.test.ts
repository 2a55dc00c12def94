import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call, fails, ids, ok, parseXml } from '../helpers/compat.js';
import { addGroupMember } from '../../server/store/groups.js';
import { setActivity } from '../../server/services/items.js';
import { VERB } from '../../server/services/verbs.js';

let t: TestHub;
const s: Record<string, number> = {};
let closeList = 0;

async function post(as: string, form: Record<string, string | string[]>): Promise<number> {
  return (await ok(t, '/api/statuses/update.json', { as, form })).id;
}

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  await ok(t, '/api/friendships/create.json', { as: 'alice', form: { screen_name: 'bob' } });
  await ok(t, '/api/friendships/create.json', { as: 'bob', form: { screen_name: 'alice' } });
  await ok(t, '/api/friendships/create.json', { as: 'carol', form: { screen_name: 'alice' } });
  closeList = (await ok(t, '/api/lists/create.json', { as: 'alice', form: { name: 'Close' } })).id;
  addGroupMember(t.hub.db, t.channels.alice!.channel_id, closeList, t.channels.bob!.channel_hash);
  s.first = await post('alice', { status: 'first public post' });
  s.secret = await post('alice', { status: 'secret plans for the close circle', 'group_allow[]': String(closeList) });
  s.reply = await post('bob', { status: 'an answer from bob', in_reply_to_status_id: String(s.first) });
  s.carol = await post('carol', { status: 'carol says hi' });
  s.bobPost = await post('bob', { status: 'bob on his own wall' });
  s.mention = await post('alice', { status: 'hello @carol, welcome' });
  setActivity(t.hub, t.channels.bob!, s.first!, VERB.LIKE, true);
});
after(() => t.stop());

test('home_timeline: the channel and those it follows, newest first, no likes', async () => {
  const home = await ok(t, '/api/statuses/home_timeline.json', { as: 'alice' });
  assert.deepEqual(ids(home), [s.mention, s.bobPost, s.reply, s.secret, s.first]);
  const first = home.find((x: any) => x.id === s.first);
  assert.deepEqual(first.friendica_activities.like.map((u: any) => u.screen_name), ['bob']);
  assert.equal(first.friendica_comments, 1);
  const reply = home.find((x: any) => x.id === s.reply);
  assert.equal(reply.in_reply_to_status_id, s.first);
  assert.equal(reply.in_reply_to_screen_name, 'alice');
  assert.equal(reply.statusnet_conversation_id, s.first);
  assert.equal(reply.user.screen_name, 'bob');
  assert.deepEqual(ids(await ok(t, '/api/statuses/friends_timeline.json', { as: 'alice' })), ids(home));
  assert.deepEqual(ids(await ok(t, '/api/1.1/statuses/home_timeline.json', { as: 'alice' })), ids(home));
});

test('a post for a group reaches its members and nobody else', async () => {
  assert.ok(ids(await ok(t, '/api/statuses/home_timeline.json', { as: 'bob' })).includes(s.secret!));
  const carolHome = ids(await ok(t, '/api/statuses/home_timeline.json', { as: 'carol' }));
  assert.ok(carolHome.includes(s.first!), 'carol follows alice and sees her public posts');
  assert.ok(!carolHome.includes(s.secret!));
  assert.ok(!ids(await ok(t, '/api/statuses/user_timeline.json?screen_name=alice', { as: 'carol' })).includes(s.secret!));
  assert.ok(ids(await ok(t, '/api/statuses/user_timeline.json?screen_name=alice', { as: 'bob' })).includes(s.secret!));
  assert.ok(!ids(await ok(t, '/api/statuses/public_timeline.json', { as: 'carol' })).includes(s.secret!));
  assert.ok(!ids(await ok(t, '/api/statuses/public_timeline.json', { as: 'bob' })).includes(s.secret!), 'not public even for a member');
  assert.ok(!ids(await ok(t, '/api/statuses/networkpublic_timeline.json', { as: 'carol' })).includes(s.secret!));
  assert.deepEqual(await ok(t, '/api/search.json?q=secret', { as: 'carol' }), []);
  assert.deepEqual(ids(await ok(t, '/api/search.json?q=secret', { as: 'bob' })), [s.secret]);
  await fails(t, `/api/statuses/show/${s.secret}.json`, 404, { as: 'carol' });
  await fails(t, `/api/conversation/show/${s.secret}.json`, 404, { as: 'carol' });
  const shown = await ok(t, `/api/statuses/show/${s.secret}.json`, { as: 'bob' });
  assert.equal(shown.friendica_private, true);
});

test('public timelines hold public posts and comments of every channel', async () => {
  const pub = ids(await ok(t, '/api/statuses/public_timeline.json', { as: 'carol' }));
  assert.deepEqual(pub, [s.mention, s.bobPost, s.carol, s.reply, s.first]);
  assert.deepEqual(ids(await ok(t, '/api/statuses/networkpublic_timeline.json', { as: 'carol' })), pub);
  assert.deepEqual(ids(await ok(t, '/api/statuses/public_timeline.json?exclude_replies=true', { as: 'carol' })), [s.mention, s.bobPost, s.carol, s.first]);
});

test('paging: count, page, since_id exclusive, max_id inclusive, exclude_replies', async () => {
  const path = '/api/statuses/home_timeline.json';
  assert.deepEqual(ids(await ok(t, `${path}?count=2`, { as: 'alice' })), [s.mention, s.bobPost]);
  assert.deepEqual(ids(await ok(t, `${path}?count=2&page=2`, { as: 'alice' })), [s.reply, s.secret]);
  assert.deepEqual(ids(await ok(t, `${path}?count=2&page=3`, { as: 'alice' })), [s.first]);
  assert.deepEqual(ids(await ok(t, `${path}?count=2&page=4`, { as: 'alice' })), []);
  assert.deepEqual(ids(await ok(t, `${path}?count=2&page=-2`, { as: 'alice' })), [s.mention, s.bobPost], 'pages below 1 are the first');
  assert.deepEqual(ids(await ok(t, `${path}?since_id=${s.reply}`, { as: 'alice' })), [s.mention, s.bobPost]);
  assert.deepEqual(ids(await ok(t, `${path}?max_id=${s.reply}`, { as: 'alice' })), [s.reply, s.secret, s.first]);
  assert.deepEqual(ids(await ok(t, `${path}?since_id=${s.first}&max_id=${s.reply}`, { as: 'alice' })), [s.reply, s.secret]);
  assert.deepEqual(ids(await ok(t, `${path}?max_id=${s.reply}&count=1&page=2`, { as: 'alice' })), [s.secret], 'offset applies after the id bounds');
  assert.deepEqual(ids(await ok(t, `${path}?exclude_replies=1`, { as: 'alice' })), [s.mention, s.bobPost, s.secret, s.first]);
  assert.deepEqual(ids(await ok(t, `${path}?conversation_id=${s.first}`, { as: 'alice' })), [s.reply, s.first]);
  assert.equal((await ok(t, `${path}?count=500`, { as: 'alice' })).length, 5, 'count above the maximum is clamped');
  assert.equal((await ok(t, `${path}?count=0`, { as: 'alice' })).length, 1, 'count below 1 is clamped');
  await fails(t, `${path}?since_id=abc`, 400, { as: 'alice' });
  await fails(t, `${path}?max_id=1.5`, 400, { as: 'alice' });
});

test('user_timeline: by user_id, screen_name, or the caller; unknown users 404, malformed ids 400', async () => {
  const bobId = (await ok(t, '/api/users/show.json?screen_name=bob', { as: 'alice' })).id;
  assert.deepEqual(ids(await ok(t, `/api/statuses/user_timeline.json?user_id=${bobId}`, { as: 'alice' })), [s.bobPost, s.reply]);
  assert.deepEqual(ids(await ok(t, '/api/statuses/user_timeline.json?screen_name=bob&exclude_replies=true', { as: 'alice' })), [s.bobPost]);
  assert.deepEqual(ids(await ok(t, '/api/statuses/user_timeline.json', { as: 'carol' })), [s.carol]);
  await fails(t, '/api/statuses/user_timeline.json?screen_name=nobody', 404, { as: 'alice' });
  await fails(t, '/api/statuses/user_timeline.json?user_id=99999', 404, { as: 'alice' });
  await fails(t, '/api/statuses/user_timeline.json?user_id=abc', 400, { as: 'alice' });
});

test('mentions and replies: statuses naming the caller, answers to it and comments in its threads', async () => {
  assert.deepEqual(ids(await ok(t, '/api/statuses/mentions.json', { as: 'carol' })), [s.mention]);
  assert.deepEqual(ids(await ok(t, '/api/statuses/mentions.json', { as: 'alice' })), [s.reply]);
  assert.deepEqual(ids(await ok(t, '/api/statuses/replies.json', { as: 'alice' })), [s.reply]);
  assert.deepEqual(await ok(t, '/api/statuses/mentions.json', { as: 'bob' }), []);
  const deeper = await post('bob', { status: 'bob adds to his answer', in_reply_to_status_id: String(s.reply) });
  try {
    assert.deepEqual(ids(await ok(t, '/api/statuses/mentions.json', { as: 'alice' })), [deeper, s.reply], 'a comment in her thread');
    assert.deepEqual(await ok(t, '/api/statuses/mentions.json', { as: 'bob' }), [], 'not his own comments');
  } finally {
    await ok(t, `/api/statuses/destroy/${deeper}.json`, { as: 'bob', method: 'POST' });
  }
});

test('conversation/show and compat/conversation: direct answers only, without the original', async () => {
  assert.deepEqual(ids(await ok(t, `/api/conversation/show/${s.first}.json`, { as: 'carol' })), [s.reply]);
  assert.deepEqual(ids(await ok(t, `/api/conversation/show.json?id=${s.first}`, { as: 'carol' })), [s.reply]);
  assert.deepEqual(ids(await ok(t, `/api/compat/conversation/${s.first}.json`, { as: 'alice' })), [s.reply]);
  assert.deepEqual(await ok(t, `/api/compat/conversation/${s.reply}.json`, { as: 'alice' }), []);
  await fails(t, '/api/conversation/show.json', 400, { as: 'alice' });
  await fails(t, '/api/conversation/show/abc.json', 400, { as: 'alice' });
  await fails(t, '/api/compat/conversation/99999.json', 404, { as: 'alice' });
});

test('lists/statuses: the stream restricted to the list members', async () => {
  assert.deepEqual(ids(await ok(t, `/api/lists/statuses.json?list_id=${closeList}`, { as: 'alice' })), [s.bobPost, s.reply]);
  await fails(t, '/api/lists/statuses.json', 400, { as: 'alice' });
  await fails(t, `/api/lists/statuses.json?list_id=${closeList}`, 404, { as: 'bob' });
  await fails(t, '/api/lists/statuses.json?list_id=x', 400, { as: 'alice' });
});

test('XML timelines: root statuses with status children', async () => {
  const a = await call(t, '/api/statuses/home_timeline.xml?count=2', { as: 'alice' });
  assert.equal(a.status, 200);
  assert.match(a.res.headers.get('content-type') ?? '', /^text\/xml/);
  const doc = parseXml(a.text);
  assert.equal(doc.statuses['@_xmlns'], 'http://api.twitter.com');
  assert.deepEqual(doc.statuses.status.map((x: any) => Number(x.id)), [s.mention, s.bobPost]);
  assert.equal(doc.statuses.status[1].user.screen_name, 'bob');
  assert.equal(doc.statuses.status[1]['statusnet:conversation_id'], String(s.bobPost));
  assert.ok('statusnet:html' in doc.statuses.status[0]);
  const empty = parseXml((await call(t, '/api/statuses/mentions.xml', { as: 'bob' })).text);
  assert.equal(empty.statuses.status, undefined);
});

test('RSS 2.0 and Atom feeds of a timeline', async () => {
  const json = await ok(t, '/api/statuses/home_timeline.json', { as: 'alice' });
  const rss = await call(t, '/api/statuses/home_timeline.rss', { as: 'alice' });
  assert.equal(rss.status, 200);
  assert.match(rss.res.headers.get('content-type') ?? '', /^application\/rss\+xml/);
  const r = parseXml(rss.text).rss;
  assert.equal(r['@_version'], '2.0');
  assert.equal(r.channel.title, 'Home timeline of Alice');
  assert.equal(r.channel['atom:link']['@_rel'], 'self');
  const items = [r.channel.item].flat();
  assert.equal(items.length, json.length);
  assert.equal(items[0].link, json[0].external_url);
  assert.equal(items[0].description, json[0].statusnet_html);
  assert.ok(!Number.isNaN(Date.parse(items[0].pubDate)), items[0].pubDate);
  assert.match(items[0].pubDate, /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);

  const atom = await call(t, '/api/statuses/user_timeline.atom?screen_name=bob', { as: 'alice' });
  assert.equal(atom.status, 200);
  assert.match(atom.res.headers.get('content-type') ?? '', /^application\/atom\+xml/);
  const f = parseXml(atom.text).feed;
  assert.equal(f['@_xmlns'], 'http://www.w3.org/2005/Atom');
  assert.ok(f.id && f.title && f.updated);
  const entries = [f.entry].flat();
  assert.equal(entries.length, 2);
  assert.equal(entries[0].author.name, 'Bob');
  assert.equal(entries[0].content['@_type'], 'html');
  assert.match(entries[0].content['#text'], /bob on his own wall/);
  assert.match(entries[0].updated, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  for (const path of ['/api/statuses/mentions.rss', '/api/favorites.atom', '/api/search.rss?q=first', `/api/lists/statuses.atom?list_id=${closeList}`, '/api/statuses/public_timeline.rss']) {
    const a = await call(t, path, { as: 'alice' });
    assert.equal(a.status, 200, path);
    const doc = parseXml(a.text);
    assert.ok(doc.rss || doc.feed, path);
  }
});

test('deleted statuses leave the timelines', async () => {
  const gone = await post('alice', { status: 'short-lived' });
  assert.equal(ids(await ok(t, '/api/statuses/home_timeline.json?count=1', { as: 'alice' }))[0], gone);
  await ok(t, `/api/statuses/destroy/${gone}.json`, { as: 'alice', method: 'POST' });
  assert.ok(!ids(await ok(t, '/api/statuses/home_timeline.json', { as: 'alice' })).includes(gone));
  await fails(t, `/api/statuses/show/${gone}.json`, 404, { as: 'alice' });
});
