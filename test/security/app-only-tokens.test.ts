import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { appsPagePost } from '../helpers/oauth-client.js';
import { bearerFetch, mastodonToken, registerMastodonApp, tokenRequest, type MastodonApp } from '../helpers/mastodon.js';

// Finding 16 of the security review: an app takes an app-only token (client_credentials) with
// nothing but the credentials it registered, and the owner never saw it under Settings → Apps, so
// could not end it. From the owner's side: the page lists it; revoking it ends the app for good.

interface Grant {
  kind: string;
  id: string;
  app: string;
  channel: string;
  scopes: string;
}

let t: TestHub;
let owner: WebSession;
before(async () => {
  t = await startHub({ channels: ['alice'] });
  owner = await webLogin(t, 'alice');
});
after(() => t.stop());

const grants = async (): Promise<Grant[]> => ((await (await owner.get('/settings/oauth/access')).json()) as { grants: Grant[] }).grants;

async function appOnlyToken(app: MastodonApp): Promise<Response> {
  return tokenRequest(t, { grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret, scope: 'read' });
}

async function takeAppOnlyToken(app: MastodonApp): Promise<string> {
  const res = await appOnlyToken(app);
  assert.equal(res.status, 200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const works = async (token: string) => (await bearerFetch(t, token)('/api/v1/apps/verify_credentials')).status === 200;

test('an app-only token is listed on the apps page as app-only, for no channel', async () => {
  const app = await registerMastodonApp(t, { name: 'Quiet reader', scopes: 'read' });
  const token = await takeAppOnlyToken(app);
  assert.ok(await works(token));
  const listed = (await grants()).filter((g) => g.app === 'Quiet reader');
  assert.deepEqual(
    listed.map((g) => ({ kind: g.kind, channel: g.channel, scopes: g.scopes })),
    [{ kind: 'oauth2', channel: '', scopes: 'read' }],
    'the owner sees the app-only token',
  );
});

test('revoking an app-only token removes the app: every token it holds ends, and its credentials take no new one', async () => {
  const app = await registerMastodonApp(t, { name: 'Two-faced client' });
  const appOnly = await takeAppOnlyToken(app);
  const forAlice = await mastodonToken(t, owner, { channel: 'alice', app });
  assert.ok(await works(appOnly));
  assert.ok(await works(forAlice));
  const listed = (await grants()).filter((g) => g.app === 'Two-faced client');
  assert.deepEqual(listed.map((g) => g.channel).sort(), ['', 'alice']);

  const entry = listed.find((g) => g.channel === '')!;
  const res = await appsPagePost(owner, 'grants/revoke', { kind: entry.kind, id: entry.id }, { origin: t.url });
  assert.equal(res.status, 200, await res.clone().text());

  assert.equal(await works(appOnly), false, 'the app-only token is revoked');
  assert.equal(await works(forAlice), false, 'and so is its token for a channel');
  const again = await appOnlyToken(app);
  assert.equal(again.status, 401, 'the app cannot take another app-only token');
  assert.equal(((await again.json()) as { error: string }).error, 'invalid_client');
  assert.deepEqual((await grants()).filter((g) => g.app === 'Two-faced client'), []);
  const twice = await appsPagePost(owner, 'grants/revoke', { kind: entry.kind, id: entry.id }, { origin: t.url });
  assert.equal(twice.status, 404);
});

test('revoking an app-only token needs the owner: no session, no CSRF token or another site get nothing revoked', async () => {
  const app = await registerMastodonApp(t, { name: 'Kept reader', scopes: 'read' });
  const token = await takeAppOnlyToken(app);
  const entry = (await grants()).find((g) => g.app === 'Kept reader')!;
  const anonymous = await fetch(`${t.url}/settings/oauth/grants/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams({ kind: entry.kind, id: entry.id }) });
  assert.equal(anonymous.status, 401);
  const noCsrf = await owner.post('/settings/oauth/grants/revoke', { kind: entry.kind, id: entry.id }, { accept: 'application/json' });
  assert.equal(noCsrf.status, 403);
  const foreign = await appsPagePost(owner, 'grants/revoke', { kind: entry.kind, id: entry.id }, { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  assert.ok(await works(token));
});
