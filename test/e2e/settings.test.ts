import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, profilePhotoBytes } from '../helpers/ui-fixtures.js';
import { openUi, pngOf, type Ui } from '../helpers/ui.js';

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

test('settings: a new profile photo is uploaded with progress and shown', async () => {
  const { page } = ui;
  await page.goto('/settings');
  const before = await profilePhotoBytes(hub, 'alice');
  await page.getByText('Change photo').waitFor();
  await page.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await pngOf({ r: 200, g: 60, b: 90 }, 200, 200) });
  await page.getByText('Your profile photo was changed.').waitFor();
  assert.notDeepEqual(await profilePhotoBytes(hub, 'alice'), before);
  await page.waitForFunction(() => {
    const img = document.querySelector('.profile-photo img') as HTMLImageElement | null;
    return Boolean(img && /[?&]v=\d+/.test(img.src) && img.complete && img.naturalWidth > 0);
  });
});
