import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { startHub, type TestHub } from '../helpers/hub.js';

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
});
after(() => t.stop());

const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false });

interface Dm {
  id: number;
  id_str: string;
  sender_id: number;
  recipient_id: number;
  text: string;
  title: string;
  created_at: string;
  sender_screen_name: string;
  recipient_screen_name: string;
  sender?: { screen_name: string; id: number };
  recipient?: { screen_name: string; id: number };
  friendica_seen: boolean;
  friendica_parent_uri: string;
}

async function json<T = unknown>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

function send(as: string, fields: Record<string, string>, path = '/api/direct_messages/new.json') {
  return t.request(path, { as, method: 'POST', body: new URLSearchParams(fields) });
}

async function sent(as: string, fields: Record<string, string>): Promise<Dm> {
  return json<Dm>(await send(as, fields));
}

const list = async (as: string, path: string) => json<Dm[]>(await t.request(path, { as }));

test('direct_messages/new sends to a channel by screen name; both sides keep a copy', async () => {
  const dm = await sent('alice', { screen_name: 'bob', text: 'Hello [b]Bob[/b]', title: 'Greetings' });
  assert.equal(typeof dm.id, 'number');
  assert.equal(dm.id_str, String(dm.id));
  assert.equal(dm.sender_screen_name, 'alice');
  assert.equal(dm.recipient_screen_name, 'bob');
  assert.equal(dm.sender!.screen_name, 'alice');
  assert.equal(dm.recipient!.screen_name, 'bob');
  assert.equal(dm.sender_id, dm.sender!.id);
  assert.equal(dm.text, 'Hello Bob', 'the text as sent, without the subject (Twitter clients show it as the message)');
  assert.equal(dm.title, 'Greetings');
  assert.equal(dm.friendica_seen, true, 'own sent copy is seen');
  assert.ok(dm.friendica_parent_uri);
  assert.match(dm.created_at, /^\w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/);
  assert.equal('uid' in dm.sender!, false);

  const inbox = await list('bob', '/api/direct_messages.json');
  const received = inbox.find((m) => m.friendica_parent_uri === dm.friendica_parent_uri)!;
  assert.ok(received, 'bob has the message in his inbox');
  assert.equal(received.id, dm.id, 'both sides know the message by one id');
  assert.equal(received.friendica_seen, false);
  assert.equal(received.sender_screen_name, 'alice');
  assert.ok(!(await list('alice', '/api/direct_messages.json')).some((m) => m.id === dm.id), 'not in the sender inbox');
  assert.ok((await list('alice', '/api/direct_messages/sent.json')).some((m) => m.id === dm.id));
  assert.ok(!(await list('bob', '/api/direct_messages/sent.json')).some((m) => m.friendica_parent_uri === dm.friendica_parent_uri));
  assert.ok((await list('alice', '/api/1.1/direct_messages/all.json')).some((m) => m.id === dm.id));
  assert.ok((await list('bob', '/api/direct_messages/all')).some((m) => m.id === received.id && m.friendica_seen === false), 'bob has his own copy');
  assert.ok(!(await list('carol', '/api/direct_messages/all.json')).length, 'nobody else sees it');
});

const notes = async (as: string) => ((await json<{ type: number; otype: string; name: string; seen: boolean }[] | false>(await t.request('/api/ext/notifications.json', { as }))) || []);

test('the recipient is notified, the sender is not', async () => {
  const carolBefore = (await notes('carol')).length;
  const bobBefore = (await notes('bob')).length;
  await sent('bob', { user_id: String(await userId('carol')), text: 'ping' });
  const carols = await notes('carol');
  assert.equal(carols.length, carolBefore + 1);
  const note = carols[0]!;
  assert.equal(note.type, 16);
  assert.equal(note.otype, 'mail');
  assert.equal(note.name, 'Bob');
  assert.equal(note.seen, false);
  assert.equal((await notes('bob')).length, bobBefore);
});

async function userId(nick: string): Promise<number> {
  const x = t.hub.db.prepare('SELECT xchan_id FROM xchan WHERE xchan_hash = ?').get(t.channels[nick]!.channel_hash) as { xchan_id: number };
  return x.xchan_id;
}

