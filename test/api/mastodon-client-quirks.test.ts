import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { basic, PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { bearerFetch, mastodonToken, OOB, registerMastodonApp } from '../helpers/mastodon.js';
import { registerApp, obtainAccessToken, signedFetch } from '../helpers/oauth-client.js';
import { send } from '../helpers/browser.js';
import { rowCounts } from '../../server/store/stats.js';

// What unchanged Mastodon clients send: `Authorization: Bearer (null)` before they have a token, and
// `//api/v1/...` when given the hub's address with a trailing slash.

let t: TestHub;
let session: WebSession;
let token = '';
let revokedToken = '';
let privateId = '';
const SECRET = 'private-quince-5120';

before(async () => {
  t = await startHub({ channels: ['alice'] });
  session = await webLogin(t, 'alice');
  token = await mastodonToken(t, session, { channel: 'alice' });
  const app = await registerMastodonApp(t);
  revokedToken = await mastodonToken(t, session, { channel: 'alice', app });
  const revoke = await fetch(`${t.url}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, token: revokedToken }) });
  assert.equal(revoke.status, 200);
  const posted = await bearerFetch(t, token)('/api/v1/statuses', { method: 'POST', json: { status: SECRET, visibility: 'private' } });
  assert.equal(posted.status, 200);
  privateId = ((await posted.json()) as { id: string }).id;
});
after(() => t.stop());

const BAD_TOKENS = ['(null)', 'undefined', 'no-such-token'];

test('Bearer (null) registers an app; the routes that need a user still answer 401', async () => {
  const before = rowCounts(t.hub.db);
  const apps = await fetch(`${t.url}/api/v1/apps`, { method: 'POST', headers: { authorization: 'Bearer (null)', 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Null client', redirect_uris: OOB, scopes: 'read write' }) });
  assert.equal(apps.status, 200, await apps.clone().text());
  assert.ok(((await apps.json()) as { client_id: string }).client_id);
  const form = await fetch(`${t.url}/api/v1/apps`, { method: 'POST', headers: { authorization: 'Bearer (null)' }, body: new URLSearchParams({ client_name: 'Null client', redirect_uris: OOB }) });
  assert.equal(form.status, 200);
  const afterApps = rowCounts(t.hub.db);

  for (const bad of [...BAD_TOKENS, revokedToken]) {
    const api = bearerFetch(t, bad);
    for (const [method, path, init] of [
      ['GET', '/api/v1/accounts/verify_credentials', {}],
      ['GET', '/api/v1/timelines/home', {}],
      ['GET', '/api/v1/apps/verify_credentials', {}],
      ['POST', '/api/v1/statuses', { json: { status: 'should not post' } }],
      ['POST', '/api/v2/media', { body: new FormData() }],
    ] as const) {
      const res = await api(path, { method, ...init });
      assert.equal(res.status, 401, `${method} ${path} with Bearer ${bad}`);
      assert.deepEqual(await res.json(), { error: 'The access token is invalid' });
      // A bearer challenge: a Basic one would make a browser show its password dialog over a web client.
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /, `${method} ${path} with Bearer ${bad}`);
    }
  }
  assert.deepEqual(rowCounts(t.hub.db), afterApps, 'a refused request changed the database');
  assert.notDeepEqual(afterApps, before);
});

test('a wrong or revoked token sees what anyone sees, never more', async () => {
  const owner = bearerFetch(t, token);
  const own = await owner(`/api/v1/statuses/${privateId}`);
  assert.equal(own.status, 200, 'the owner sees the private post');
  const aliceId = ((await (await owner('/api/v1/accounts/verify_credentials')).json()) as { id: string }).id;
  const anonymous = (path: string) => fetch(t.url + path);
  for (const path of [`/api/v1/statuses/${privateId}`, `/api/v1/accounts/${aliceId}/statuses`, '/api/v1/timelines/public', `/api/v1/accounts/${aliceId}`, '/api/v1/instance']) {
    const anon = await anonymous(path);
    const anonText = await anon.text();
    for (const bad of [...BAD_TOKENS, revokedToken]) {
      const res = await bearerFetch(t, bad)(path);
      const text = await res.text();
      assert.equal(res.status, anon.status, `${path} with Bearer ${bad}: ${text.slice(0, 200)}`);
      assert.equal(text, anonText, `${path} with Bearer ${bad} answers as to anyone`);
      assert.ok(!text.includes(SECRET), `${path} with Bearer ${bad} shows the private post`);
    }
  }
  assert.equal((await anonymous(`/api/v1/statuses/${privateId}`)).status, 404);
});

test('repeated slashes reach the same route in every API: //api/v1, /api//v1//, /api//z/1.0, //api/help', async () => {
  const same = async (doubled: string, single: string, headers: Record<string, string> = {}) => {
    const a = await fetch(t.url + doubled, { headers });
    const b = await fetch(t.url + single, { headers });
    const [ta, tb] = [await a.text(), await b.text()];
    assert.equal(b.status, 200, `${single}: ${tb.slice(0, 200)}`);
    assert.equal(a.status, 200, `${doubled}: ${ta.slice(0, 200)}`);
    assert.equal(ta, tb, `${doubled} answers as ${single}`);
  };
  await same('//api/v1/instance', '/api/v1/instance');
  await same('//api//v2/instance', '/api/v2/instance');
  await same('/api//v1//timelines/public', '/api/v1/timelines/public');
  await same('/api//v1//timelines/public?limit=1', '/api/v1/timelines/public?limit=1');
  await same('//api/v1/accounts/verify_credentials', '/api/v1/accounts/verify_credentials', { authorization: `Bearer ${token}` });
  await same('/api//z/1.0/version', '/api/z/1.0/version');
  await same('//api/z/1.0//channel/export/basic', '/api/z/1.0/channel/export/basic', { authorization: basic('alice') });
  await same('//api/help/test.json', '/api/help/test.json');
  await same('//api//account/verify_credentials.json', '/api/account/verify_credentials.json', { authorization: basic('alice') });
  await same('//.well-known/nodeinfo', '/.well-known/nodeinfo');
  // A post through a doubled path is a post.
  const posted = await bearerFetch(t, token)('//api/v1//statuses', { method: 'POST', json: { status: 'through two slashes' } });
  assert.equal(posted.status, 200);
  assert.equal(((await posted.json()) as { content: string }).content, '<p>through two slashes</p>');
  // Clients page with the Link header: it names the plain path on the hub, never a host called "api".
  const doubled = (await fetch(`${t.url}//api//v1/timelines/public?limit=1`)).headers.get('link');
  const plain = (await fetch(`${t.url}/api/v1/timelines/public?limit=1`)).headers.get('link');
  assert.ok(plain?.startsWith(`<${t.url}/api/v1/timelines/public?limit=1&max_id=`), `Link: ${plain}`);
  assert.equal(doubled, plain);
});

test('//oauth/token issues tokens (password and client_credentials grants), and they work', async () => {
  const app = await registerMastodonApp(t);
  const password = await fetch(`${t.url}//oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: 'alice', password: PASSWORD, scope: 'read' }) });
  assert.equal(password.status, 200, await password.clone().text());
  const user = ((await password.json()) as { access_token: string }).access_token;
  const me = await bearerFetch(t, user)('//api/v1/accounts/verify_credentials');
  assert.equal(me.status, 200);
  assert.equal(((await me.json()) as { acct: string }).acct, 'alice');
  const cc = await fetch(`${t.url}//oauth//token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret }) });
  assert.equal(cc.status, 200, await cc.clone().text());
  const appToken = ((await cc.json()) as { access_token: string }).access_token;
  assert.equal((await bearerFetch(t, appToken)('/api/v1/apps/verify_credentials')).status, 200);
  const revoke = await fetch(`${t.url}//oauth/revoke`, { method: 'POST', body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, token: user }) });
  assert.equal(revoke.status, 200);
  assert.equal((await bearerFetch(t, user)('/api/v1/accounts/verify_credentials')).status, 401);
});

test('an OAuth 1.0a client signing //api/... (the path it sent) is recognised', async () => {
  const app = await registerApp(session, { name: 'Doubled', redirect: 'https://client.example/cb' });
  const access = await obtainAccessToken(t, session, app);
  const res = await signedFetch(t, app, '//api/account/verify_credentials.json', { token: access });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(((await res.json()) as { screen_name: string }).screen_name, 'alice');
  const forged = await signedFetch(t, app, '//api/account/verify_credentials.json', { token: access, consumerSecret: 'wrong' });
  assert.equal(forged.status, 401);
});

test('a doubled path meets every guard the plain one does, and //host/path is never another address', async () => {
  const before = rowCounts(t.hub.db);
  // Credentials.
  assert.equal((await fetch(`${t.url}//api/v1/timelines/home`)).status, 401);
  assert.equal((await fetch(`${t.url}//api//v1/statuses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"status":"x"}' })).status, 401);
  assert.equal((await fetch(`${t.url}/api//z/1.0/channel/stream`)).status, 401);
  assert.equal((await fetch(`${t.url}/api//z/1.0/channel/stream`, { headers: { cookie: session.cookie } })).status, 401, 'a session cookie alone still counts for nothing');
  assert.equal((await fetch(`${t.url}//api/statuses/update.json`, { method: 'POST', body: new URLSearchParams({ status: 'x' }) })).status, 401);
  assert.equal((await fetch(`${t.url}//api/statuses/update.json`, { method: 'POST', headers: { authorization: basic('alice', 'wrong') }, body: new URLSearchParams({ status: 'x' }) })).status, 401);
  assert.deepEqual(rowCounts(t.hub.db), before);
  // The host guard (DNS rebinding).
  const port = new URL(t.url).port;
  const rebound = await send(`${t.url}//api/v1/instance`, { headers: { host: `evil.example:${port}` } });
  assert.equal(rebound.status, 421);
  // A path that begins with a host name is a path on this hub, not that host's address.
  for (const path of [`//127.0.0.1:${port}/api/v1/instance`, `//evil.example/api/v1/instance`, `///evil.example//oauth/token`]) {
    const res = await fetch(t.url + path, { redirect: 'manual' });
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get('location'), null, path);
  }
  // Logging in from a doubled path returns to a path on the hub.
  const app = await registerMastodonApp(t);
  const authorize = await fetch(`${t.url}//oauth//authorize?${new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: OOB, scope: 'read' })}`, { redirect: 'manual' });
  assert.equal(authorize.status, 302);
  const location = authorize.headers.get('location')!;
  assert.match(location, /^\/login\?return=/);
  assert.match(new URLSearchParams(location.split('?')[1]).get('return')!, /^\/oauth\/authorize\?/);
});
