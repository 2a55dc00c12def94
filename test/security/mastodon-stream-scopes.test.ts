import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { passwordToken, registerApp } from '../../server/services/oauth2.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { bearerFetch } from '../helpers/mastodon.js';

// From the attacker's side of streaming: a token of one scope opens alice's user, user:notification
// and direct streams, over WebSocket and over server-sent events; then private posts, direct
// messages both ways and notifications happen. A stream opens only for a token with the scope its
// events need, and each event reaches only a token with the scope its REST counterpart needs:
// read:statuses for status events (update, status.update, delete) and conversations,
// read:notifications for notifications.

const SCOPES = [
  'read', 'write', 'follow', 'push', 'profile',
  'read:accounts', 'read:blocks', 'read:bookmarks', 'read:favourites', 'read:filters', 'read:follows', 'read:lists', 'read:mutes', 'read:notifications', 'read:search', 'read:statuses',
  'write:accounts', 'write:blocks', 'write:bookmarks', 'write:conversations', 'write:favourites', 'write:filters', 'write:follows', 'write:lists', 'write:media', 'write:mutes',
  'write:notifications', 'write:reports', 'write:statuses',
  'read:statuses read:notifications',
];
const STREAMS = ['user', 'user:notification', 'direct'] as const;
type StreamName = (typeof STREAMS)[number];

const has = (scopes: string, need: string) => scopes.split(' ').some((s) => s === need || s === need.split(':')[0]);

interface Event {
  event: string;
  payload: string;
}

interface Opened {
  label: string;
  scope: string;
  stream: StreamName;
  status: number;
  events: Event[];
  close(): void;
}

let t: TestHub;
let alice: ReturnType<typeof bearerFetch>;
let bob: ReturnType<typeof bearerFetch>;

function tokenFor(channel: string, scope: string): string {
  const app = registerApp(t.hub.db, { name: 'stream probe', redirectUris: ['urn:ietf:wg:oauth:2.0:oob'], scopes: 'read write follow push profile', website: '' });
  return passwordToken(t.hub.db, app, t.channels[channel]!, scope).token;
}

before(async () => {
  t = await startHub({ channels: ['alice'] });
  await t.addChannel('bob');
  alice = bearerFetch(t, tokenFor('alice', 'read write follow'));
  bob = bearerFetch(t, tokenFor('bob', 'read write follow'));
  const aliceId = ((await (await bob('/api/v1/accounts/lookup?acct=alice')).json()) as { id: string }).id;
  const bobId = ((await (await alice('/api/v1/accounts/lookup?acct=bob')).json()) as { id: string }).id;
  await bob(`/api/v1/accounts/${aliceId}/follow`, { method: 'POST' });
  await alice(`/api/v1/follow_requests/${bobId}/authorize`, { method: 'POST' });
  await alice(`/api/v1/accounts/${bobId}/follow`, { method: 'POST' });
  await bob(`/api/v1/follow_requests/${aliceId}/authorize`, { method: 'POST' });
});
after(() => t.stop());

