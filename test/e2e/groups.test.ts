import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { addressOf, apiCall, connect } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connect(hub, 'alice', 'bob');
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

interface GroupShow {
  name: string;
  gid: number;
  user: Array<{ screen_name: string }>;
}

test('creating a group and adding a connection to it', async () => {
  const { page } = ui;
  await page.goto('/groups');
  await page.getByText('You have no groups yet.').waitFor();
  await page.getByLabel('New group').fill('Family');
  await page.getByRole('button', { name: 'Create group' }).click();

  await page.getByRole('heading', { name: 'Family' }).waitFor();
  await page.getByText('Nobody is in this group yet.').waitFor();
  await page.getByLabel('Add a connection').selectOption({ label: `Bob (${addressOf(hub, 'bob')})` });
  await page.getByRole('button', { name: 'Add to group' }).click();

  const members = page.getByRole('list', { name: 'Members' });
  await members.getByText(addressOf(hub, 'bob')).waitFor();
  await members.getByText('Bob', { exact: true }).waitFor();
  await page.getByText('1 member', { exact: true }).waitFor();
  await ui.screenshot('group');

  const groups = await apiCall<GroupShow[]>(hub, 'alice', '/api/ext/group_show', {}, 'GET');
  const family = groups.find((g) => g.name === 'Family');
  assert.deepEqual(
    family?.user.map((u) => u.screen_name),
    ['bob'],
  );

  await page.getByRole('link', { name: '← All groups' }).click();
  await page.getByRole('list', { name: 'Your groups' }).getByRole('link', { name: /Family\s*1 member/ }).waitFor();
  await ui.screenshot('groups');
});

test('renaming a group, removing its member and deleting it', async () => {
  const { page } = ui;
  await page.goto('/groups');
  await page.getByRole('link', { name: /Family/ }).click();
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByLabel('Group name').fill('Kin');
  await page.getByRole('button', { name: 'Save name' }).click();
  await page.getByRole('heading', { name: 'Kin' }).waitFor();

  await page.getByRole('button', { name: 'Remove Bob from the group' }).click();
  await page.getByText('Nobody is in this group yet.').waitFor();
  let groups = await apiCall<GroupShow[]>(hub, 'alice', '/api/ext/group_show', {}, 'GET');
  assert.deepEqual(
    groups.map((g) => [g.name, g.user.length]),
    [['Kin', 0]],
  );

  await page.getByRole('button', { name: 'Delete group' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete group' }).click();
  await page.getByText('You have no groups yet.').waitFor();
  groups = await apiCall<GroupShow[]>(hub, 'alice', '/api/ext/group_show', {}, 'GET');
  assert.deepEqual(groups, []);
});