test('the title defaults to the first ten characters; getText and getUserObjects shape the text', async () => {
  const dm = await sent('alice', { user_id: String(await userId('bob')), text: 'A rather long message' });
  assert.equal(dm.text, 'A rather long message');
  assert.equal(dm.title, 'A rather l...');
  const short = await sent('alice', { user_id: String(await userId('bob')), text: 'Hi' });
  assert.deepEqual([short.text, short.title], ['Hi', 'Hi']);
  const html = await sent('alice', { screen_name: 'bob', text: 'x [b]bold[/b]', subject: 'Subj', getText: 'html' });
  assert.equal(html.title, 'Subj');
  assert.match(html.text, /^x <[^>]+>bold<\/[a-z]+>$/);
  const plain = await sent('alice', { screen_name: 'bob', text: 'x [b]bold[/b]', title: 'Subj', getText: 'plain', getUserObjects: 'false' });
  assert.equal(plain.text, 'x bold');
  assert.equal(plain.title, 'Subj');
  assert.equal('sender' in plain, false);
  assert.equal('recipient' in plain, false);
  assert.equal(plain.sender_screen_name, 'alice');
});

test('replyto continues the conversation with the other party; direct_messages/conversation lists it', async () => {
  const first = await sent('alice', { screen_name: 'carol', text: 'Lunch today?', title: 'Lunch' });
  const carolCopy = (await list('carol', '/api/direct_messages.json')).find((m) => m.friendica_parent_uri === first.friendica_parent_uri)!;
  const answer = await sent('carol', { replyto: String(carolCopy.id), text: 'Sure!' });
  assert.equal(answer.recipient_screen_name, 'alice');
  assert.equal(answer.friendica_parent_uri, first.friendica_parent_uri);
  assert.deepEqual([answer.text, answer.title], ['Sure!', 'Lunch'], 'the subject is kept');
  const uri = encodeURIComponent(first.friendica_parent_uri);
  for (const who of ['alice', 'carol']) {
    const conv = await list(who, `/api/direct_messages/conversation.json?uri=${uri}`);
    assert.deepEqual(conv.map((m) => m.text), ['Sure!', 'Lunch today?'], who);
  }
  assert.deepEqual(await list('bob', `/api/direct_messages/conversation.json?uri=${uri}`), []);
  const verbose = await json(await t.request(`/api/direct_messages/conversation.json?uri=${uri}&friendica_verbose=true`, { as: 'bob' }));
  assert.deepEqual(verbose, { result: 'error', message: 'no mails available' });
  assert.equal((await t.request('/api/direct_messages/conversation.json', { as: 'bob' })).status, 400);
  // A reply to a conversation with someone else is refused.
  assert.equal((await send('carol', { replyto: String(carolCopy.id), screen_name: 'bob', text: 'x' })).status, 400);
  assert.equal((await send('carol', { replyto: '999999', text: 'x' })).status, 404);
  assert.equal((await send('bob', { replyto: String(carolCopy.id), text: 'not mine' })).status, 404);
});

test('lists page with count, page, since_id and max_id, and filter by correspondent', async () => {
  const ids: number[] = [];
  for (let i = 1; i <= 5; i++) ids.push((await sent('carol', { screen_name: 'bob', text: `page test ${i}` })).id);
  const all = await list('carol', '/api/direct_messages/sent.json?count=100');
  const mine = all.filter((m) => ids.includes(m.id)).map((m) => m.id);
  assert.deepEqual(mine, [...ids].reverse(), 'newest first');
  const two = await list('carol', `/api/direct_messages/sent.json?count=2&since_id=${ids[0]}`);
  assert.deepEqual(two.map((m) => m.id), [ids[4], ids[3]]);
  const page2 = await list('carol', `/api/direct_messages/sent.json?count=2&page=2&since_id=${ids[0]}`);
  assert.deepEqual(page2.map((m) => m.id), [ids[2], ids[1]]);
  const bounded = await list('carol', `/api/direct_messages/sent.json?since_id=${ids[1]}&max_id=${ids[3]}`);
  assert.deepEqual(bounded.map((m) => m.id), [ids[3], ids[2]], 'since_id exclusive, max_id inclusive');
  const above = await list('carol', `/api/direct_messages/sent.json?count=2&min_id=${ids[1]}`);
  assert.deepEqual(above.map((m) => m.id), [ids[3], ids[2]], 'min_id: the rows just above, newest first');
  const withAlice = await list('carol', '/api/direct_messages/all.json?screen_name=alice');
  assert.ok(withAlice.length > 0);
  assert.ok(withAlice.every((m) => m.sender_screen_name === 'alice' || m.recipient_screen_name === 'alice'));
  assert.equal((await t.request('/api/direct_messages/all.json?screen_name=nobody', { as: 'carol' })).status, 404);
  assert.equal((await t.request('/api/direct_messages/all.json?max_id=abc', { as: 'carol' })).status, 400);
});

