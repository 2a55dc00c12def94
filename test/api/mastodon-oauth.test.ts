import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { startHub, PASSWORD, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { approveOnPage, bearerFetch, mastodonToken, OOB, registerMastodonApp, tokenRequest } from '../helpers/mastodon.js';

let t: TestHub;
let alice: WebSession;
before(async () => {
  t = await startHub({ channels: ['alice'], options: { throttle: { maxFailures: 3 } } });
  await t.addChannel('alicework', 'Alice at work');
  alice = await webLogin(t, 'alice');
});
after(() => t.stop());

test('discovery: nodeinfo and instance v1/v2 with the limits the hub enforces', async () => {
  const wk = await (await fetch(`${t.url}/.well-known/nodeinfo`)).json();
  assert.match(wk.links[0].href, /\/nodeinfo\/2\.0$/);
  const ni = await (await fetch(wk.links[0].href)).json();
  assert.equal(ni.software.name, 'hearth');
  assert.equal(ni.usage.users.total, 2);
  const v1 = await (await fetch(`${t.url}/api/v1/instance`)).json();
  assert.match(v1.version, /^4\.3\.0 \(compatible; Hearth /);
  assert.equal(v1.configuration.statuses.max_characters, 1_000_000);
  assert.equal(v1.configuration.media_attachments.image_size_limit, t.hub.limits.maxUploadBytes);
  const v2 = await (await fetch(`${t.url}/api/v2/instance`)).json();
  assert.equal(v2.domain, new URL(t.url).host);
  assert.equal(v2.configuration.polls.max_options, 0);
});

test('apps: registration answers credentials; bad registrations get 422', async () => {
  const app = await registerMastodonApp(t);
  assert.ok(app.client_id && app.client_secret);
  const bad = await fetch(`${t.url}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'x', redirect_uris: 'not a uri' }) });
  assert.equal(bad.status, 422);
  assert.ok((await bad.json()).error);
  const badScope = await fetch(`${t.url}/api/v1/apps`, { method: 'POST', body: new URLSearchParams({ client_name: 'x', redirect_uris: OOB, scopes: 'read admin:everything' }) });
  assert.equal(badScope.status, 400);
});

test('authorization code with PKCE S256 for the chosen channel; the token names that channel', async () => {
  const token = await mastodonToken(t, alice, { channel: 'alicework' });
  const api = bearerFetch(t, token);
  const me = await (await api('/api/v1/apps/verify_credentials')).json();
  assert.equal(me.name, 'Test app');
  assert.equal(me.client_secret, undefined);
});

test('PKCE: a wrong verifier is refused and the code is spent; plain works', async () => {
  const app = await registerMastodonApp(t);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const code = await approveOnPage(alice, app, { channel: 'alice', challenge, method: 'S256' });
  const wrong = await tokenRequest(t, { grant_type: 'authorization_code', client_id: app.client_id, code, redirect_uri: OOB, code_verifier: randomBytes(32).toString('base64url') });
  assert.equal(wrong.status, 400);
  assert.equal((await wrong.json()).error, 'invalid_grant');
  const again = await tokenRequest(t, { grant_type: 'authorization_code', client_id: app.client_id, code, redirect_uri: OOB, code_verifier: verifier });
  assert.equal(again.status, 400, 'a code is good for one exchange');
  const plainCode = await approveOnPage(alice, app, { channel: 'alice', challenge: verifier, method: 'plain' });
  const ok = await tokenRequest(t, { grant_type: 'authorization_code', client_id: app.client_id, code: plainCode, redirect_uri: OOB, code_verifier: verifier });
  assert.equal(ok.status, 200);
});

test('a redirect URI gets the code and state; deny sends access_denied', async () => {
  const app = await registerMastodonApp(t, { redirect: 'https://app.example/cb' });
  const code = await approveOnPage(alice, app, { channel: 'alice', redirect: 'https://app.example/cb' });
  const res = await tokenRequest(t, { grant_type: 'authorization_code', client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: 'https://app.example/cb' });
  assert.equal(res.status, 200);
  const other = await fetch(`${t.url}/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=https://evil.example/`, { headers: { cookie: alice.cookie }, redirect: 'manual' });
  assert.equal(other.status, 400, 'an unregistered redirect is refused');
});

test('the authorize page sends a visitor without a session to the login page', async () => {
  const app = await registerMastodonApp(t);
  const res = await fetch(`${t.url}/oauth/authorize/?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent(OOB)}&scope=read`, { redirect: 'manual' });
  assert.equal(res.status, 302);
  assert.match(res.headers.get('location')!, /^\/login\?return=/);
});

test('client_credentials: the app alone; password grant under the login throttle', async () => {
  const app = await registerMastodonApp(t);
  const cc = await tokenRequest(t, { grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret, scope: 'read' });
  assert.equal(cc.status, 200);
  const appToken = (await cc.json()).access_token;
  assert.equal((await bearerFetch(t, appToken)('/api/v1/apps/verify_credentials')).status, 200);
  const badSecret = await tokenRequest(t, { grant_type: 'client_credentials', client_id: app.client_id, client_secret: 'nope' });
  assert.equal(badSecret.status, 401);
  assert.equal((await badSecret.json()).error, 'invalid_client');

  const good = await tokenRequest(t, { grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: 'alice@example.com', password: PASSWORD, scope: 'read write' });
  assert.equal(good.status, 200);
  assert.equal((await good.json()).scope, 'read write');
  for (let i = 0; i < 3; i++) {
    const bad = await tokenRequest(t, { grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: 'alice', password: 'wrong' });
    assert.equal(bad.status, 400);
  }
  const throttled = await tokenRequest(t, { grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: 'alice', password: PASSWORD });
  assert.equal(throttled.status, 429, 'the throttle of every login applies');
  assert.ok(throttled.headers.get('retry-after'));
  t.hub.throttle.succeed('127.0.0.1');
  t.hub.throttle.succeed('::ffff:127.0.0.1');
});

test('revoke: the token stops working; revoking on the apps page works too', async () => {
  const app = await registerMastodonApp(t);
  const token = await mastodonToken(t, alice, { channel: 'alice', app });
  const res = await fetch(`${t.url}/oauth/revoke`, { method: 'POST', body: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, token }) });
  assert.equal(res.status, 200);
  const after = await bearerFetch(t, token)('/api/v1/apps/verify_credentials');
  assert.equal(after.status, 401);
  assert.deepEqual(await after.json(), { error: 'The access token is invalid' });

  const token2 = await mastodonToken(t, alice, { channel: 'alicework', app });
  const access = (await (await alice.get('/settings/oauth/access')).json()) as { grants: { kind: string; id: string; channel: string; scopes: string; app: string }[] };
  const grant = access.grants.find((g) => g.kind === 'oauth2' && g.channel === 'alicework');
  assert.ok(grant, 'the apps page lists OAuth 2 tokens');
  assert.equal(grant.app, 'Test app');
  assert.equal(grant.scopes, 'read write follow push');
  const csrf = /"csrf":"([^"]+)"/.exec(await (await alice.get('/session')).text())![1]!;
  const revoked = await alice.post('/settings/oauth/grants/revoke', { kind: 'oauth2', id: grant.id }, { 'x-csrf-token': csrf, origin: t.url });
  assert.equal(revoked.status, 200);
  assert.equal((await bearerFetch(t, token2)('/api/v1/apps/verify_credentials')).status, 401);
});

test('the authorize page opened without an app (the LAN panel QR code) says what to enter in the app', async () => {
  const res = await fetch(`${t.url}/oauth/authorize`);
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, new RegExp(`<code id="server-address"[^>]*>${t.url.replace(/[.]/g, '\\.')}</code>`));
});
