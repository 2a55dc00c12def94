import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { openUi, type Ui } from '../helpers/ui.js';

/**
 * One address per channel, the one other hubs use (nick@host:port, here on a port that is not the
 * default), on every screen that shows or suggests one: from the first run to connecting.
 */

let hub: TestHub;
let ui: Ui;
let host: string;

before(async () => {
  hub = await startHub();
  host = new URL(hub.url).host;
  ui = await openUi(hub);
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('setup, the channel menu, settings, a second channel, the channels page, connecting and profiles show the same address', async () => {
  const { page } = ui;
  assert.match(host, /:\d+$/);
  await page.goto('/');
  await page.getByRole('heading', { name: 'Welcome to Hearth' }).waitFor();
  const hint = page.locator('#nick-hint');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Nickname').fill('Ada Lovelace');
  await hint.getByText(`nickname@${host}`).waitFor();
  assert.doesNotMatch((await hint.textContent())!, /ada lovelace/i, 'no address made of what cannot be a nickname');
  await ui.screenshots('address-setup-invalid-nick', { fullPage: false });
  await page.getByLabel('Nickname').fill('ada');
  await hint.getByText(`ada@${host}`, { exact: true }).waitFor();
  await ui.screenshots('address-setup', { fullPage: false });
  await page.getByLabel('Password', { exact: true }).fill('engine42');
  await page.getByLabel('Password again').fill('engine42');
  await page.getByRole('button', { name: 'Create my hub' }).click();
  await page.getByRole('form', { name: 'New post' }).waitFor();

  await page.getByRole('button', { name: /Channel Ada Lovelace/ }).click();
  await page.getByRole('menu').getByText(`ada@${host}`, { exact: true }).waitFor();
  await ui.screenshots('address-channel-menu', { fullPage: false });
  await page.keyboard.press('Escape');

  await page.goto('/settings');
  const field = page.locator('.copy-field').filter({ hasText: 'Your channel address' }).locator('code');
  assert.equal(await field.textContent(), `ada@${host}`);

  // A second channel of the account: the one the other person uses below.
  await page.goto('/channels/new');
  await page.getByLabel('Name', { exact: true }).fill('Bob');
  await page.locator('#new-nick-hint').getByText(`bob@${host}`, { exact: true }).waitFor();
  await ui.screenshots('address-new-channel', { fullPage: false });
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByRole('button', { name: /Channel Bob/ }).waitFor();
  await page.goto('/channels');
  const channels = page.getByRole('list', { name: 'Channels' });
  await channels.getByText(`ada@${host}`, { exact: true }).waitFor();
  await channels.getByText(`bob@${host}`, { exact: true }).waitFor();
  await ui.screenshots('address-channels', { fullPage: false });

  // Bob connects with Ada by her nickname alone: the box completes her address.
  await page.goto('/connections');
  assert.equal(await page.getByLabel('Connect with').getAttribute('placeholder'), `nickname@${host}`);
  await page.getByLabel('Connect with').fill('ada');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('list', { name: 'Your connections' }).getByRole('link', { name: /Ada Lovelace/ }).getByText(`ada@${host}`, { exact: true }).waitFor();
  await ui.screenshots('address-connections', { fullPage: false });

  await page.goto('/channel/ada');
  await page.getByRole('region', { name: 'Channel' }).getByText(`ada@${host}`, { exact: true }).waitFor();
  await ui.screenshots('address-profile', { fullPage: false });
});
