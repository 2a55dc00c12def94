import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { addressOf, apiCall, connectionId } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

interface PermAllowed {
  perm: string;
  allowed: boolean | number;
}

test('connecting another local channel by its address and changing what it may do', async () => {
  const { page } = ui;
  await page.goto('/connections');
  await page.getByText('No connections yet.').waitFor();
  await page.getByLabel('Connect with').fill(addressOf(hub, 'bob'));
  await page.getByRole('button', { name: 'Connect' }).click();
  const row = page.getByRole('list', { name: 'Your connections' }).getByRole('link', { name: /Bob/ });
  await row.getByText(addressOf(hub, 'bob')).waitFor();
  await ui.screenshot('connections');

  await row.click();
  await page.getByRole('heading', { name: 'Bob' }).waitFor();
  const wall = page.getByLabel('Post on my wall');
  const before = await wall.isChecked();
  await wall.click();
  await (before ? page.getByLabel('Post on my wall', { exact: true }).and(page.locator(':not(:checked)')) : page.getByLabel('Post on my wall', { exact: true }).and(page.locator(':checked'))).waitFor();
  await ui.screenshot('connection');

  const abookId = await connectionId(hub, 'alice', 'bob');
  const perms = await apiCall<PermAllowed[]>(hub, 'alice', '/api/z/1.0/perm_allowed', { abook_id: abookId, perm: 'post_wall' }, 'GET');
  assert.equal(Boolean(perms[0]?.allowed), !before);
});
