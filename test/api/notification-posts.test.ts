import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { startHub, type TestHub } from '../helpers/hub.js';

/** ext/notifications names the post each notification is about, with its first line (post_id, post_excerpt). */

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  for (const [from, to] of [['alice', 'bob'], ['bob', 'alice']]) await api(from!, 'friendships/create', { screen_name: to! });
});

after(() => t?.stop());

async function api<T = { id: number }>(as: string, path: string, form: Record<string, string> = {}, method = 'POST'): Promise<T> {
  const res = await t.request(`/api/${path}.json`, { as, method, body: method === 'GET' ? undefined : new URLSearchParams(form) });
  const text = await res.text();
  assert.ok(res.ok, `${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

interface Note {
  id: number;
  type: number;
  name: string;
  verb: string;
  msg_plain: string;
  post_id: number | null;
  post_excerpt: string;
}

/** Alice's notifications, newest first; `after` leaves out those seen in an earlier step. */
async function newNotes(after: number): Promise<Note[]> {
  const res = await api<Note[] | false>('alice', 'ext/notifications', {}, 'GET');
  return (res || []).filter((n) => n.id > after).sort((a, b) => b.id - a.id);
}

const lastId = async () => Math.max(0, ...(await newNotes(0)).map((n) => n.id));

test('a like, a share and a comment name the post of alice they are about, with its first line', async () => {
  const post = await api('alice', 'statuses/update', { status: 'Bread from the new oven\nIt took all day, but it was worth it.' });
  const before = await lastId();
  await api('bob', 'ext/activity/like', { id: String(post.id) });
  await api('bob', `statuses/retweet/${post.id}`);
  await api('bob', 'statuses/update', { status: 'Looks great!', in_reply_to_status_id: String(post.id) });
  const notes = await newNotes(before);
  assert.deepEqual(
    notes.map((n) => [n.msg_plain.replace(/:.*/, ''), n.post_id, n.post_excerpt]),
    [
      ['Bob commented on your post', post.id, 'Bread from the new oven'],
      ['Bob shared your post', post.id, 'Bread from the new oven'],
      ['Bob likes your post', post.id, 'Bread from the new oven'],
    ],
  );
});

test('a like of a comment names the comment; a mention the post that mentions', async () => {
  const bobsPost = await api('bob', 'statuses/update', { status: 'Who bakes on Sundays?' });
  const comment = await api('alice', 'statuses/update', { status: 'I do, every week', in_reply_to_status_id: String(bobsPost.id) });
  const before = await lastId();
  await api('bob', 'ext/activity/like', { id: String(comment.id) });
  const mention = await api('bob', 'statuses/update', { status: 'Thanks @alice for the recipe' });
  const notes = await newNotes(before);
  assert.deepEqual(
    notes.map((n) => [n.type, n.post_id, n.post_excerpt]),
    [
      [128, mention.id, 'Thanks @alice for the recipe'],
      [1024, comment.id, 'I do, every week'],
    ],
  );
});

test('a long first line is cut at a word; a title is the line', async () => {
  const words = 'lorem ipsum dolor sit amet '.repeat(12).trim();
  const long = await api('alice', 'statuses/update', { status: words });
  const titled = await api('alice', 'statuses/update', { status: 'The body', title: 'Sourdough notes' });
  const before = await lastId();
  await api('bob', 'ext/activity/like', { id: String(long.id) });
  await api('bob', 'ext/activity/like', { id: String(titled.id) });
  const [ofTitled, ofLong] = await newNotes(before);
  assert.equal(ofTitled!.post_excerpt, 'Sourdough notes');
  assert.ok(ofLong!.post_excerpt.endsWith('…'));
  assert.ok(ofLong!.post_excerpt.length <= 140, ofLong!.post_excerpt);
  assert.ok(words.startsWith(ofLong!.post_excerpt.slice(0, -1)), 'whole words of the text');
});

test('a deleted post is no longer named; messages and connections are about no post', async () => {
  const post = await api('alice', 'statuses/update', { status: 'Soon gone' });
  const before = await lastId();
  await api('bob', 'ext/activity/like', { id: String(post.id) });
  await api('bob', 'direct_messages/new', { screen_name: 'alice', text: 'psst' });
  await api('alice', `statuses/destroy/${post.id}`);
  const notes = await newNotes(before);
  assert.equal(notes.length, 2);
  for (const n of notes) assert.deepEqual([n.post_id, n.post_excerpt], [null, ''], n.msg_plain);
  const intro = (await newNotes(0)).find((n) => n.type === 1);
  assert.ok(intro);
  assert.deepEqual([intro.post_id, intro.post_excerpt], [null, '']);
});

test('XML carries them as attributes too', async () => {
  const post = await api('alice', 'statuses/update', { status: 'Rye & spelt <b>today</b>' });
  await api('bob', 'ext/activity/like', { id: String(post.id) });
  const res = await t.request('/api/ext/notifications.xml', { as: 'alice' });
  const doc = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(await res.text());
  const note = [doc.notes.note].flat().find((n: Record<string, string>) => n['@_post_id'] === String(post.id));
  assert.ok(note);
  assert.equal(note['@_post_excerpt'], 'Rye & spelt <b>today</b>');
});
