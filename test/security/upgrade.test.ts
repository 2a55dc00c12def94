import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub, PASSWORD } from '../helpers/hub.js';
import { killHard, spawnHub, type ChildHub } from '../helpers/child-hub.js';
import { registerMastodonApp, tokenRequest } from '../helpers/mastodon.js';
import { rawConnection, upgradeRequest } from '../helpers/raw-client.js';

// The WebSocket upgrade path from an anonymous client's side: requests that once ended the hub
// process, a fuzz of odd upgrade requests against a hub in a process of its own (so that a crash is
// seen as the process exiting), and the Host check HTTP already had.

let dataDir: string;
let hub: ChildHub;
let token: string;
let host: string;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hearth-upgrade-'));
  const t = await startHub({ channels: ['alice'], dataDir });
  const app = await registerMastodonApp(t);
  const res = await tokenRequest(t, { grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: 'alice', password: PASSWORD, scope: 'read write' });
  token = ((await res.json()) as { access_token: string }).access_token;
  await t.stop();
  hub = await spawnHub(dataDir);
  host = new URL(hub.url).host;
});

after(async () => {
  await killHard(hub);
  await rm(dataDir, { recursive: true, force: true });
});

function alive(): void {
  assert.equal(hub.child.exitCode, null, `the hub process exited:\n${hub.output().slice(-2000)}`);
}

async function answers(): Promise<void> {
  const res = await fetch(`${hub.url}/api/v1/instance`, { signal: AbortSignal.timeout(10_000) });
  assert.equal(res.status, 200);
  alive();
}

test('request targets that are no URL get 400 on the upgrade path, and the hub process lives on', { timeout: 60_000 }, async () => {
  for (const target of ['//[', 'http://[', '//user:pass@[::1', 'http://user:pass@[::1/api/v1/streaming', '//[/api/v1/streaming']) {
    const c = rawConnection(hub.url, upgradeRequest(target, host));
    const head = await c.head;
    await c.closed;
    await new Promise((r) => setTimeout(r, 100));
    alive();
    assert.notEqual(head, 'closed', `${target}: answered`);
    assert.equal(head !== 'closed' && head.status, 400, `${target}: ${head !== 'closed' && head.head}`);
    await answers();
  }
});

test('the same targets without an upgrade get 400 from the HTTP server, not 500', { timeout: 60_000 }, async () => {
  for (const target of ['http://[', 'http://user:pass@[::1', 'http://[/api/v1/instance']) {
    for (const method of ['GET', 'POST']) {
      const c = rawConnection(hub.url, `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\n\r\n`);
      const head = await c.head;
      c.socket.destroy();
      assert.equal(head !== 'closed' && head.status, 400, `${method} ${target}: ${head !== 'closed' && head.head}`);
    }
  }
  await answers();
});

/** A masked WebSocket frame, as clients must send them. */
function frame(opcode: number, payload: Buffer, fin = true): Buffer {
  const mask = Buffer.from([1, 2, 3, 4]);
  const len = payload.length;
  const header = len < 126 ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | len]) : len < 65536 ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126, len >> 8, len & 255]) : Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 127]), Buffer.from([0, 0, 0, 0, (len >>> 24) & 255, (len >>> 16) & 255, (len >>> 8) & 255, len & 255])]);
  return Buffer.concat([header, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]);
}

/** Messages a connected client sends: broken JSON, odd subscriptions, bad frames. */
const MESSAGES: Buffer[] = [
  frame(1, Buffer.from('not json')),
  frame(1, Buffer.from('null')),
  frame(1, Buffer.from('[]')),
  frame(1, Buffer.from('{"type":"subscribe"}')),
  frame(1, Buffer.from('{"type":"subscribe","stream":"list","list":"x"}')),
  frame(1, Buffer.from('{"type":"subscribe","stream":"list","list":"99999999999999999999"}')),
  frame(1, Buffer.from('{"type":"subscribe","stream":"hashtag","tag":{"a":1}}')),
  frame(1, Buffer.from('{"type":"subscribe","stream":"user"}')),
  frame(1, Buffer.from('{"type":"unsubscribe","stream":"public"}')),
  frame(1, Buffer.from('{"type":"nope","stream":"public"}')),
  frame(1, Buffer.from('{"type":"subscribe","stream":"__proto__"}')),
  frame(2, Buffer.from([0, 255, 1])),
  frame(1, Buffer.from([0xff, 0xfe, 0xfd])),
  frame(9, Buffer.from('ping')),
  frame(1, Buffer.from('{"type":'), false),
  frame(0, Buffer.from('"subscribe","stream":"public"}')),
  frame(7, Buffer.from('reserved opcode')),
  frame(1, Buffer.alloc(70 * 1024, 0x61)),
  Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]), // unmasked
  frame(8, Buffer.from([0x03, 0xe8])),
];

