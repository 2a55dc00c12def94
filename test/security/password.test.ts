import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { obtainAccessToken, registerApp, sessionCsrf, signedFetch, type OAuthApp, type OAuthToken } from '../helpers/oauth-client.js';
import { main } from '../../server/cli.js';

// Issue 16, finding 8: a changed password ends the sessions of whoever knew the old one; apps are
// signed out when the owner asks. From the side of the other browser and of the app.

const stillLoggedIn = async (s: WebSession) => ((await (await s.get('/session')).json()) as { authenticated: boolean }).authenticated;
const appWorks = async (t: TestHub, app: OAuthApp, token: OAuthToken) => (await signedFetch(t, app, '/api/account/verify_credentials.json', { token })).status === 200;
const basicWorks = async (t: TestHub, password: string) => (await t.request('/api/z/1.0/verify', { as: 'alice', password })).status === 200;

async function withApp(t: TestHub) {
  const browser = await webLogin(t, 'alice');
  const app = await registerApp(browser, { name: 'Phone app', redirect: 'https://app.example/cb' });
  const token = await obtainAccessToken(t, browser, app);
  return { app, token };
}

async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = () => undefined;
  try {
    return await run();
  } finally {
    console.log = log;
  }
}

test('hearth passwd logs every browser out and keeps apps; with --revoke-oauth the apps are signed out too', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const { app, token } = await withApp(t);
    const laptop = await webLogin(t, 'alice');
    assert.ok(await basicWorks(t, PASSWORD));
    assert.equal(await quietly(() => main(['passwd', '--password', 'second secret', '--data', t.dataDir])), 0);
    assert.equal(await stillLoggedIn(laptop), false, 'the browser session ended');
    assert.equal(await appWorks(t, app, token), true, 'the app keeps its token');
    assert.equal(await basicWorks(t, PASSWORD), false, 'the old password no longer works, even remembered');
    assert.ok(await basicWorks(t, 'second secret'));

    const phone = await webLogin(t, 'alice', 'second secret');
    assert.equal(await quietly(() => main(['passwd', '--password', 'third secret', '--revoke-oauth', '--data', t.dataDir])), 0);
    assert.equal(await stillLoggedIn(phone), false);
    assert.equal(await appWorks(t, app, token), false, 'the app was signed out');
  } finally {
    await t.stop();
  }
});

test('the Settings page changes the password: wrong current password 403, too short 400, other browsers logged out, this one stays', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const { app, token } = await withApp(t);
    const mine = await webLogin(t, 'alice');
    const other = await webLogin(t, 'alice');
    const csrf = await sessionCsrf(mine);
    const change = (fields: Record<string, unknown>, headers: Record<string, string> = { 'x-csrf-token': csrf }) =>
      fetch(`${t.url}/settings/password`, { method: 'POST', headers: { cookie: mine.cookie, 'content-type': 'application/json', accept: 'application/json', ...headers }, body: JSON.stringify(fields) });

    assert.equal((await change({ current: 'not it', password: 'new secret 1', confirm: 'new secret 1' })).status, 403);
    assert.equal((await change({ current: PASSWORD, password: 'abc', confirm: 'abc' })).status, 400);
    assert.equal((await change({ current: PASSWORD, password: 'new secret 1', confirm: 'other thing' })).status, 400);
    assert.equal((await change({ current: PASSWORD, password: 'new secret 1' }, {})).status, 403, 'without the CSRF token');
    assert.equal((await change({ current: PASSWORD, password: 'new secret 1' }, { 'x-csrf-token': csrf, origin: 'https://evil.example' })).status, 403, 'from another site');
    const anonymous = await fetch(`${t.url}/settings/password`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ current: PASSWORD, password: 'new secret 1' }) });
    assert.equal(anonymous.status, 401);
    assert.ok(await stillLoggedIn(other), 'nothing changed yet');
    assert.ok(await basicWorks(t, PASSWORD));

    const done = await change({ current: PASSWORD, password: 'new secret 1', confirm: 'new secret 1' });
    assert.equal(done.status, 200, await done.clone().text());
    assert.deepEqual(await done.json(), { success: true, sessions_ended: 2, tokens_revoked: 0 });
    assert.equal(await stillLoggedIn(mine), true, 'the browser that changed it stays');
    assert.equal(await stillLoggedIn(other), false, 'the other browser is logged out');
    assert.equal(await appWorks(t, app, token), true, 'apps stay unless asked');
    assert.equal(await basicWorks(t, PASSWORD), false);
    assert.ok(await basicWorks(t, 'new secret 1'));

    const revoked = await change({ current: 'new secret 1', password: 'new secret 2', confirm: 'new secret 2', revoke_oauth: true });
    assert.equal(revoked.status, 200);
    assert.equal((await revoked.json()).tokens_revoked, 1);
    assert.equal(await appWorks(t, app, token), false, 'the app was signed out when asked');
    assert.equal(await stillLoggedIn(mine), true);
  } finally {
    await t.stop();
  }
});
