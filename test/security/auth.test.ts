import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { basic, PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { routeUrls } from '../helpers/routes.js';

// Login throttling per client address across every way of logging in, and cookie-authenticated
// API calls from another origin. (OAuth nonces, timestamps, wrong secrets and revocation are
// proven in test/api/compat-oauth.test.ts; Basic throttling alone in test/api/auth.test.ts.)

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice'], options: { throttle: { maxFailures: 4, windowMs: 60_000 } } });
});
after(() => t.stop());

const webLogin = (password: string) =>
  fetch(`${t.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login: 'alice', password }) });
const apiLogin = (password: string) => fetch(`${t.url}/api/z/1.0/verify`, { headers: { authorization: basic('alice', password) } });

test('failed logins through the API and the login page count together, per client address', async () => {
  const statuses: number[] = [];
  for (const attempt of [apiLogin, webLogin, apiLogin, webLogin]) statuses.push((await attempt('wrong password')).status);
  assert.deepEqual(statuses, [401, 401, 401, 401]);
  // The fifth attempt, by either door and even with the right password, waits.
  const web = await webLogin(PASSWORD);
  assert.equal(web.status, 429);
  assert.ok(Number(web.headers.get('retry-after')) > 0);
  assert.equal((await apiLogin(PASSWORD)).status, 429);
});

test('a cookie-authenticated API write from another origin is refused even with the CSRF token', async () => {
  const other = await startHub({ channels: ['carol'] });
  try {
    const login = await fetch(`${other.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login: 'carol', password: PASSWORD }) });
    assert.equal(login.status, 200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf } = await login.json();
    const post = (headers: Record<string, string>) =>
      fetch(`${other.url}/api/z/1.0/item/update`, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: 'body=from+the+cookie' });
    assert.equal((await post({ origin: 'https://evil.example' })).status, 403);
    assert.equal((await post({ origin: 'null' })).status, 403);
    assert.equal((await post({ referer: 'https://evil.example/page' })).status, 403);
    assert.equal((await post({ origin: other.url })).status, 200);
    assert.equal((await post({})).status, 200);
    // Basic and OAuth clients are not browsers: their Origin does not matter.
    const basicPost = await fetch(`${other.url}/api/z/1.0/item/update`, { method: 'POST', headers: { authorization: basic('carol'), origin: 'https://evil.example' }, body: new URLSearchParams({ body: 'basic' }) });
    assert.equal(basicPost.status, 200);
  } finally {
    await other.stop();
  }
});

test('every write route refuses a cookie without the CSRF header, from any origin', async () => {
  const other = await startHub({ channels: ['dora'] });
  try {
    const login = await fetch(`${other.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login: 'dora', password: PASSWORD }) });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const failures: string[] = [];
    for (const r of routeUrls().filter((u) => u.route.auth !== 'none')) {
      for (const method of r.route.methods === '*' ? ['POST'] : r.route.methods.filter((m) => m !== 'GET')) {
        const res = await fetch(other.url + r.path, { method, headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'status=x&body=x' });
        await res.arrayBuffer();
        if (res.status !== 401 && res.status !== 403) failures.push(`${method} ${r.path}: ${res.status}`);
      }
    }
    assert.deepEqual(failures, []);
  } finally {
    await other.stop();
  }
});
