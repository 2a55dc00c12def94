import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connect } from '../../server/services/connections.js';
import { createItem, setActivity } from '../../server/services/items.js';
import { sendDirectMessage } from '../../server/services/mail.js';
import { VERB } from '../../server/services/verbs.js';

let t: TestHub;
let post: number;
let comment: number;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  const { alice, bob } = t.channels;
  connect(t.hub, alice!, bob!.channel_hash);
  connect(t.hub, bob!, alice!.channel_hash);
  // Start from an empty list: connecting notified both sides.
  t.hub.db.prepare('DELETE FROM notify').run();
});
after(() => t.stop());

const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false });

interface Note {
  id: number;
  type: number;
  name: string;
  url: string;
  photo: string;
  date: string;
  msg: string;
  uid: number;
  link: string;
  iid: number | null;
  parent: number | null;
  seen: boolean;
  verb: string;
  otype: string;
  name_cache: string;
  msg_cache: string;
  timestamp: string;
  date_rel: string;
  msg_html: string;
  msg_plain: string;
}

const notes = async (as = 'alice'): Promise<Note[] | false> => (await t.request('/api/ext/notifications.json', { as })).json();
const seen = (id: string | number, as = 'alice', path = '/api/ext/notifications/seen.json') => t.request(path, { as, method: 'POST', body: new URLSearchParams({ id: String(id) }) });

test('no notifications: JSON false, XML an empty <notes/> without namespaces', async () => {
  const res = await t.request('/api/ext/notifications.json', { as: 'alice' });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /application\/json/);
  assert.equal(await res.text(), 'false');
  const x = await (await t.request('/api/ext/notifications.xml', { as: 'alice' })).text();
  assert.doesNotMatch(x, /xmlns/);
  assert.ok('notes' in xml.parse(x));
});

