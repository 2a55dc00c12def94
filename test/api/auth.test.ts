import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Context } from 'koa';
import { basic, PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { basicAuthenticator } from '../../server/auth/identity.js';
import { verifyLoginPassword } from '../../server/auth/passwords.js';
import { LoginThrottle } from '../../server/auth/throttle.js';

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob'], options: { throttle: { maxFailures: 5, windowMs: 60_000 } } });
});
after(() => t.stop());

const VERIFY = '/api/z/1.0/verify';

test('Basic auth with the channel nickname selects that channel', async () => {
  const res = await t.request(VERIFY, { as: 'bob' });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.channel_address, 'bob');
});

test('Basic auth with the account email selects the default channel', async () => {
  const res = await fetch(t.url + VERIFY, { headers: { authorization: basic('alice@example.com') } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).channel_address, 'alice');
});

test('a wrong password, an unknown user or no credentials get 401 with WWW-Authenticate', async () => {
  const attempts: Record<string, string>[] = [{ authorization: basic('alice', 'wrong password') }, { authorization: basic('nobody') }, { authorization: 'Basic !!!' }, {}];
  for (const headers of attempts) {
    const res = await fetch(t.url + VERIFY, { headers });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), 'Basic realm="Hearth"');
    const body = await res.json();
    assert.equal(body.success, false);
  }
  const compat = await fetch(`${t.url}/api/account/verify_credentials.json`, { headers: { authorization: basic('alice', 'nope') } });
  assert.equal(compat.status, 401);
  assert.equal(compat.headers.get('www-authenticate'), 'Basic realm="Hearth"');
  assert.equal((await compat.json()).code, '401 Unauthorized');
});

test('verify never returns keys or password hashes', async () => {
  const text = await (await t.request(VERIFY, { as: 'alice' })).text();
  assert.doesNotMatch(text, /PRIVATE KEY|prvkey|scrypt\$|account_password|salt/i);
});

test('a session cookie counts for the API only with the CSRF header', async () => {
  const login = await fetch(`${t.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login: 'alice', password: PASSWORD }), redirect: 'manual' });
  assert.equal(login.status, 200);
  const cookie = login.headers.get('set-cookie')!;
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  const { csrf } = await login.json();
  const jar = cookie.split(';')[0]!;
  assert.equal((await fetch(t.url + VERIFY, { headers: { cookie: jar } })).status, 401);
  assert.equal((await fetch(t.url + VERIFY, { headers: { cookie: jar, 'x-csrf-token': 'wrong' } })).status, 401);
  assert.equal((await fetch(t.url + VERIFY, { headers: { cookie: jar, 'x-csrf-token': csrf } })).status, 200);
  const foreign = await fetch(`${t.url}/logout`, { method: 'POST', headers: { cookie: jar, origin: 'https://evil.example' } });
  assert.equal(foreign.status, 403);
});

test('repeated failed logins from one address are throttled', async () => {
  const throttled = await startHub({ channels: ['carol'], options: { throttle: { maxFailures: 3, windowMs: 60_000 } } });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(throttled.url + VERIFY, { headers: { authorization: basic('carol', 'bad') } })).status);
    assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
    // Even the right password waits until the window has passed.
    assert.equal((await throttled.request(VERIFY, { as: 'carol' })).status, 429);
  } finally {
    await throttled.stop();
  }
});

test('before the first channel exists the API answers 401 and the web root leads to setup', async () => {
  const empty = await startHub();
  try {
    assert.equal((await fetch(empty.url + VERIFY)).status, 401);
    const root = await fetch(empty.url + '/setup');
    assert.equal(root.status, 200);
    assert.match(await root.text(), /Create my hub/);
    const setup = await fetch(empty.url + '/setup', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ nick: 'dora', name: 'Dora', password: 'secret12' }) });
    assert.equal(setup.status, 200);
    assert.equal((await empty.request(VERIFY, { as: 'dora', password: 'secret12' })).status, 200);
    const again = await fetch(empty.url + '/setup', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ nick: 'eve', name: 'Eve', password: 'secret12' }) });
    assert.equal(again.status, 409);
  } finally {
    await empty.stop();
  }
});

test('requests arriving together with the same new credentials share one password check', async () => {
  let checks = 0;
  const countingVerify: typeof verifyLoginPassword = async (password, stored) => {
    checks++;
    return verifyLoginPassword(password, stored);
  };
  const authenticator = basicAuthenticator(t.hub.db, new LoginThrottle(), countingVerify);
  const request = (password: string) => ({ get: () => basic('alice', password), ip: '192.0.2.7', hub: t.hub }) as unknown as Context;
  const right = await Promise.all(Array.from({ length: 8 }, () => authenticator(request(PASSWORD))));
  assert.ok(right.every((id) => id?.channel.channel_address === 'alice'));
  assert.equal(checks, 1);
  const wrong = await Promise.all(Array.from({ length: 3 }, () => authenticator(request('not it'))));
  assert.deepEqual(wrong, [null, null, null]);
  assert.equal(checks, 2, 'one check for the three wrong ones, none for the remembered right one');
  await authenticator(request('not it'));
  assert.equal(checks, 3, 'a failed check is not remembered');
});
