import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { bearerFetch, mastodonToken, OOB, tokenRequest, type MastodonApp } from '../helpers/mastodon.js';

// Finding 12 of the security review: anybody could register Mastodon apps without end (500 in two
// seconds), and the hub kept every one for ever. From the anonymous client's side: how many
// registrations it gets, and whether the apps it left behind still work a day later.

function register(t: TestHub, headers: Record<string, string> = {}, name = 'Flood app'): Promise<Response> {
  return fetch(`${t.url}/api/v1/apps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ client_name: name, redirect_uris: OOB, scopes: 'read write follow push' }),
  });
}

async function registered(t: TestHub, headers: Record<string, string> = {}): Promise<MastodonApp> {
  const res = await register(t, headers);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as MastodonApp;
}

/** What the app's own credentials get at the token endpoint: an app-only token while it exists. */
const appOnlyToken = (t: TestHub, app: MastodonApp) => tokenRequest(t, { grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret, scope: 'read' });

async function refusedAfter(t: TestHub, headers: Record<string, string>, what: string): Promise<void> {
  const res = await register(t, headers);
  assert.equal(res.status, 429, `${what}: ${await res.clone().text()}`);
  const retry = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 300, `Retry-After within the 5 minutes: ${res.headers.get('retry-after')}`);
  assert.match(((await res.json()) as { error: string }).error, /too many/i);
}

test('one address registers 20 apps in 5 minutes, then gets 429 with Retry-After; its apps keep working, and X-Forwarded-For changes nothing', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const apps: MastodonApp[] = [];
    for (let i = 0; i < 20; i++) apps.push(await registered(t, { 'x-forwarded-for': `198.51.100.${i + 1}` }));
    // The hub trusts no proxy: a made-up X-Forwarded-For is the same client.
    await refusedAfter(t, { 'x-forwarded-for': '203.0.113.77' }, 'the 21st from one address');
    // Whatever the registration.
    const bad = await fetch(`${t.url}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: '', redirect_uris: OOB }) });
    assert.equal(bad.status, 429);

    // The owner's app that registered before goes on: a token, approval, the token works.
    const first = apps[0]!;
    assert.equal((await appOnlyToken(t, first)).status, 200);
    const session = await webLogin(t, 'alice');
    const token = await mastodonToken(t, session, { channel: 'alice', app: first });
    assert.equal((await bearerFetch(t, token)('/api/v1/accounts/verify_credentials')).status, 200);
  } finally {
    await t.stop();
  }
});

test('behind a trusted proxy the limit is per client the proxy serves; an IPv6 /64 is one client', async () => {
  const t = await startHub({ channels: ['alice'], options: { trustProxy: true } });
  try {
    for (let i = 0; i < 20; i++) await registered(t, { 'x-forwarded-for': '198.51.100.7' });
    await refusedAfter(t, { 'x-forwarded-for': '198.51.100.7' }, 'the 21st from 198.51.100.7');
    await registered(t, { 'x-forwarded-for': '198.51.100.8' });

    // A host on an IPv6 network can use a new address of its /64 for every request.
    for (let i = 0; i < 20; i++) await registered(t, { 'x-forwarded-for': `2001:db8:5:6::${(i + 1).toString(16)}` });
    await refusedAfter(t, { 'x-forwarded-for': '2001:db8:5:6:ffff:1:2:3' }, 'another address of the same /64');
    await registered(t, { 'x-forwarded-for': '2001:db8:5:7::1' });
  } finally {
    await t.stop();
  }
});

/** Waits until the app's credentials stop working (the hub removed it); false if they never do. */
async function removedWithin(t: TestHub, app: MastodonApp, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const res = await appOnlyToken(t, app);
    if (res.status === 401) return ((await res.json()) as { error: string }).error === 'invalid_client';
    await sleep(200);
  }
  return false;
}

// The hub's real lifetime is a day; these hubs are told 3 seconds.
const SHORT = { unapprovedLifetimeMs: 3000, cleanupEveryMs: 250 };

test('an app the owner never approved is removed after its lifetime, app-only token and all; approved apps stay', async () => {
  const t = await startHub({ channels: ['alice'], options: { appRegistrations: SHORT } });
  try {
    const session = await webLogin(t, 'alice');
    const approved = await registered(t);
    const token = await mastodonToken(t, session, { channel: 'alice', app: approved });
    const byPassword = await registered(t);
    const grant = await tokenRequest(t, { grant_type: 'password', client_id: byPassword.client_id, client_secret: byPassword.client_secret, username: 'alice', password: PASSWORD, scope: 'read' });
    assert.equal(grant.status, 200);
    const passwordToken = ((await grant.json()) as { access_token: string }).access_token;

    const junk = await registered(t);
    // An app-only token needs nobody's approval: it does not keep the app.
    const cc = await appOnlyToken(t, junk);
    assert.equal(cc.status, 200);
    const junkToken = ((await cc.json()) as { access_token: string }).access_token;
    assert.equal((await bearerFetch(t, junkToken)('/api/v1/apps/verify_credentials')).status, 200);

    assert.ok(await removedWithin(t, junk, 15_000), 'the unapproved app is gone');
    assert.equal((await bearerFetch(t, junkToken)('/api/v1/apps/verify_credentials')).status, 401, 'its app-only token with it');
    const page = await session.get(`/oauth/authorize?response_type=code&client_id=${junk.client_id}&redirect_uri=${encodeURIComponent(OOB)}&scope=read`);
    assert.equal(page.status, 400);
    assert.match(await page.text(), /unknown client/, 'the authorize page no longer knows it');

    for (const [app, bearer] of [
      [approved, token],
      [byPassword, passwordToken],
    ] as const) {
      assert.equal((await bearerFetch(t, bearer)('/api/v1/accounts/verify_credentials')).status, 200, 'an approved app keeps its token');
      assert.equal((await appOnlyToken(t, app)).status, 200, 'and its credentials');
    }
  } finally {
    await t.stop();
  }
});

test('when the hub starts it removes unapproved apps that outlived their lifetime', async () => {
  const first = await startHub({ channels: ['alice'], options: { appRegistrations: { ...SHORT, cleanupEveryMs: 3_600_000 } } });
  const dataDir = first.dataDir;
  let approved: MastodonApp;
  let junk: MastodonApp;
  let token: string;
  try {
    approved = await registered(first);
    token = await mastodonToken(first, await webLogin(first, 'alice'), { channel: 'alice', app: approved });
    junk = await registered(first);
  } finally {
    await first.hub.close();
  }
  await sleep(4500);
  const again = await startHub({ dataDir, options: { appRegistrations: { ...SHORT, cleanupEveryMs: 3_600_000 } } });
  try {
    const res = await appOnlyToken(again, junk);
    assert.equal(res.status, 401, 'removed at start, not an hour later');
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_client');
    assert.equal((await bearerFetch(again, token)('/api/v1/accounts/verify_credentials')).status, 200);
    assert.equal((await appOnlyToken(again, approved)).status, 200);
  } finally {
    await again.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