test('a comment notifies the post owner with the documented fields', async () => {
  post = createItem(t.hub, t.channels.alice!, { body: 'What do you think?' }).id;
  comment = createItem(t.hub, t.channels.bob!, { body: 'I think [b]yes[/b]', parentId: post }).id;
  const list = (await notes()) as Note[];
  assert.equal(list.length, 1);
  const n = list[0]!;
  assert.equal(typeof n.id, 'number');
  assert.equal(n.type, 8);
  assert.equal(n.name, 'Bob');
  assert.equal(n.uid, t.channels.alice!.channel_id);
  assert.equal(n.iid, comment);
  assert.equal(n.parent, post);
  assert.equal(n.seen, false);
  assert.equal(n.otype, 'item');
  assert.equal(n.verb, VERB.POST);
  assert.equal(typeof n.msg, 'string');
  assert.match(n.msg, /^Bob commented/);
  assert.match(n.msg_cache, /^\{0\} commented/);
  assert.equal(n.name_cache, 'Bob');
  assert.match(n.date, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.match(n.timestamp, /^\d+$/);
  assert.equal(new Date(Number(n.timestamp) * 1000).toISOString().slice(0, 19).replace('T', ' '), n.date);
  assert.match(n.date_rel, /^(now|\d+ \w+ ago)$/);
  assert.ok(n.msg_html.includes('commented'));
  assert.ok(!n.msg_plain.includes('\n'));
  assert.ok(n.link.startsWith(t.url));
  assert.equal((await notes('bob')), false, 'the commenter is not notified');
});

test('XML: <notes> with one attribute-only <note/> per notification', async () => {
  const res = await t.request('/api/ext/notifications.xml', { as: 'alice' });
  assert.match(res.headers.get('content-type')!, /text\/xml/);
  const doc = xml.parse(await res.text());
  const note = [doc.notes.note].flat()[0];
  assert.equal(note['@_type'], '8');
  assert.equal(note['@_name'], 'Bob');
  assert.equal(note['@_seen'], 'false');
  assert.equal(note['@_iid'], String(comment));
  assert.equal(note['@_otype'], 'item');
  assert.ok(note['@_timestamp']);
});

test('seen marks the notification and returns the linked item as a one-status timeline', async () => {
  const [n] = (await notes()) as Note[];
  const res = await seen(n!.id);
  assert.equal(res.status, 200);
  const statuses = await res.json();
  assert.ok(Array.isArray(statuses));
  assert.equal(statuses.length, 1);
  assert.equal(statuses[0].id, comment);
  assert.equal(statuses[0].user.screen_name, 'bob');
  assert.equal(((await notes()) as Note[])[0]!.seen, true);

  const x = xml.parse(await (await seen(n!.id, 'alice', '/api/ext/notification/seen.xml')).text());
  assert.equal(String(x.statuses.status.id), String(comment));
});

test('unseen notifications come first, then the newest', async () => {
  sendDirectMessage(t.hub, t.channels.bob!, { recipient: t.channels.alice!.channel_hash, body: 'psst' });
  setActivity(t.hub, t.channels.bob!, post, VERB.LIKE, true);
  const list = (await notes()) as Note[];
  assert.deepEqual(list.map((n) => [n.type, n.seen]), [[1024, false], [16, false], [8, true]]);
});

test('a like notification links to the liked post; a message notification has no item and answers "success"', async () => {
  const list = (await notes()) as Note[];
  const like = list.find((n) => n.type === 1024)!;
  const likeRes = await (await seen(like.id)).json();
  assert.equal(likeRes[0].id, post);
  assert.equal(likeRes[0].friendica_activities.like[0].screen_name, 'bob');

  const mail = list.find((n) => n.type === 16)!;
  assert.equal(mail.otype, 'mail');
  assert.equal(mail.iid, null);
  const res = await seen(mail.id, 'alice', '/api/1.1/ext/notification/seen.json');
  assert.equal(await res.json(), 'success');
  assert.ok(((await notes()) as Note[]).every((n) => n.seen));
  const x = await (await seen(mail.id, 'alice', '/api/ext/notifications/seen.xml')).text();
  assert.equal(xml.parse(x).result['#text'], 'success');
});

test('marking one notification seen also marks the others about the same thread', async () => {
  createItem(t.hub, t.channels.bob!, { body: 'second comment', parentId: post });
  createItem(t.hub, t.channels.bob!, { body: 'third comment', parentId: post });
  const unseen = ((await notes()) as Note[]).filter((n) => !n.seen);
  assert.equal(unseen.length, 2);
  await seen(unseen[0]!.id);
  assert.ok(((await notes()) as Note[]).every((n) => n.seen));
});

test('id=all marks every notification seen', async () => {
  createItem(t.hub, t.channels.bob!, { body: 'on my own wall, mentioning @alice' });
  sendDirectMessage(t.hub, t.channels.bob!, { recipient: t.channels.alice!.channel_hash, body: 'again' });
  assert.ok(((await notes()) as Note[]).some((n) => !n.seen));
  assert.equal(await (await seen('all')).json(), 'success');
  assert.ok(((await notes()) as Note[]).every((n) => n.seen));
});

test('seen refuses missing, malformed, unknown and foreign ids', async () => {
  const [mine] = (await notes()) as Note[];
  const cases: [string | undefined, number][] = [[undefined, 400], ['', 400], ['abc', 400], ['999999', 404]];
  for (const [id, status] of cases) {
    const res = await t.request('/api/ext/notifications/seen.json', { as: 'alice', method: 'POST', body: new URLSearchParams(id === undefined ? {} : { id }) });
    assert.equal(res.status, status, String(id));
    assert.equal((await res.json()).code, `${status} ${status === 400 ? 'Bad Request' : 'Not Found'}`);
  }
  assert.equal((await seen(mine!.id, 'carol')).status, 404, "carol cannot touch alice's notifications");
});

test('methods and credentials', async () => {
  assert.equal((await t.request('/api/ext/notifications.json', { as: 'alice', method: 'POST' })).status, 405);
  for (const path of ['/api/ext/notifications/seen.json', '/api/ext/notification/seen.json']) {
    const res = await t.request(`${path}?id=1`, { as: 'alice' });
    assert.equal(res.status, 405, path);
    assert.equal(res.headers.get('allow'), 'POST');
  }
  assert.equal((await fetch(`${t.url}/api/ext/notifications.json`)).status, 401);
  assert.equal((await fetch(`${t.url}/api/ext/notifications/seen.json`, { method: 'POST', body: new URLSearchParams({ id: 'all' }) })).status, 401);
  assert.equal((await fetch(`${t.url}/api/1.1/ext/notification/seen.xml`, { method: 'POST' })).status, 401);
});
