import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  // Both channels belong to the one account of the install.
  hub = await startHub({ channels: ['alice', 'bob'] });
  await postStatus(hub, 'bob', 'Only on the second channel');
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('switching to another channel of the account from the channel menu', async () => {
  const { page } = ui;
  await page.goto('/');
  await page.getByText('Nothing here yet.').waitFor();
  await page.getByRole('button', { name: /^Channel Alice/ }).click();
  await ui.screenshot('channel-menu', { fullPage: false });
  await page.getByRole('menuitem', { name: /Bob/ }).click();
  await page.getByRole('button', { name: /^Channel Bob/ }).waitFor();
  await page.getByText('Only on the second channel').waitFor();
  const session = (await (await page.request.get('/session')).json()) as { channel: { nick: string } };
  assert.equal(session.channel.nick, 'bob');
});

test('the channels page lists the channels of the account and switches back', async () => {
  const { page } = ui;
  await page.goto('/channels');
  const list = page.getByRole('list', { name: 'Channels' });
  await list.getByRole('listitem').filter({ hasText: 'Bob' }).getByText('Current').waitFor();
  await list.getByRole('button', { name: 'Switch to Alice' }).click();
  await page.getByRole('button', { name: /^Channel Alice/ }).waitFor();
  const session = (await (await page.request.get('/session')).json()) as { channel: { nick: string } };
  assert.equal(session.channel.nick, 'alice');
});