test('XML forms: lists, a sent message and errors', async () => {
  const res = await t.request('/api/direct_messages/all.xml', { as: 'alice' });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/xml/);
  const doc = xml.parse(await res.text());
  const dms = [doc['direct-messages'].direct_message].flat();
  assert.ok(dms.length > 0);
  assert.ok(dms[0].id);
  assert.ok(dms[0].sender.screen_name);
  assert.ok(dms[0]['friendica:parent_uri']);
  assert.ok(['true', 'false'].includes(dms[0]['friendica:seen']));

  const one = xml.parse(await (await send('alice', { screen_name: 'bob', text: 'xml message' }, '/api/direct_messages/new.xml')).text());
  assert.equal(one['direct-messages'].sender_screen_name, 'alice');
  assert.equal(one['direct-messages'].text, 'xml message');

  const err = await send('alice', { screen_name: 'bob' }, '/api/direct_messages/new.xml');
  assert.equal(err.status, 400);
  const status = xml.parse(await err.text()).status;
  assert.equal(status.code, '400 Bad Request');
  assert.equal(status.error, 'text not specified');
});

test('direct_messages/new refuses bad input: missing text or recipient, unknown users, oneself', async () => {
  assert.equal((await send('alice', { screen_name: 'bob' })).status, 400);
  assert.equal((await send('alice', { screen_name: 'bob', text: '   ' })).status, 400);
  assert.equal((await send('alice', { text: 'to nobody' })).status, 400);
  assert.equal((await send('alice', { screen_name: 'nobody', text: 'x' })).status, 404);
  assert.equal((await send('alice', { user_id: '999999', text: 'x' })).status, 404);
  assert.equal((await send('alice', { user_id: 'abc', text: 'x' })).status, 400);
  assert.equal((await send('alice', { screen_name: 'alice', text: 'x' })).status, 400);
  assert.equal((await send('alice', { screen_name: 'bob', text: 'x', replyto: 'abc' })).status, 400);
  assert.equal((await t.request('/api/direct_messages/new.json', { as: 'alice' })).status, 405);
  const put = await t.request('/api/direct_messages/new.json', { as: 'alice', method: 'PUT', body: new URLSearchParams({ screen_name: 'bob', text: 'via PUT' }) });
  assert.equal(put.status, 200);
  const anon = await fetch(`${t.url}/api/direct_messages/new.json`, { method: 'POST', body: new URLSearchParams({ screen_name: 'bob', text: 'x' }) });
  assert.equal(anon.status, 401);
});

test('a channel that blocked the sender does not receive messages', async () => {
  const { connect } = await import('../../server/services/connections.js');
  connect(t.hub, t.channels.carol!, t.channels.alice!.channel_hash);
  t.hub.db.prepare('UPDATE abook SET abook_blocked = 1 WHERE abook_channel = ? AND abook_xchan = ?').run(t.channels.carol!.channel_id, t.channels.alice!.channel_hash);
  const before = (await list('carol', '/api/direct_messages.json?count=100')).length;
  assert.equal((await send('alice', { screen_name: 'carol', text: 'let me in' })).status, 403);
  assert.equal((await list('carol', '/api/direct_messages.json?count=100')).length, before);
  t.hub.db.prepare('UPDATE abook SET abook_blocked = 0 WHERE abook_channel = ? AND abook_xchan = ?').run(t.channels.carol!.channel_id, t.channels.alice!.channel_hash);
});

test('direct_messages/destroy deletes only the caller\'s copy', async () => {
  const dm = await sent('alice', { screen_name: 'bob', text: 'delete me' });
  const bobCopy = (await list('bob', '/api/direct_messages.json')).find((m) => m.friendica_parent_uri === dm.friendica_parent_uri)!;
  const del = await t.request('/api/direct_messages/destroy.json', { as: 'bob', method: 'POST', body: new URLSearchParams({ id: String(bobCopy.id) }) });
  const deleted = await json<Dm>(del);
  assert.equal(deleted.id, bobCopy.id);
  assert.ok(!(await list('bob', '/api/direct_messages/all.json?count=100')).some((m) => m.id === bobCopy.id));
  assert.ok((await list('alice', '/api/direct_messages/sent.json?count=100')).some((m) => m.id === dm.id), 'the sender keeps theirs');

  const verbose = await t.request('/api/direct_messages/destroy.json', { as: 'alice', method: 'DELETE', body: new URLSearchParams({ id: String(dm.id), friendica_parenturi: dm.friendica_parent_uri, friendica_verbose: 'true' }) });
  assert.deepEqual(await json(verbose), { result: 'ok', message: 'message deleted' });
  assert.ok(!(await list('alice', '/api/direct_messages/sent.json?count=100')).some((m) => m.id === dm.id));
});

