import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { allowedMethods } from '../../server/http/api.js';
import { rowCounts } from '../../server/store/stats.js';
import { basic, PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { acceptedMethods, errorMessage, label, refusedMethods, routeUrls, type RouteUrl } from '../helpers/routes.js';

// Route table scans: every path of both APIs, under every prefix, driven by the hub's own tables so
// that routes added later are covered without touching this file.

let t: TestHub;
let sessionCookie = '';
const counts = { requests: 0, authRoutes: 0, publicRoutes: 0, refusedMethodChecks: 0 };

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'], options: { throttle: { maxFailures: 1_000_000 } } });
  const login = await fetch(`${t.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login: 'alice', password: PASSWORD }) });
  assert.equal(login.status, 200);
  sessionCookie = login.headers.get('set-cookie')!.split(';')[0]!;
});
after(async () => {
  console.log(`route scan: ${counts.requests} requests; ${counts.authRoutes} credential-protected and ${counts.publicRoutes} public path×prefix pairs; ${counts.refusedMethodChecks} wrong-method checks`);
  await t.stop();
});

/** Paths that answer anonymously (DESIGN.md: public data only); every other path needs credentials. */
const PUBLIC_PATHS: Record<string, string[]> = {
  native: ['version'],
  compat: ['help/test', 'compat/config', 'compat/version', 'users/show', 'users/search', 'externalprofile/show', 'oauth/request_token', 'oauth/access_token'],
};
const FORBIDDEN_WITHOUT_LOGIN = ['ext/profile/show'];

/** Credentials that must not let anyone in: none at all, and several kinds of wrong ones. */
const WRONG_CREDENTIALS: [string, () => Record<string, string>][] = [
  ['none', () => ({})],
  ['wrong password', () => ({ authorization: basic('alice', 'not the password') })],
  ['unknown user', () => ({ authorization: basic('mallory', PASSWORD) })],
  ['empty password', () => ({ authorization: basic('alice', '') })],
  ['malformed Basic', () => ({ authorization: 'Basic !!!not-base64' })],
  ['Basic without colon', () => ({ authorization: 'Basic ' + Buffer.from('alice').toString('base64') })],
  ['unknown OAuth consumer', () => ({ authorization: 'OAuth oauth_consumer_key="nope", oauth_token="nope", oauth_signature_method="HMAC-SHA1", oauth_timestamp="' + Math.floor(Date.now() / 1000) + '", oauth_nonce="n' + Math.random() + '", oauth_version="1.0", oauth_signature="AAAA"' })],
  ['malformed OAuth header', () => ({ authorization: 'OAuth oauth_consumer_key=' })],
  ['bogus session cookie', () => ({ cookie: 'hearth_session=0123456789abcdef', 'x-csrf-token': 'x' })],
  ['session cookie without CSRF header', () => ({ cookie: sessionCookie })],
  ['session cookie with a wrong CSRF header', () => ({ cookie: sessionCookie, 'x-csrf-token': 'wrong' })],
];

function requestBody(method: string): { body?: FormData } {
  if (method === 'GET' || method === 'HEAD') return {};
  // A write that would succeed with credentials: text fields and a file, so that any side effect shows.
  const form = new FormData();
  for (const [k, v] of Object.entries({ status: 'scan', body: 'scan', title: 'scan', text: 'scan', id: '1', name: 'scan', album: 'scan', user_id: '2', screen_name: 'bob', json: '{"name":"scan"}', gid: '1' })) form.append(k, v);
  form.append('media', new Blob([Buffer.from('not an image')], { type: 'image/png' }), 'scan.png');
  return { body: form };
}

const protectedUrls = () => routeUrls().filter((r) => r.route.auth !== 'none');

test('the route tables list each path once and mark credentials as DESIGN.md says', () => {
  const all = routeUrls({ allPrefixes: false });
  assert.ok(all.length >= 2, 'the route tables are empty');
  for (const api of ['native', 'compat'] as const) {
    const paths = all.filter((r) => r.api.name === api).map((r) => r.route.path);
    assert.deepEqual(paths.filter((p, i) => paths.indexOf(p) !== i), [], `${api}: paths listed twice`);
  }
  const wrong = all
    .filter(({ api, route }) => {
      const expected = FORBIDDEN_WITHOUT_LOGIN.includes(route.path) && api.name === 'compat' ? 'user403' : PUBLIC_PATHS[api.name]!.includes(route.path) ? 'none' : 'user';
      return route.auth !== expected;
    })
    .map((r) => `${r.api.name} ${r.route.path}: auth '${r.route.auth}'`);
  assert.deepEqual(wrong, []);
});

test('every credential-protected path refuses missing and wrong credentials, under every prefix', async () => {
  const before = rowCounts(t.hub.db);
  const failures: string[] = [];
  const urls = protectedUrls();
  for (const r of urls) {
    counts.authRoutes++;
    const expected = r.route.auth === 'user403' ? 403 : 401;
    for (const method of acceptedMethods(r.route)) {
      for (const [what, headers] of WRONG_CREDENTIALS) {
        for (const suffix of ['', '.xml']) {
          if (suffix && !(r.route.formats ?? r.api.defaultFormats).includes('xml')) continue;
          // Every kind of wrong credential under the first prefix; the other prefix and the XML form share the code path.
          const full = r.prefix === r.api.prefixes[0] && !suffix;
          if (!full && what !== 'none' && what !== 'wrong password') continue;
          const res = await fetch(t.url + r.path + suffix, { method, headers: headers(), ...requestBody(method) });
          counts.requests++;
          const text = await res.text();
          if (res.status !== expected) failures.push(`${method} ${r.path}${suffix} with ${what}: ${res.status} ${text.slice(0, 120)}`);
          else if (expected === 401 && res.headers.get('www-authenticate') !== 'Basic realm="Hearth"') failures.push(`${method} ${r.path}${suffix} with ${what}: 401 without WWW-Authenticate`);
          else if (!suffix) {
            try {
              await errorMessage(res, r.api, text);
            } catch (e) {
              failures.push(`${method} ${r.path} with ${what}: ${(e as Error).message}`);
            }
          }
        }
      }
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(rowCounts(t.hub.db), before, 'a refused request changed the database');
  assert.deepEqual(await readdir(join(t.dataDir, 'tmp')), [], 'a refused upload left a temporary file');
});

test('public paths answer anonymously, without error', async () => {
  const failures: string[] = [];
  // The OAuth provider endpoints answer 401 to an unsigned request: that is their protocol, not a login wall.
  for (const r of routeUrls().filter((u) => u.route.auth === 'none' && !u.route.path.startsWith('oauth/'))) {
    counts.publicRoutes++;
    const res = await fetch(t.url + r.path);
    counts.requests++;
    await res.arrayBuffer();
    if (res.status === 401 || res.status === 403 || res.status >= 500) failures.push(`GET ${r.path}: ${res.status}`);
  }
  assert.deepEqual(failures, []);
});

test('every path answers 405 with Allow for each method it does not accept, with or without credentials', async () => {
  const failures: string[] = [];
  const check = async (r: RouteUrl, method: string, headers: Record<string, string>) => {
    const res = await fetch(t.url + r.path, { method, headers });
    counts.requests++;
    counts.refusedMethodChecks++;
    const expectedAllow = allowedMethods(r.route).join(', ');
    if (res.status !== 405) return failures.push(`${method} ${label(r)}: ${res.status}`);
    if (res.headers.get('allow') !== expectedAllow) failures.push(`${method} ${label(r)}: Allow ${res.headers.get('allow')}, expected ${expectedAllow}`);
    if (method === 'HEAD') return;
    try {
      await errorMessage(res, r.api);
    } catch (e) {
      failures.push(`${method} ${label(r)}: ${(e as Error).message}`);
    }
  };
  for (const r of routeUrls()) {
    const refused = refusedMethods(r.route);
    if (r.route.methods !== '*' && !r.route.methods.includes('GET')) refused.push('HEAD' as never);
    for (const method of refused) {
      await check(r, method, {});
      await check(r, method, { authorization: basic('alice') });
    }
  }
  assert.deepEqual(failures, []);
});

test('paths that accept GET also answer HEAD, and accepted methods never answer 405', async () => {
  const failures: string[] = [];
  for (const r of routeUrls({ allPrefixes: false })) {
    const methods = [...acceptedMethods(r.route), ...(r.route.methods === '*' || r.route.methods.includes('GET') ? ['HEAD'] : [])];
    for (const method of methods) {
      const res = await fetch(t.url + r.path, { method, headers: { authorization: basic('alice') } });
      counts.requests++;
      await res.arrayBuffer();
      if (res.status === 405 || res.status >= 500) failures.push(`${method} ${label(r)}: ${res.status}`);
    }
  }
  assert.deepEqual(failures, []);
});
