import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { apiCall, connectMutually } from '../helpers/ui-fixtures.js';

// The owner's UI listens to the hub's WebSocket stream with its session cookie. From the attacker's
// side: a cookie counts only on an upgrade from the hub's own page (Origin); from any other origin
// or with no Origin the caller is anonymous, so the owner's stream stays shut and nothing private
// leaks; and a stream opened with the session ends with the session.

let t: TestHub;
let alice: WebSession;
let own: string;

interface Listener {
  status: number;
  events: Array<{ stream: string[]; event: string; payload: string }>;
  errors: string[];
  closed: Promise<number>;
  ws?: WebSocket;
}

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  await connectMutually(t, 'alice', ['bob']);
  alice = await webLogin(t, 'alice');
  own = new URL(t.url).origin;
});

after(() => t.stop());

function listen(target: string, headers: Record<string, string>): Promise<Listener> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}${target}`, { headers });
    let closed!: (code: number) => void;
    const l: Listener = { status: 0, events: [], errors: [], closed: new Promise((r) => (closed = r)), ws };
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { stream: string[]; event: string; payload: string; error?: string };
      if (m.error) l.errors.push(m.error);
      else l.events.push(m);
    });
    ws.on('close', (code) => closed(code));
    ws.on('open', () => resolve({ ...l, status: 101 }));
    ws.on('unexpected-response', (_req, res) => {
      res.resume();
      ws.terminate();
      closed(0);
      resolve({ ...l, status: res.statusCode ?? 0 });
    });
    ws.on('error', () => resolve(l));
  });
}

const settle = () => new Promise((r) => setTimeout(r, 300));

/** A post of Bob's only Alice may see, and a notification for Alice (Bob mentions her). */
async function privateNews(text: string): Promise<void> {
  await apiCall(t, 'bob', '/api/z/1.0/item/update', { body: `${text} @alice`, 'contact_allow[]': t.channels.alice!.channel_hash });
}

test('the owner’s session cookie opens no stream from another origin, from a page with origin "null", or without Origin', async () => {
  const port = new URL(t.url).port;
  const foreign = ['http://evil.example', `http://127.0.0.1:${Number(port) + 1}`, `http://localhost.evil.example:${port}`, 'null', 'file://', `${own}.evil.example`];
  for (const origin of [...foreign, undefined]) {
    const headers: Record<string, string> = { cookie: alice.cookie, ...(origin === undefined ? {} : { origin }) };
    const user = await listen('/api/v1/streaming?stream=user', headers);
    assert.equal(user.status, 401, `Origin ${origin}: the user stream is refused`);
    const notes = await listen('/api/v1/streaming?stream=user:notification', headers);
    assert.equal(notes.status, 401, `Origin ${origin}: the notification stream is refused`);
  }
  // The public stream opens, as for anyone; asking for the owner's streams on it gets nothing.
  const sneaky = await listen('/api/v1/streaming?stream=public', { cookie: alice.cookie, origin: 'http://evil.example' });
  assert.equal(sneaky.status, 101);
  for (const stream of ['user', 'user:notification', 'direct']) sneaky.ws!.send(JSON.stringify({ type: 'subscribe', stream }));
  const ownPage = await listen('/api/v1/streaming?stream=user', { cookie: alice.cookie, origin: own });
  assert.equal(ownPage.status, 101, 'the hub’s own page opens the owner’s stream');
  await settle();
  await privateNews('secret-quince-2207');
  await settle();
  assert.equal(sneaky.errors.length, 3, `each subscription was refused: ${sneaky.errors.join(', ')}`);
  assert.ok(!JSON.stringify(sneaky.events).includes('secret-quince-2207'), 'nothing private reached the foreign page');
  assert.ok(ownPage.events.some((e) => e.event === 'update' && e.payload.includes('secret-quince-2207')), 'the owner’s page received the private post');
  assert.ok(ownPage.events.some((e) => e.event === 'notification'), 'and the notification');
  sneaky.ws!.terminate();
  ownPage.ws!.terminate();
});

test('a forged or stale cookie is anonymous; channel= names a channel of the account or is refused', async () => {
  for (const cookie of ['hearth_session=forged', 'hearth_session=', `${alice.cookie}x`]) {
    const l = await listen('/api/v1/streaming?stream=user', { cookie, origin: own });
    assert.equal(l.status, 401, cookie);
  }
  const other = await listen('/api/v1/streaming?stream=user&channel=nobody', { cookie: alice.cookie, origin: own });
  assert.equal(other.status, 403, 'no such channel');
  const own2 = await listen('/api/v1/streaming?stream=user&channel=alice', { cookie: alice.cookie, origin: own });
  assert.equal(own2.status, 101);
  own2.ws!.terminate();
});

test('a stream opened with the session ends when the owner logs out; nothing posted afterwards reaches it', async () => {
  const session = await webLogin(t, 'alice');
  const l = await listen('/api/v1/streaming?stream=user', { cookie: session.cookie, origin: own });
  assert.equal(l.status, 101);
  await privateNews('before-logout-4411');
  await settle();
  assert.ok(l.events.some((e) => e.payload.includes('before-logout-4411')));
  const out = await session.post('/logout', {}, { origin: own, accept: 'application/json' });
  assert.equal(out.status, 200);
  await out.text();
  await privateNews('after-logout-9034');
  const code = await Promise.race([l.closed, new Promise<number>((r) => setTimeout(() => r(-1), 5000))]);
  assert.ok(!l.events.some((e) => e.payload.includes('after-logout-9034')), 'the post after logging out was not sent');
  assert.equal(code, 1008, 'the stream was closed');
});
