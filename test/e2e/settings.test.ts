import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

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

test('settings: profile name and about text are saved; the addresses for apps are shown', async () => {
  const { page } = ui;
  await page.goto('/settings');
  await page.getByLabel('Name', { exact: true }).waitFor();
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Alice');
  await page.getByLabel('About you').fill('Keeps bees.');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByText('Your profile was saved.').waitFor();
  await page.getByText(`${hub.url}/api/`, { exact: true }).waitFor();
  await page.getByText('LAN access is off: only this computer can reach your hub.').waitFor();
  assert.equal(await page.getByRole('link', { name: 'Manage app access (OAuth)' }).getAttribute('href'), '/settings/oauth/');
  await ui.screenshot('settings');
  const me = await apiCall<{ description: string }>(hub, 'alice', '/api/account/verify_credentials', {}, 'GET');
  assert.equal(me.description, 'Keeps bees.');
});
