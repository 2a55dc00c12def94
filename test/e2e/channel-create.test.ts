import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await postStatus(hub, 'alice', 'Alice writes on her own channel');
  await apiCall(hub, 'alice', '/api/z/1.0/file/folder', { name: 'Alice papers' });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

const currentNick = async () => ((await (await ui.page.request.get('/session')).json()) as { channel: { nick: string } }).channel.nick;

test('a user creates a channel from the header menu; bad and taken nicknames are refused with a message', async () => {
  const { page } = ui;
  await page.goto('/');
  await page.getByText('Alice writes on her own channel').waitFor();
  await page.getByRole('button', { name: /^Channel Alice/ }).click();
  await page.getByRole('menuitem', { name: 'New channel…' }).click();
  await page.getByRole('heading', { name: 'New channel' }).waitFor();

  await page.getByLabel('Name', { exact: true }).fill('Our family');
  assert.equal(await page.getByLabel('Nickname').inputValue(), 'our-family', 'the nickname is suggested from the name');
  await page.getByLabel('Nickname').fill('9lives');
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByText(/The channel was not created: The nickname must start with a letter/).waitFor();

  await page.getByLabel('Nickname').fill('bob');
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByText('The channel was not created: You already have a channel called bob.').waitFor();
  // What only the hub knows (reserved names) comes back from it as a 400 with the reason.
  ui.allowProblems(/\/session\/channels/);
  await page.getByLabel('Nickname').fill('admin');
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByText('The channel was not created: The nickname admin is reserved').waitFor();
  await ui.screenshots('channel-new-error');
  ui.assertNoProblems();

  await page.getByLabel('Nickname').fill('family');
  await page.getByRole('button', { name: 'Create channel' }).click();
  await page.getByRole('button', { name: /^Channel Our family/ }).waitFor();
  await page.getByText('You are now Our family (family).').waitFor();
  assert.equal(await currentNick(), 'family');
  assert.equal(new URL(page.url()).pathname, '/');
  // Everything now shows the new channel: no post, no file of Alice's.
  await page.getByText('Nothing here yet.').waitFor();
  assert.equal(await page.getByText('Alice writes on her own channel').count(), 0);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Files' }).click();
  await page.getByText('No files yet.').waitFor();
  await ui.screenshots('channel-new-created');
});

test('the header switcher moves between the three channels; each shows its own things', async () => {
  const { page } = ui;
  await page.goto('/channels');
  const list = page.getByRole('list', { name: 'Channels' });
  await list.getByRole('listitem').filter({ hasText: 'Our family' }).getByText('Current').waitFor();
  assert.equal(await list.getByRole('listitem').count(), 3);
  await ui.screenshots('channels-list');

  await page.getByRole('button', { name: /^Channel Our family/ }).click();
  await ui.screenshots('channel-switcher', { fullPage: false });
  await page.getByRole('menuitem', { name: /Alice/ }).click();
  await page.getByRole('button', { name: /^Channel Alice/ }).waitFor();
  await page.getByText('Alice writes on her own channel').waitFor();
  assert.equal(await currentNick(), 'alice');
  await page.goto('/files');
  await page.getByRole('list', { name: 'Files and folders' }).getByText('Alice papers').waitFor();

  await page.getByRole('button', { name: /^Channel Alice/ }).click();
  await page.getByRole('menuitem', { name: /Our family/ }).click();
  await page.getByRole('button', { name: /^Channel Our family/ }).waitFor();
  await page.getByText('Nothing here yet.').waitFor();
  assert.equal(await currentNick(), 'family');
});