test('direct_messages/destroy answers 400 for every error, 405 for GET', async () => {
  const dm = await sent('alice', { screen_name: 'bob', text: 'keep me' });
  const post = (fields: Record<string, string>, as = 'alice') => t.request('/api/direct_messages/destroy.json', { as, method: 'POST', body: new URLSearchParams(fields) });
  const cases: [Record<string, string>, string, string?][] = [
    [{}, 'message id or parenturi not specified'],
    [{ friendica_verbose: 'true' }, 'message id or parenturi not specified'],
    [{ friendica_parenturi: 'x' }, 'message id not specified'],
    [{ id: 'abc' }, 'message id must be a number'],
    [{ id: '999999' }, 'message id not in database'],
    [{ id: String(dm.id), friendica_parenturi: 'another conversation', friendica_verbose: 'true' }, 'message id not in database'],
    [{ id: String(dm.id) }, 'message id not in database', 'carol'],
  ];
  for (const [fields, message, as] of cases) {
    const res = await post(fields, as);
    assert.equal(res.status, 400, JSON.stringify(fields));
    assert.equal((await res.json()).error, message);
  }
  assert.ok((await list('alice', '/api/direct_messages/sent.json?count=100')).some((m) => m.id === dm.id), 'still there');
  assert.equal((await t.request(`/api/direct_messages/destroy.json?id=${dm.id}`, { as: 'alice' })).status, 405);
  const xmlErr = await t.request('/api/direct_messages/destroy.xml', { as: 'alice', method: 'POST' });
  assert.equal(xml.parse(await xmlErr.text()).status.code, '400 Bad Request');
  const ok = xml.parse(await (await t.request('/api/direct_messages/destroy.xml', { as: 'alice', method: 'POST', body: new URLSearchParams({ id: String(dm.id), friendica_verbose: '1' }) })).text());
  assert.equal(ok.direct_messages_delete.result, 'ok');
});

test('ext/direct_messages_setseen marks the caller\'s copy read', async () => {
  const dm = await sent('alice', { screen_name: 'bob', text: 'read me' });
  const bobCopy = (await list('bob', '/api/direct_messages.json')).find((m) => m.friendica_parent_uri === dm.friendica_parent_uri)!;
  assert.equal(bobCopy.friendica_seen, false);
  const res = await t.request(`/api/ext/direct_messages_setseen.json?id=${bobCopy.id}`, { as: 'bob' });
  assert.deepEqual(await json(res), { result: 'ok', message: 'message set to seen' });
  const after = (await list('bob', '/api/direct_messages.json')).find((m) => m.id === bobCopy.id)!;
  assert.equal(after.friendica_seen, true);

  const x = xml.parse(await (await t.request(`/api/ext/direct_messages_setseen.xml?id=${bobCopy.id}`, { as: 'bob' })).text());
  assert.equal(x.direct_messages_setseen.result, 'ok');
  assert.equal((await t.request('/api/ext/direct_messages_setseen.json', { as: 'bob' })).status, 400);
  assert.equal((await t.request('/api/ext/direct_messages_setseen.json?id=x', { as: 'bob' })).status, 400);
  assert.equal((await t.request(`/api/ext/direct_messages_setseen.json?id=${bobCopy.id}`, { as: 'carol' })).status, 404, 'not carol\'s message');
  assert.equal((await t.request(`/api/ext/direct_messages_setseen.json?id=${bobCopy.id}`, { as: 'bob', method: 'POST' })).status, 405);
  assert.equal((await fetch(`${t.url}/api/ext/direct_messages_setseen.json?id=${bobCopy.id}`)).status, 401);
});

