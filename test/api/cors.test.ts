import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { registerMastodonApp } from '../helpers/mastodon.js';
import { storeAttachment } from '../../server/services/attachments.js';
import { createPhoto } from '../../server/services/photos.js';

// Browser-based Mastodon clients (Elk, Phanpy) run on another origin: what a browser needs to see in
// the hub's answers to let such a page call it, and that HTML pages get none of it.

let t: TestHub;
let alice: WebSession;
let photoUrl = '';
let fileUrl = '';
const ORIGIN = 'https://elk.example';
const API_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

before(async () => {
  t = await startHub({ channels: ['alice'] });
  alice = await webLogin(t, 'alice');
  const ch = t.channels.alice!;
  const photo = await createPhoto(t.hub, ch, await tempUpload(await makeImage(40, 30), 'p.jpg'));
  photoUrl = `/photo/${photo.photos[0]!.resource_id}-0.jpg`;
  fileUrl = `/attach/${(await storeAttachment(t.hub, ch, await tempUpload('hello', 'a.txt', 'text/plain'))).hash}`;
});
after(() => t.stop());

/** What a browser checks on an actual (not preflight) answer read by a page of another origin. */
function assertReadable(res: Response, what: string): void {
  assert.equal(res.headers.get('access-control-allow-origin'), '*', `${what}: Access-Control-Allow-Origin`);
  assert.equal(res.headers.get('access-control-allow-credentials'), null, `${what}: never Allow-Credentials`);
  const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/\s*,\s*/).map((h) => h.toLowerCase());
  assert.ok(exposed.includes('link'), `${what}: Link is exposed (clients page with it): ${exposed}`);
}

async function preflight(path: string, method: string, headers = 'authorization, content-type') {
  return fetch(t.url + path, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

/** A preflight that a browser accepts for `method` with Authorization and Content-Type. */
async function assertPreflight(path: string, method: string, methods: string[]): Promise<void> {
  const res = await preflight(path, method);
  assert.equal(res.status, 204, `OPTIONS ${path}: ${res.status} ${await res.clone().text()}`);
  assert.equal(await res.text(), '');
  assertReadable(res, `OPTIONS ${path}`);
  const allowed = (res.headers.get('access-control-allow-methods') ?? '').split(/\s*,\s*/);
  assert.deepEqual(allowed.sort(), [...methods].sort(), `OPTIONS ${path}: methods`);
  const allowedHeaders = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
  for (const h of ['authorization', 'content-type']) assert.ok(allowedHeaders.includes(h), `OPTIONS ${path}: ${h} allowed (${allowedHeaders})`);
  assert.ok(Number(res.headers.get('access-control-max-age')) > 0, `OPTIONS ${path}: the preflight may be kept`);
}

test('the Mastodon API (v1, v2) answers any origin, errors included, and its preflights answer 204', async () => {
  // The request that failed for Elk: registering the app from its page.
  const apps = await fetch(`${t.url}/api/v1/apps`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Elk', redirect_uris: 'https://elk.example/cb', scopes: 'read write' }) });
  assert.equal(apps.status, 200);
  assertReadable(apps, 'POST /api/v1/apps');
  for (const path of ['/api/v1/instance', '/api/v2/instance', '/api/v1/timelines/public']) {
    const res = await fetch(t.url + path, { headers: { origin: ORIGIN } });
    assert.equal(res.status, 200, path);
    assertReadable(res, path);
  }
  // A client must read a 401 to know its token is gone.
  const refused = await fetch(`${t.url}/api/v1/timelines/home`, { headers: { origin: ORIGIN, authorization: 'Bearer revoked' } });
  assert.equal(refused.status, 401);
  assertReadable(refused, '401 of /api/v1/timelines/home');
  const missing = await fetch(`${t.url}/api/v1/no/such/thing`, { headers: { origin: ORIGIN } });
  assert.equal(missing.status, 404);
  assertReadable(missing, '404 under /api/v1');

  await assertPreflight('/api/v1/timelines/home', 'GET', API_METHODS);
  await assertPreflight('/api/v1/statuses', 'POST', API_METHODS);
  await assertPreflight('/api/v1/statuses/1', 'DELETE', API_METHODS);
  await assertPreflight('/api/v1/accounts/update_credentials', 'PATCH', API_METHODS);
  await assertPreflight('/api/v2/media', 'POST', API_METHODS);
  await assertPreflight('/api/v1/apps', 'POST', API_METHODS);
});

test('the native and microblog APIs under /api/ answer any origin too', async () => {
  for (const path of ['/api/z/1.0/version', '/api/help/test.json', '/api/compat/version.xml']) {
    const res = await fetch(t.url + path, { headers: { origin: ORIGIN } });
    assert.equal(res.status, 200, path);
    assertReadable(res, path);
  }
  const refused = await fetch(`${t.url}/api/z/1.0/channel/stream`, { headers: { origin: ORIGIN } });
  assert.equal(refused.status, 401);
  assertReadable(refused, '401 of the native API');
  await assertPreflight('/api/z/1.0/item/update', 'POST', API_METHODS);
  await assertPreflight('/api/statuses/update.json', 'POST', API_METHODS);
  await assertPreflight('/api/account/verify_credentials.json', 'GET', API_METHODS);
});

test('/oauth/token and /oauth/revoke answer any origin, and their preflights allow POST', async () => {
  const app = await registerMastodonApp(t);
  const token = await fetch(`${t.url}/oauth/token`, { method: 'POST', headers: { origin: ORIGIN }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret, scope: 'read' }) });
  assert.equal(token.status, 200);
  assertReadable(token, 'POST /oauth/token');
  const { access_token } = (await token.json()) as { access_token: string };
  const bad = await fetch(`${t.url}/oauth/token`, { method: 'POST', headers: { origin: ORIGIN }, body: new URLSearchParams({ grant_type: 'nope' }) });
  assert.equal(bad.status, 400);
  assertReadable(bad, 'error of /oauth/token');
  const revoke = await fetch(`${t.url}/oauth/revoke`, { method: 'POST', headers: { origin: ORIGIN }, body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, token: access_token }) });
  assert.equal(revoke.status, 200);
  assertReadable(revoke, 'POST /oauth/revoke');
  await assertPreflight('/oauth/token', 'POST', ['POST']);
  await assertPreflight('/oauth/revoke', 'POST', ['POST']);
});

