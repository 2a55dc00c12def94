import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { request as httpRequest } from 'node:http';
import { basic, PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { main } from '../../server/cli.js';

// Low-severity findings of issue 16 from an anonymous LAN client's side: a garbage compressed body,
// login timing by unknown name, response headers (nosniff, CSP, framing) and JSONP.

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice'], options: { throttle: { maxFailures: 1000, windowMs: 60_000 } } });
});
after(() => t.stop());

/** A raw request, so that the body goes out exactly as given with the headers given. */
function raw(path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: string }> {
  const url = new URL(t.url + path);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST', headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('a request body that claims gzip or deflate but is garbage is a 400, anonymous or authenticated', async () => {
  const garbage = Buffer.from('this is not compressed at all, not even a little');
  const cases: [string, Record<string, string>][] = [
    ['/api/help/test.json', {}],
    ['/api/oauth/request_token', {}],
    ['/api/statuses/update.json', { authorization: basic('alice') }],
    ['/api/z/1.0/item/update', { authorization: basic('alice') }],
    ['/login', { accept: 'application/json' }],
  ];
  for (const [path, auth] of cases) {
    for (const encoding of ['gzip', 'deflate']) {
      for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
        const res = await raw(path, { ...auth, 'content-type': type, 'content-encoding': encoding }, garbage);
        assert.equal(res.status, 400, `${path} ${encoding} ${type} ${auth.authorization ? 'authenticated' : 'anonymous'}: ${res.body}`);
      }
    }
  }
});

test('unknown logins run the password hash as often as known ones (web login, Basic, Mastodon password grant)', async () => {
  const reg = await fetch(`${t.url}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'timing', redirect_uris: 'urn:ietf:wg:oauth:2.0:oob', scopes: 'read' }) });
  const app = (await reg.json()) as { client_id: string; client_secret: string };
  assert.equal(reg.status, 200);
  const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const original = crypto.scrypt;
  let runs = 0;
  crypto.scrypt = ((...args: Parameters<typeof original>) => {
    runs++;
    return (original as (...a: unknown[]) => void)(...args);
  }) as typeof original;
  syncBuiltinESMExports();
  try {
    const count = async (attempt: () => Promise<Response>) => {
      const before = runs;
      const res = await attempt();
      await res.arrayBuffer();
      return { status: res.status, runs: runs - before };
    };
    const web = (login: string) => () =>
      fetch(`${t.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login, password: 'wrong password' }) });
    const api = (login: string) => () => fetch(`${t.url}/api/account/verify_credentials.json`, { headers: { authorization: basic(login, 'wrong password') } });
    const grant = (login: string) => () =>
      fetch(`${t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: login, password: 'wrong password', scope: 'read' }) });
    for (const attempt of [web, api, grant]) {
      const known = await count(attempt('alice'));
      const knownEmail = await count(attempt('alice@example.com'));
      const unknown = await count(attempt('nobody-here'));
      const unknownEmail = await count(attempt('nobody@example.org'));
      const refused = attempt === grant ? 400 : 401;
      assert.deepEqual([known.status, knownEmail.status, unknown.status, unknownEmail.status], [refused, refused, refused, refused]);
      assert.equal(known.runs, 1);
      assert.deepEqual([knownEmail.runs, unknown.runs, unknownEmail.runs], [1, 1, 1], 'the same number of scrypt runs for unknown logins');
    }
  } finally {
    crypto.scrypt = original;
    syncBuiltinESMExports();
  }
});

const CSP_PAGES = ['/', '/login', '/stream', '/no-such-page', '/oauth/authorize?oauth_token=nope', '/photo/nope-0.jpg'];

test('every HTML page forbids framing and carries a Content-Security-Policy', async () => {
  for (const path of CSP_PAGES) {
    const res = await fetch(t.url + path, { headers: { accept: 'text/html' }, redirect: 'manual' });
    await res.arrayBuffer();
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'none'/, `${path} (${res.status})`);
    assert.match(csp, /default-src 'self'/, `${path} (${res.status})`);
    assert.match(csp, /script-src 'self'(;|$)/, `${path}: no inline or foreign scripts`);
    assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
  }
});

test('API answers carry nosniff: JSON, XML, RSS, errors of both APIs', async () => {
  const cases: [string, RequestInit][] = [
    ['/api/statuses/public_timeline.json', {}],
    ['/api/statuses/public_timeline.xml', {}],
    ['/api/statuses/user_timeline.rss?screen_name=alice', {}],
    ['/api/statuses/home_timeline.json', {}],
    ['/api/statuses/home_timeline.xml', {}],
    ['/api/z/1.0/verify', { headers: { authorization: basic('alice') } }],
    ['/api/z/1.0/verify', {}],
    ['/api/z/1.0/no/such/route', {}],
    ['/api/statuses/update.json', { method: 'POST', headers: { authorization: basic('alice') }, body: new URLSearchParams({ status: '' }) }],
  ];
  for (const [path, init] of cases) {
    const res = await fetch(t.url + path, init);
    await res.arrayBuffer();
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${path} (${res.status})`);
  }
});

test('JSONP is off by default and answers with a callback only once enabled', async () => {
  const path = '/api/help/test.json?callback=grab';
  const off = await fetch(t.url + path);
  const offBody = await off.text();
  assert.equal(off.status, 200);
  assert.doesNotMatch(offBody, /^grab\(/, 'no callback wrapping by default');
  assert.match(off.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(JSON.parse(offBody), 'ok');
  // Credentials never leave through a script tag either, whatever the setting.
  const verify = await fetch(`${t.url}/api/account/verify_credentials.json?callback=grab`, { headers: { authorization: basic('alice', PASSWORD) } });
  assert.doesNotMatch(await verify.text(), /^grab\(/);

  const cli = async (...args: string[]) => {
    const log = console.log;
    console.log = () => undefined;
    try {
      assert.equal(await main(args), 0);
    } finally {
      console.log = log;
    }
  };
  await cli('jsonp', 'on', '--data', t.dataDir);
  try {
    const on = await fetch(t.url + path);
    assert.equal(on.status, 200);
    assert.equal(await on.text(), 'grab("ok")');
    assert.match(on.headers.get('content-type') ?? '', /javascript/);
    assert.equal(on.headers.get('x-content-type-options'), 'nosniff');
  } finally {
    await cli('jsonp', 'off', '--data', t.dataDir);
  }
  assert.doesNotMatch(await (await fetch(t.url + path)).text(), /^grab\(/, 'off again');
});
