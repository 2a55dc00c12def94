import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basic, PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { registerMastodonApp, type MastodonApp } from '../helpers/mastodon.js';
import { makeImage } from '../helpers/media.js';
import { httpFrom, LAN_ATTACKER, LAN_OWNER, rawConnection, upgradeRequest, type RawConnection } from '../helpers/raw-client.js';
import type { ConnectionLimits } from '../../server/hub.js';

// One client on the LAN holding the hub's connections (finding 4): streams and slow request bodies
// from one address, or from many, must leave the owner room to log in and read, from another
// device and from this machine (127.0.0.1). The limits are the defaults scaled down.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const LIMITS: Partial<ConnectionLimits> = { maxConnections: 24, maxConnectionsPerAddress: 6, loopbackReserve: 8, maxStreamsPerAddress: 4, maxStreamsPerToken: 3, maxAnonymousStreams: 10 };

async function hubWith(connections: Partial<ConnectionLimits>): Promise<{ t: TestHub; app: MastodonApp; host: string }> {
  const t = await startHub({ channels: ['alice'], options: { connections } });
  return { t, app: await registerMastodonApp(t), host: new URL(t.url).host };
}

/** The owner logs in with the password (as `toot login_cli` does) from `from` and reads the home timeline. */
async function ownerLogsInAndReads(t: TestHub, app: MastodonApp, from: string): Promise<string> {
  const body = new URLSearchParams({ grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: 'alice', password: PASSWORD, scope: 'read write' });
  const login = await httpFrom(from, t.url, '/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
  assert.equal(login.status, 200, `login from ${from}: ${login.body}`);
  const token = (JSON.parse(login.body) as { access_token: string }).access_token;
  const home = await httpFrom(from, t.url, '/api/v1/timelines/home', { headers: { authorization: `Bearer ${token}` } });
  assert.equal(home.status, 200, `home timeline from ${from}`);
  return token;
}

const sse = (t: TestHub, from: string, path = '/api/v1/streaming/public', headers = '') => rawConnection(t.url, `GET ${path} HTTP/1.1\r\nHost: ${new URL(t.url).host}\r\n${headers}\r\n`, from);
const websocket = (t: TestHub, from: string, target = '/api/v1/streaming?stream=public', headers: Record<string, string> = {}) => rawConnection(t.url, upgradeRequest(target, new URL(t.url).host, headers), from);
const slowBody = (t: TestHub, from: string, path = '/api/v1/apps', headers = '') =>
  rawConnection(t.url, `POST ${path} HTTP/1.1\r\nHost: ${new URL(t.url).host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n${headers}\r\n{"client_name":"`, from);

/** Opens `n` connections at once and waits until each is connected (and, for streams, answered or closed). */
async function hold(n: number, open: () => RawConnection, answered: boolean): Promise<RawConnection[]> {
  const all = Array.from({ length: n }, open);
  await Promise.all(all.map((c) => (answered ? c.head : new Promise((r) => (c.socket.connecting ? c.socket.once('connect', r).once('close', r) : r(undefined))))));
  // Let the hub see (and count or refuse) the last ones.
  await sleep(300);
  return all;
}

async function statuses(conns: RawConnection[]): Promise<(number | 'closed')[]> {
  return Promise.all(conns.map(async (c) => {
    const h = await c.head;
    return h === 'closed' ? h : h.status;
  }));
}

function release(conns: RawConnection[]): void {
  for (const c of conns) c.socket.destroy();
}

for (const [kind, open, answered] of [
  ['SSE streams of the public timeline', (t: TestHub) => sse(t, LAN_ATTACKER), true],
  ['WebSockets on the public stream', (t: TestHub) => websocket(t, LAN_ATTACKER), true],
  ['POSTs to /api/v1/apps whose body never ends', (t: TestHub) => slowBody(t, LAN_ATTACKER), false],
] as const) {
  test(`a LAN client holding as many ${kind} as the hub takes connections leaves the owner able to log in and read, from another device and from this machine`, { timeout: 60_000 }, async () => {
    const { t, app } = await hubWith(LIMITS);
    let held: RawConnection[] = [];
    try {
      held = await hold(LIMITS.maxConnections!, () => open(t), answered);
      await ownerLogsInAndReads(t, app, LAN_OWNER);
      await ownerLogsInAndReads(t, app, '127.0.0.1');
      const open_ = held.filter((c) => !c.socket.destroyed).length;
      assert.ok(open_ <= LIMITS.maxConnectionsPerAddress!, `the client holds ${open_} connections`);
    } finally {
      release(held);
      await t.stop();
    }
  });
}

test('clients on many LAN addresses together cannot take the connections kept for this machine', { timeout: 60_000 }, async () => {
  const { t, app } = await hubWith(LIMITS);
  let held: RawConnection[] = [];
  try {
    const addresses = ['127.0.0.2', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7'];
    held = await hold(addresses.length * LIMITS.maxConnectionsPerAddress!, (() => {
      let i = 0;
      return () => slowBody(t, addresses[i++ % addresses.length]!);
    })(), false);
    await ownerLogsInAndReads(t, app, '127.0.0.1');
  } finally {
    release(held);
    await t.stop();
  }
});

test('streams are limited per client address (429), and another address still gets one', { timeout: 60_000 }, async () => {
  const { t } = await hubWith({ ...LIMITS, maxConnectionsPerAddress: 16 });
  const held: RawConnection[] = [];
  try {
    const from = (conns: RawConnection[]) => (held.push(...conns), statuses(conns));
    const attacker = await from(Array.from({ length: 6 }, () => sse(t, LAN_ATTACKER)));
    assert.deepEqual(attacker.sort(), [200, 200, 200, 200, 429, 429]);
    assert.deepEqual(await from([websocket(t, LAN_ATTACKER)]), [429], 'a WebSocket counts against the same places');
    assert.deepEqual(await from([sse(t, LAN_OWNER), websocket(t, LAN_OWNER)]), [200, 101]);
    assert.deepEqual(await from([sse(t, '127.0.0.1')]), [200]);
    // Places are given back when streams close.
    release(held.splice(0, held.length));
    let again: number | 'closed' = 429;
    for (let i = 0; i < 50 && again === 429; i++) {
      const c = sse(t, LAN_ATTACKER);
      held.push(c);
      again = (await statuses([c]))[0]!;
      if (again === 429) await sleep(50);
    }
    assert.equal(again, 200);
  } finally {
    release(held);
    await t.stop();
  }
});

test('streams are limited per token wherever they come from, and anonymous ones all together leave room for a logged-in client', { timeout: 60_000 }, async () => {
  const { t, app } = await hubWith({ ...LIMITS, maxConnectionsPerAddress: 16 });
  const held: RawConnection[] = [];
  const from = (conns: RawConnection[]) => (held.push(...conns), statuses(conns));
  try {
    const token = await ownerLogsInAndReads(t, app, '127.0.0.1');
    const other = await ownerLogsInAndReads(t, app, '127.0.0.1');
    const auth = `Authorization: Bearer ${token}\r\n`;
    assert.deepEqual(await from([sse(t, LAN_ATTACKER, '/api/v1/streaming/user', auth), sse(t, LAN_OWNER, '/api/v1/streaming/user', auth), websocket(t, '127.0.0.1', '/api/v1/streaming?stream=user', { Authorization: `Bearer ${token}` })]), [200, 200, 101]);
    assert.deepEqual(await from([sse(t, '127.0.0.4', '/api/v1/streaming/user', auth), websocket(t, '127.0.0.1', `/api/v1/streaming?stream=user&access_token=${token}`)]), [429, 429], 'the token has its 3 streams');
    // Anonymous streams from three addresses: 10 in all, then 429 …
    const anonymous = await from(['127.0.0.5', '127.0.0.6', '127.0.0.7'].flatMap((a) => Array.from({ length: 4 }, () => sse(t, a))));
    assert.equal(anonymous.filter((s) => s === 200).length, LIMITS.maxAnonymousStreams);
    assert.ok(anonymous.filter((s) => s !== 200).every((s) => s === 429), String(anonymous));
    // … while a logged-in client, and this machine, still get theirs.
    assert.deepEqual(await from([sse(t, '127.0.0.8', '/api/v1/streaming/user', `Authorization: Bearer ${other}\r\n`), sse(t, '127.0.0.1')]), [200, 200]);
  } finally {
    release(held);
    await t.stop();
  }
});

test('a request body without credentials must arrive within the short timeout (408, closed); an upload by a logged-in caller keeps the long one', { timeout: 120_000 }, async () => {
  const SHORT = 500;
  const { t, host } = await hubWith({ unauthenticatedBodyTimeoutMs: SHORT });
  const held: RawConnection[] = [];
  try {
    const slow = [
      slowBody(t, LAN_ATTACKER),
      slowBody(t, LAN_ATTACKER, '/api/v1/apps', 'Authorization: Bearer made-up\r\n'),
      slowBody(t, LAN_ATTACKER, '/no/such/page'),
      slowBody(t, LAN_ATTACKER, '/api/v1/statuses', `Authorization: ${basic('alice', 'wrong')}\r\n`),
      rawConnection(t.url, `POST /login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nlogin=al`, LAN_ATTACKER),
      // Answered without reading the body: Node then reads and discards the rest, as slowly as it comes.
      rawConnection(t.url, `GET /api/v1/instance HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 100000\r\n\r\nx`, LAN_ATTACKER),
    ];
    held.push(...slow);
    // Far below the server's request timeout (15 minutes).
    const outcome = await Promise.all(slow.map((c) => Promise.race([c.closed.then((data) => /^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 'closed'), sleep(20_000).then(() => 'still open after 20 s')])));
    assert.deepEqual(outcome, ['408', '408', '408', '408', '408', '200'], 'each is told why and closed; the one answered already is closed');

    // A logged-in upload that pauses for several times the short timeout is received in full.
    const png = await makeImage(40, 40, 'png');
    const boundary = 'hearth-slow-upload';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const length = Buffer.byteLength(head) + png.length + Buffer.byteLength(tail);
    const upload = rawConnection(t.url, Buffer.concat([Buffer.from(`POST /api/media/upload.json HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basic('alice')}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n${head}`), png.subarray(0, 100)]), LAN_OWNER);
    held.push(upload);
    await sleep(SHORT * 4);
    upload.socket.write(Buffer.concat([png.subarray(100), Buffer.from(tail)]));
    const answer = await upload.head;
    assert.equal(answer !== 'closed' && answer.status, 200, answer === 'closed' ? 'closed' : answer.head);
  } finally {
    release(held);
    await t.stop();
  }
});
