import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { openUi, type Ui } from '../helpers/ui.js';
import { OOB, registerMastodonApp, tokenRequest } from '../helpers/mastodon.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice'] });
  await hub.addChannel('alicework', 'Alice at work');
  ui = await openUi(hub);
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('the owner logs in on the authorize page, picks a channel and approves; the app acts as that channel; the apps page revokes it', async () => {
  const { page } = ui;
  const app = await registerMastodonApp(hub, { name: 'Pocket Toots' });
  const query = new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: OOB, scope: 'read write' });
  await page.goto(`/oauth/authorize?${query}`);
  // Not logged in yet: the login page, which comes back here.
  await page.getByLabel('Nickname or email').fill('alice');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Authorize application' }).waitFor();
  await page.getByText('Pocket Toots').waitFor();
  await page.getByText('post, edit and delete posts', { exact: false }).waitFor();
  await page.getByLabel('Channel').selectOption('alicework');
  await ui.screenshots('mastodon-authorize');
  await page.getByRole('button', { name: 'Authorize' }).click();
  await page.getByRole('heading', { name: 'Application authorized' }).waitFor();
  const code = (await page.locator('#authorization_code').innerText()).trim();
  await ui.screenshots('mastodon-authorize-code');

  const res = await tokenRequest(hub, { grant_type: 'authorization_code', client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: OOB });
  const token = (await res.json()).access_token as string;
  const me = await (await fetch(`${hub.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${token}` } })).json();
  assert.equal(me.acct, 'alicework', 'the token acts as the channel picked on the page');

  await page.goto('/settings/oauth/');
  const granted = page.getByRole('list', { name: 'Access you gave' }).getByRole('listitem').filter({ hasText: 'Pocket Toots' });
  await granted.getByText('alicework · Mastodon API (OAuth 2)', { exact: false }).waitFor();
  await ui.screenshots('mastodon-apps-page', { fullPage: true });
  await granted.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke the access of Pocket Toots?' }).getByRole('button', { name: 'Revoke' }).click();
  await page.getByText('No app has access to your channels.').waitFor();
  assert.equal((await fetch(`${hub.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${token}` } })).status, 401);
});

test('deny: the app gets nothing', async () => {
  const { page } = ui;
  const app = await registerMastodonApp(hub, { name: 'Nosy app', redirect: 'https://nosy.example/cb' });
  // The app's address does not exist here: the browser's failure to reach it is expected.
  ui.allowProblems(/nosy\.example/);
  await page.goto(`/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: 'https://nosy.example/cb', state: 'xyz' })}`);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/oauth/authorize'),
    page.getByRole('button', { name: 'Deny' }).click(),
  ]);
  assert.equal(answer.status(), 302);
  const url = new URL(answer.headers().location!);
  assert.equal(url.searchParams.get('error'), 'access_denied');
  assert.equal(url.searchParams.get('state'), 'xyz');
  assert.equal(url.searchParams.get('code'), null);
});
