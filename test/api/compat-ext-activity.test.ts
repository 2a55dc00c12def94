import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connect } from '../../server/services/connections.js';
import { createItem } from '../../server/services/items.js';

let t: TestHub;
let postId: number;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  const { alice, bob } = t.channels;
  connect(t.hub, alice!, bob!.channel_hash);
  connect(t.hub, bob!, alice!.channel_hash);
  postId = createItem(t.hub, alice!, { body: 'Party on Friday!' }).id;
});
after(() => t.stop());

const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false });

function act(verb: string, id: string | number | undefined, opts: { as?: string; suffix?: string; prefix?: string; method?: string } = {}) {
  const body = new URLSearchParams(id === undefined ? {} : { id: String(id) });
  return t.request(`${opts.prefix ?? '/api'}/ext/activity/${verb}${opts.suffix ?? '.json'}`, { as: opts.as ?? 'bob', method: opts.method ?? 'POST', body: opts.method === 'GET' ? undefined : body });
}

/** Who did what on the post, as alice's statuses/show reports it. */
async function activities(): Promise<Record<string, string[]>> {
  const res = await t.request(`/api/statuses/show/${postId}.json`, { as: 'alice' });
  assert.equal(res.status, 200);
  const acts = (await res.json()).friendica_activities as Record<string, { screen_name: string }[]>;
  return Object.fromEntries(Object.entries(acts).map(([k, users]) => [k, users.map((u) => u.screen_name)]));
}

test('like adds the activity and answers "ok"; unlike removes it', async () => {
  const res = await act('like', postId);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /application\/json/);
  assert.equal(await res.json(), 'ok');
  assert.deepEqual((await activities()).like, ['bob']);
  assert.equal(await (await act('unlike', postId)).json(), 'ok');
  assert.deepEqual((await activities()).like, []);
});

test('the author of the liked post is notified', async () => {
  await act('like', postId);
  const notes = await (await t.request('/api/ext/notifications.json', { as: 'alice' })).json();
  assert.ok(Array.isArray(notes));
  assert.ok(notes.some((n: { type: number; name: string }) => n.type === 1024 && n.name === 'Bob'));
  await act('unlike', postId);
});

test('attend verbs replace each other; like and dislike too', async () => {
  await act('attendyes', postId);
  assert.deepEqual((await activities()).attendyes, ['bob']);
  await act('attendno', postId);
  let a = await activities();
  assert.deepEqual([a.attendyes, a.attendno], [[], ['bob']]);
  await act('attendmaybe', postId);
  a = await activities();
  assert.deepEqual([a.attendyes, a.attendno, a.attendmaybe], [[], [], ['bob']]);
  await act('attendyes', postId);
  a = await activities();
  assert.deepEqual([a.attendyes, a.attendno, a.attendmaybe], [['bob'], [], []]);
  await act('unattendyes', postId);
  assert.deepEqual((await activities()).attendyes, []);

  await act('like', postId);
  await act('dislike', postId);
  a = await activities();
  assert.deepEqual([a.like, a.dislike], [[], ['bob']]);
  await act('undislike', postId);
  assert.deepEqual((await activities()).dislike, []);
});

test('XML answers <ok>true</ok> without namespaces; api/1.1 works the same', async () => {
  const res = await act('like', postId, { suffix: '.xml', prefix: '/api/1.1' });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/xml/);
  const text = await res.text();
  assert.equal(xml.parse(text).ok, 'true');
  assert.doesNotMatch(text, /xmlns/);
  assert.equal(await (await act('unlike', postId, { suffix: '' })).json(), 'ok');
});

test('400 for an unknown verb, a missing, malformed or unknown id, or an item the caller cannot see', async () => {
  const before = await activities();
  const cases: [string, string | number | undefined, string][] = [
    ['love', postId, 'unknown activity: love'],
    ['unlove', postId, 'unknown activity: unlove'],
    ['un', postId, 'unknown activity: un'],
    ['like', undefined, 'Item id not specified'],
    ['like', 'abc', 'Item id must be a number'],
    ['like', 999999, 'Item id not found'],
  ];
  for (const [verb, id, message] of cases) {
    const res = await act(verb, id);
    assert.equal(res.status, 400, `${verb} ${id}`);
    const body = await res.json();
    assert.equal(body.error, message);
    assert.equal(body.code, '400 Bad Request');
  }
  const privatePost = createItem(t.hub, t.channels.alice!, { body: 'only for bob', acl: { allow_cid: `<${t.channels.bob!.channel_hash}>`, allow_gid: '', deny_cid: '', deny_gid: '' } });
  const hidden = await act('like', privatePost.id, { as: 'carol' });
  assert.equal(hidden.status, 400);
  // Anyone who may see a public post may like it (DESIGN.md), also carol who follows nobody.
  const notConnected = await act('like', postId, { as: 'carol' });
  assert.equal(notConnected.status, 200, 'carol may like a public post of a channel she is not connected with');
  assert.equal((await act('unlike', postId, { as: 'carol' })).status, 200);
  const xmlErr = await act('love', postId, { suffix: '.xml' });
  assert.equal(xml.parse(await xmlErr.text()).status.code, '400 Bad Request');
  assert.deepEqual(await activities(), before);
});

test('POST only; credentials required', async () => {
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const res = await act('like', postId, { method });
    assert.equal(res.status, 405, method);
    assert.match(res.headers.get('allow')!, /POST/);
  }
  const anon = await fetch(`${t.url}/api/ext/activity/like.json`, { method: 'POST', body: new URLSearchParams({ id: String(postId) }) });
  assert.equal(anon.status, 401);
  assert.deepEqual((await activities()).like, []);
});