test('ext/direct_messages_search finds messages by their text', async () => {
  await sent('alice', { screen_name: 'bob', text: 'the secret word is 100%_marmalade', title: 'zebra' });
  const found = await json<{ success: boolean; search_results: Dm[] }>(await t.request('/api/ext/direct_messages_search.json?searchstring=marmalade', { as: 'bob' }));
  assert.equal(found.success, true);
  assert.equal(found.search_results.length, 1);
  assert.equal(typeof found.search_results[0]!.id, 'number');
  assert.equal(found.search_results[0]!.sender!.screen_name, 'alice');
  assert.equal(typeof found.search_results[0]!.recipient, 'object');
  assert.equal((await json<{ success: boolean }>(await t.request('/api/ext/direct_messages_search.json?searchstring=100%25_m', { as: 'alice' }))).success, true);
  assert.deepEqual(await json(await t.request('/api/ext/direct_messages_search.json?searchstring=zebra', { as: 'bob' })), { success: false, search_results: 'nothing found' }, 'subjects are not searched');
  assert.deepEqual(await json(await t.request('/api/ext/direct_messages_search.json?searchstring=%25', { as: 'carol' })), { success: false, search_results: 'nothing found' }, 'wildcards are literal');
  assert.equal((await json<{ success: boolean }>(await t.request('/api/ext/direct_messages_search.json?searchstring=marmalade', { as: 'carol' }))).success, false, 'only the caller\'s messages');

  const doc = xml.parse(await (await t.request('/api/ext/direct_messages_search.xml?searchstring=marmalade', { as: 'bob' })).text());
  assert.equal(doc.direct_message_search.success, 'true');
  assert.equal(doc.direct_message_search.search_results.direct_message.sender_screen_name, 'alice');

  const missing = await t.request('/api/ext/direct_messages_search.json', { as: 'bob' });
  assert.equal(missing.status, 400);
  assert.equal((await missing.json()).error, 'searchstring not specified');
  assert.equal((await t.request('/api/ext/direct_messages_search.json?searchstring=x', { as: 'bob', method: 'POST' })).status, 405);
});

test('every DM path needs credentials', async () => {
  const paths: [string, string][] = [
    ['GET', '/api/direct_messages.json'], ['POST', '/api/direct_messages.json'], ['GET', '/api/direct_messages/all.json'], ['GET', '/api/direct_messages/sent.xml'],
    ['GET', '/api/direct_messages/conversation.json?uri=x'], ['POST', '/api/direct_messages/new.json'], ['POST', '/api/direct_messages/destroy.json?id=1'],
    ['GET', '/api/ext/direct_messages_setseen.json?id=1'], ['GET', '/api/1.1/ext/direct_messages_search.json?searchstring=x'],
  ];
  for (const [method, path] of paths) {
    const res = await fetch(t.url + path, { method, body: method === 'GET' ? undefined : new URLSearchParams({ screen_name: 'bob', text: 'x', id: '1' }) });
    assert.equal(res.status, 401, path);
    assert.equal(res.headers.get('www-authenticate'), 'Basic realm="Hearth"');
  }
});

test('every DM list answers XML with root direct-messages and direct_message children', async () => {
  const first = await sent('alice', { screen_name: 'bob', text: 'for the xml lists' });
  const uri = encodeURIComponent(first.friendica_parent_uri);
  const lists: [string, string][] = [['bob', '/api/direct_messages.xml'], ['alice', '/api/direct_messages/sent.xml'], ['bob', '/api/1.1/direct_messages/all.xml'], ['alice', `/api/direct_messages/conversation.xml?uri=${uri}`]];
  for (const [as, path] of lists) {
    const res = await t.request(path, { as });
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type')!, /text\/xml/);
    const dms = [xml.parse(await res.text())['direct-messages'].direct_message].flat();
    assert.ok(dms.some((m: Record<string, unknown>) => m['friendica:parent_uri'] === first.friendica_parent_uri), path);
  }
});

test('DM lists answer verbose when empty', async () => {
  const dave = await t.addChannel('dave');
  assert.ok(dave);
  assert.deepEqual(await json(await t.request('/api/direct_messages/sent.json?friendica_verbose=true', { as: 'dave' })), { result: 'error', message: 'no mails available' });
  assert.deepEqual(await json(await t.request('/api/direct_messages/sent.json', { as: 'dave' })), []);
  const emptyXml = xml.parse(await (await t.request('/api/direct_messages/sent.xml', { as: 'dave' })).text());
  assert.ok('direct-messages' in emptyXml);
});
