import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { obtainAccessToken, signedFetch } from '../helpers/oauth-client.js';
import { bearerFetch, registerMastodonApp, tokenRequest } from '../helpers/mastodon.js';
import { openUi, type Ui } from '../helpers/ui.js';
import { webLogin } from '../helpers/web-session.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice'] });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('the apps page (/settings/oauth/) is part of the app: an app is added, stays after a reload, and its access is revoked', async () => {
  const { page } = ui;
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Manage app access (OAuth)' }).click();
  await page.waitForURL('**/settings/oauth/');
  await page.getByRole('heading', { name: 'Apps', level: 1 }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Sections' });
  assert.equal(await nav.getByRole('link', { name: 'Settings' }).getAttribute('aria-current'), 'page', 'inside the app, under Settings');

  const form = page.getByRole('form', { name: 'Add an app' });
  await form.getByLabel('Name').fill('Bird client');
  await form.getByLabel('Redirect (callback URL)').fill('https://bird.example/cb');
  await form.getByRole('button', { name: 'Add app' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Added Bird client' });
  await notice.waitFor();
  const [key, secret] = await notice.locator('code').allInnerTexts();
  assert.match(key!, /^[0-9a-f]{32}$/);
  assert.match(secret!, /^[0-9a-f]{32}$/);
  await page.getByRole('list', { name: 'Registered apps' }).getByText('Bird client').waitFor();

  // A reload asks the hub for the same address again.
  const reloaded = await page.reload();
  assert.equal(reloaded?.status(), 200);
  await page.getByRole('list', { name: 'Registered apps' }).getByText('Bird client').waitFor();

  // The app gets access the way an app does; the page lists it, and revokes it.
  const app = { key: key!, secret: secret! };
  const token = await obtainAccessToken(hub, await webLogin(hub, 'alice'), app);
  assert.equal((await signedFetch(hub, app, '/api/account/verify_credentials.json', { token })).status, 200);
  await page.reload();
  const granted = page.getByRole('list', { name: 'Access you gave' }).getByRole('listitem').filter({ hasText: 'Bird client' });
  await granted.getByText('alice · Microblog API (OAuth 1.0a)', { exact: false }).waitFor();
  await ui.screenshots('settings-apps', { fullPage: true });
  await granted.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke the access of Bird client?' }).getByRole('button', { name: 'Revoke' }).click();
  await page.getByText('No app has access to your channels.').waitFor();
  assert.equal((await signedFetch(hub, app, '/api/account/verify_credentials.json', { token })).status, 401);
});

test('an app-only token (no channel) is on the apps page too; removing the app ends it', async () => {
  const { page } = ui;
  const app = await registerMastodonApp(hub, { name: 'Lurking reader', scopes: 'read' });
  const cc = await tokenRequest(hub, { grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret, scope: 'read' });
  const token = ((await cc.json()) as { access_token: string }).access_token;
  const works = async () => (await bearerFetch(hub, token)('/api/v1/apps/verify_credentials')).status === 200;
  assert.ok(await works());
  await page.goto('/settings/oauth/');
  const row = page.getByRole('list', { name: 'Access you gave' }).getByRole('listitem').filter({ hasText: 'Lurking reader' });
  await row.getByText('App only, no channel · Mastodon API (OAuth 2) · read', { exact: false }).waitFor();
  await row.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the app Lurking reader?' });
  await dialog.getByText('every access it holds', { exact: false }).waitFor();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await page.getByText('No app has access to your channels.').waitFor();
  assert.equal(await works(), false);
});

test('an unknown address gets the app\'s own 404 page, inside its layout', async () => {
  const { page } = ui;
  // These documents answer 404 on purpose.
  ui.allowProblems(/\/no\/such\/page/, /\/photo\/not-a-photo/);
  for (const path of ['/no/such/page', '/photo/not-a-photo']) {
    const res = await page.goto(path);
    assert.equal(res?.status(), 404, path);
    await page.getByText('There is nothing at this address.').waitFor();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  }
  await ui.screenshots('not-found', { fullPage: false });
  await page.getByRole('link', { name: 'Go to your stream' }).click();
  await page.getByRole('form', { name: 'New post' }).waitFor();
  // API clients still get the API's own answer.
  const api = await fetch(`${hub.url}/api/no/such/endpoint.json`);
  assert.equal(api.status, 404);
  assert.match(api.headers.get('content-type') ?? '', /json/);
});