type Variant = Record<string, string | undefined>;

function prng(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

test('a fuzz of upgrade requests and WebSocket messages never gets a 5xx, never hangs, and never ends the hub process', { timeout: 300_000 }, async () => {
  const targets = [
    '/api/v1/streaming', '/api/v1/streaming/', '/api/v1/streaming?stream=public', '/api/v1/streaming?stream=public:local', '/api/v1/streaming?stream=user',
    '/api/v1/streaming?stream=hashtag', '/api/v1/streaming?stream=hashtag&tag=%00', '/api/v1/streaming?stream=list&list=abc', '/api/v1/streaming?stream=list&list=99999999999999999999',
    '/api/v1/streaming?stream=nope', `/api/v1/streaming?stream=${'x'.repeat(6000)}`, '/api/v1/streaming?access_token=%ZZ', '/api/v1/streaming?channel=%00', '/api/v1/streaming?channel=nobody',
    '/api/v1/streaming?stream=public&stream=user', '/api/v1/streaming#frag', '/API/V1/STREAMING', '/api/v1/streaming/public', '/api/v1/streaming%2F', '/api/v1/streaming?%', '/',
    '/%', '/%00', '/\u00ff', '//[', 'http://[', '//user:pass@[::1', '*', 'http://127.0.0.1/api/v1/streaming', 'ws://hub/api/v1/streaming', 'http://user@/', 'http://[::1]:99999/',
    'javascript:alert(1)', 'api/v1/streaming', '/..', '/api/v1/streaming/../streaming', '//api/v1/streaming', '\\api\\v1\\streaming',
  ];
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'FOO', 'TRACE'];
  const versions = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9'];
  const variants: Record<string, (string | undefined)[]> = {
    Host: [host, 'evil.example', '', '[', '[::1', 'a:b:c', 'localhost', `${'h'.repeat(300)}.local`, undefined],
    Upgrade: ['websocket', 'WebSocket', 'h2c', '', 'websocket, h2c', 'x'.repeat(1000), undefined],
    Connection: ['Upgrade', 'keep-alive, Upgrade', 'close, Upgrade', 'upgrade'],
    'Sec-WebSocket-Key': ['dGhlIHNhbXBsZSBub25jZQ==', '', 'bad', 'x'.repeat(200), undefined],
    'Sec-WebSocket-Version': ['13', '8', 'abc', '', undefined],
    'Sec-WebSocket-Protocol': [undefined, token, ',', 'a b', ' , ,', 'x'.repeat(5000), `${token}, other`, 'bad\ttoken'],
    Authorization: [undefined, `Bearer ${token}`, 'Bearer nope', 'Bearer', 'Basic Zm9vOmJhcg==', 'Bearer a b', `Bearer ${'x'.repeat(4000)}`],
    'Sec-WebSocket-Extensions': [undefined, 'permessage-deflate; client_max_window_bits', 'permessage-deflate; server_max_window_bits=99', 'x; =;'],
    Origin: [undefined, 'http://evil.example', 'null'],
  };
  const base: Variant = { Host: host, Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' };
  const cases: { method: string; target: string; version: string; headers: Variant; extra?: Buffer }[] = [];
  // Each dimension on its own, the others plain…
  for (const target of targets) cases.push({ method: 'GET', target, version: 'HTTP/1.1', headers: base });
  for (const method of methods) cases.push({ method, target: '/api/v1/streaming?stream=public', version: 'HTTP/1.1', headers: base });
  for (const version of versions) cases.push({ method: 'GET', target: '/api/v1/streaming?stream=public', version, headers: base });
  for (const [name, values] of Object.entries(variants)) for (const v of values) cases.push({ method: 'GET', target: '/api/v1/streaming?stream=public', version: 'HTTP/1.1', headers: { ...base, [name]: v } });
  // …then random mixes.
  const random = prng(20261201);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  for (let i = 0; i < 250; i++) {
    const headers: Variant = { ...base };
    for (const [name, values] of Object.entries(variants)) if (random() < 0.4) headers[name] = pick(values);
    cases.push({ method: random() < 0.8 ? 'GET' : pick(methods), target: pick(targets), version: random() < 0.9 ? 'HTTP/1.1' : pick(versions), headers, extra: random() < 0.2 ? pick(MESSAGES) : undefined });
  }

  const failures: string[] = [];
  let upgraded = 0;
  for (const [i, c] of cases.entries()) {
    const lines = Object.entries(c.headers).filter((e): e is [string, string] => e[1] !== undefined).map(([k, v]) => `${k}: ${v}\r\n`);
    const text = Buffer.concat([Buffer.from(`${c.method} ${c.target} ${c.version}\r\n${lines.join('')}\r\n`, 'latin1'), c.extra ?? Buffer.alloc(0)]);
    const what = `#${i} ${c.method} ${c.target.slice(0, 80)} ${JSON.stringify(c.headers).slice(0, 300)}`;
    const conn = rawConnection(hub.url, text);
    const head = await Promise.race([conn.head, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000))]);
    if (head === 'hung') failures.push(`${what}: neither answered nor closed in 10 s`);
    else if (head !== 'closed' && head.status >= 500) failures.push(`${what}: ${head.head.split('\r\n')[0]}`);
    else if (head !== 'closed' && head.status === 101) {
      upgraded++;
      // Connected: the messages, one after the other, then our close.
      for (const m of MESSAGES) if (!conn.socket.destroyed) conn.socket.write(m);
      await new Promise((r) => setTimeout(r, 20));
    }
    conn.socket.destroy();
    const received = Buffer.from(await conn.closed, 'latin1');
    // A close frame with code 1011: the hub failed on a message.
    if (head !== 'hung' && head !== 'closed' && head.status === 101 && /\x88[\x02-\x7d]\x03\xf3/.test(received.toString('latin1'))) failures.push(`${what}: a message ended the stream with 1011 (internal error)`);
    if (hub.child.exitCode !== null) {
      failures.push(`${what}: the hub process exited`);
      break;
    }
    if (i % 50 === 49) await answers();
  }
  await new Promise((r) => setTimeout(r, 200));
  console.log(`upgrade fuzz: ${cases.length} requests, ${upgraded} handshakes accepted, each then sent ${MESSAGES.length} messages`);
  alive();
  await answers();
  assert.ok(upgraded >= 10, `some requests were valid handshakes (${upgraded})`);
  assert.deepEqual(failures, [], `${failures.length} of ${cases.length} upgrade requests failed:\n${failures.slice(0, 30).join('\n')}\n${hub.output().slice(-3000)}`);
});

test('an upgrade naming a foreign Host is refused with 421, as HTTP refuses it (DNS rebinding); the hub’s own host is served', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const own = new URL(t.url).host;
    for (const foreign of ['evil.example', `evil.example:${new URL(t.url).port}`, 'rebind.attacker.test']) {
      const c = rawConnection(t.url, upgradeRequest('/api/v1/streaming?stream=public', foreign));
      const head = await c.head;
      c.socket.destroy();
      assert.equal(head !== 'closed' && head.status, 421, `Host: ${foreign}`);
    }
    for (const ok of [own, `localhost:${new URL(t.url).port}`]) {
      const c = rawConnection(t.url, upgradeRequest('/api/v1/streaming?stream=public', ok));
      const head = await c.head;
      c.socket.destroy();
      assert.equal(head !== 'closed' && head.status, 101, `Host: ${ok}`);
    }
  } finally {
    await t.stop();
  }
});