test('discovery documents, nodeinfo, photos, avatars and files answer any origin for GET', async () => {
  const paths = ['/.well-known/nodeinfo', '/.well-known/oauth-authorization-server', '/.well-known/host-meta', '/nodeinfo/2.0', `/photo/profile/m/${t.channels.alice!.channel_id}`, photoUrl, fileUrl];
  for (const path of paths) {
    const res = await fetch(t.url + path, { headers: { origin: ORIGIN } });
    assert.equal(res.status, 200, path);
    await res.arrayBuffer();
    assertReadable(res, path);
    await assertPreflight(path, 'GET', ['GET']);
  }
});

test('CORS stops at the API: HTML pages, the session and the authorize page get none, while the API next to them does', async () => {
  const app = await registerMastodonApp(t);
  const authorize = `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: 'urn:ietf:wg:oauth:2.0:oob', scope: 'read' })}`;
  const pages: [string, WebSession | undefined][] = [
    ['/', undefined],
    ['/login', undefined],
    ['/setup', undefined],
    ['/oauth/authorize', undefined],
    [authorize, undefined],
    [authorize, alice],
    ['/settings/oauth/', alice],
    ['/session', alice],
    ['/stream', alice],
    ['/no/such/page', undefined],
  ];
  for (const [path, session] of pages) {
    const res = await fetch(t.url + path, { headers: { origin: ORIGIN, accept: 'text/html', ...(session ? { cookie: session.cookie } : {}) }, redirect: 'manual' });
    await res.arrayBuffer();
    assert.ok(res.status < 500, `${path}: ${res.status}`);
    for (const [name] of res.headers) assert.ok(!name.startsWith('access-control-'), `${path} (${res.status}) carries ${name}`);
    const pre = await preflight(path.split('?')[0]!, 'GET');
    assert.notEqual(pre.status, 204, `OPTIONS ${path}`);
    assert.equal(pre.headers.get('access-control-allow-origin'), null, `OPTIONS ${path}`);
  }
  // The approval is a form of the hub's own page: no other origin may post it with a preflight.
  const post = await preflight('/oauth/authorize', 'POST');
  assert.equal(post.headers.get('access-control-allow-origin'), null);
  const api = await fetch(`${t.url}/api/v1/instance`, { headers: { origin: ORIGIN } });
  assertReadable(api, 'the API next to them');
});