function openWebSocket(scope: string, token: string, stream: string): Promise<Opened> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/api/v1/streaming?stream=${encodeURIComponent(stream)}`, { headers: { authorization: `Bearer ${token}` } });
    const opened: Opened = { label: `WebSocket ${stream} with ${scope}`, scope, stream: stream as StreamName, status: 0, events: [], close: () => ws.terminate() };
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { event: string; payload: string };
      opened.events.push({ event: m.event, payload: m.payload });
    });
    ws.on('open', () => resolve({ ...opened, status: 101, events: opened.events }));
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      ws.terminate();
      resolve({ ...opened, status: res.statusCode ?? 0 });
    });
    ws.on('error', () => resolve(opened));
  });
}

async function openEventStream(scope: string, token: string, stream: string): Promise<Opened> {
  const ctl = new AbortController();
  const res = await fetch(`${t.url}/api/v1/streaming/${stream.replace(':', '/')}`, { headers: { authorization: `Bearer ${token}` }, signal: ctl.signal });
  const opened: Opened = { label: `SSE ${stream} with ${scope}`, scope, stream: stream as StreamName, status: res.status, events: [], close: () => ctl.abort() };
  if (res.status !== 200) {
    await res.text();
    return opened;
  }
  void (async () => {
    let buf = '';
    for await (const chunk of res.body!) {
      buf += Buffer.from(chunk).toString();
      let i: number;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data !== undefined) opened.events.push({ event, payload: data });
      }
    }
  })().catch(() => undefined);
  return opened;
}

const statusId = (e: Event): string | undefined => {
  if (e.event === 'delete') return e.payload;
  const p = JSON.parse(e.payload) as { id?: string; status?: { id: string }; last_status?: { id: string } };
  return e.event === 'notification' ? p.status?.id : e.event === 'conversation' ? p.last_status?.id : p.id;
};

async function waitFor(s: Opened, what: string, pred: (e: Event) => boolean): Promise<void> {
  const until = Date.now() + 10_000;
  while (!s.events.some(pred)) {
    if (Date.now() > until) assert.fail(`${s.label}: no ${what}; got ${JSON.stringify(s.events.map((e) => [e.event, statusId(e)]))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('each stream opens only for the scope its events need, and each event reaches only the scope its REST counterpart needs', async () => {
  const opened: Opened[] = [];
  for (const scope of SCOPES) {
    const token = tokenFor('alice', scope);
    for (const stream of STREAMS) opened.push(await openWebSocket(scope, token, stream), await openEventStream(scope, token, stream));
  }
  try {
    const wrong = opened.flatMap((s) => {
      const needs = s.stream === 'user:notification' ? 'read:notifications' : 'read:statuses';
      const expected = has(s.scope, needs) ? (s.label.startsWith('SSE') ? 200 : 101) : 403;
      return s.status === expected ? [] : [`${s.label}: ${s.status}, expected ${expected}`];
    });

    const post = async (api: typeof alice, body: unknown) => ((await (await api('/api/v1/statuses', { method: 'POST', json: body })).json()) as { id: string }).id;
    const theirPrivate = await post(bob, { status: 'theirs-tamarind-2284', visibility: 'private' });
    const received = await post(bob, { status: '@alice received-rowan-3310', visibility: 'direct' });
    const sent = await post(alice, { status: '@bob direct-damson-9902', visibility: 'direct' });
    const own = await post(alice, { status: 'public-pear-1200' });
    assert.equal((await bob(`/api/v1/statuses/${own}/favourite`, { method: 'POST' })).status, 200);
    assert.equal((await bob(`/api/v1/statuses/${theirPrivate}`, { method: 'PUT', json: { status: 'theirs-tamarind-2284 edited' } })).status, 200);
    assert.equal((await bob(`/api/v1/statuses/${theirPrivate}`, { method: 'DELETE' })).status, 200);
    // Last, a direct message that every stream open to its scope shows: once it is there, so is all before it.
    const marker = await post(bob, { status: '@alice marker-medlar-7777', visibility: 'direct' });

    const open = opened.filter((s) => s.status === 101 || s.status === 200);
    for (const s of open) {
      const statuses = has(s.scope, 'read:statuses');
      const notes = has(s.scope, 'read:notifications');
      if (s.stream !== 'direct' && notes) await waitFor(s, 'mention of the marker', (e) => e.event === 'notification' && statusId(e) === marker);
      if (s.stream === 'user' && statuses) await waitFor(s, 'update of the marker', (e) => e.event === 'update' && statusId(e) === marker);
      if (s.stream === 'direct' && statuses) await waitFor(s, 'conversation of the marker', (e) => e.event === 'conversation' && statusId(e) === marker);
    }
    // Events written together with the marker's are read within moments.
    await new Promise((r) => setTimeout(r, 300));

    for (const s of open) {
      const statuses = has(s.scope, 'read:statuses');
      const notes = has(s.scope, 'read:notifications');
      const kinds = new Set(s.events.map((e) => e.event));
      const allowed = s.stream === 'direct' ? (statuses ? ['conversation'] : []) : s.stream === 'user:notification' ? (notes ? ['notification'] : []) : [...(statuses ? ['update', 'status.update', 'delete'] : []), ...(notes ? ['notification'] : [])];
      for (const k of kinds) if (!allowed.includes(k)) wrong.push(`${s.label} got ${k} events`);
      const ids = (event: string) => s.events.filter((e) => e.event === event).map(statusId);
      const expect = (event: string, id: string, what: string) => {
        if (!ids(event).includes(id)) wrong.push(`${s.label}: no ${event} for ${what}`);
      };
      if (s.stream === 'user' && statuses) {
        for (const [id, what] of [[theirPrivate, 'their private post'], [received, 'the DM received'], [sent, 'the DM sent'], [own, 'her own post']] as const) expect('update', id, what);
        expect('status.update', theirPrivate, 'the edit');
        expect('delete', theirPrivate, 'the deletion');
      }
      if (s.stream === 'direct' && statuses) {
        expect('conversation', received, 'the DM received');
        expect('conversation', sent, 'the DM sent');
        if (ids('conversation').some((id) => id === theirPrivate || id === own)) wrong.push(`${s.label}: a conversation of a post that is not direct`);
      }
      if (s.stream !== 'direct' && notes) {
        expect('notification', received, 'the mention');
        if (!s.events.some((e) => e.event === 'notification' && (JSON.parse(e.payload) as { type: string }).type === 'favourite')) wrong.push(`${s.label}: no favourite notification`);
      }
    }
    assert.deepEqual(wrong, []);
  } finally {
    for (const s of opened) s.close();
  }
});

test('over WebSocket, a token without read:statuses cannot open a public stream, nor subscribe to streams its scope does not cover', async () => {
  for (const scope of SCOPES) {
    const s = await openWebSocket(scope, tokenFor('alice', scope), 'public:local');
    s.close();
    assert.equal(s.status, has(scope, 'read:statuses') ? 101 : 403, s.label);
  }
  // A connection opened for notifications only: subscribing to the user and direct streams is refused.
  const token = tokenFor('alice', 'read:notifications');
  const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/api/v1/streaming?stream=user:notification`, { headers: { authorization: `Bearer ${token}` } });
  const messages: { error?: string; status?: number; event?: string }[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d))));
  await new Promise((r) => ws.on('open', r));
  for (const stream of ['user', 'direct', 'public', 'public:local', 'hashtag']) ws.send(JSON.stringify({ type: 'subscribe', stream, tag: 'news' }));
  const until = Date.now() + 10_000;
  while (messages.filter((m) => m.error).length < 5 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(messages.map((m) => m.status), [403, 403, 403, 403, 403]);
  await alice('/api/v1/statuses', { method: 'POST', json: { status: 'public #news after the refusals' } });
  await bob('/api/v1/statuses', { method: 'POST', json: { status: '@alice one more', visibility: 'direct' } });
  const until2 = Date.now() + 10_000;
  while (!messages.some((m) => m.event === 'notification') && Date.now() < until2) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(messages.filter((m) => m.event).map((m) => m.event), ['notification']);
  ws.terminate();
});
