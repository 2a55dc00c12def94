import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connect, createGroup, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  for (const other of ['bob', 'carol']) {
    await connect(hub, 'alice', other);
    await connect(hub, other, 'alice');
  }
  await createGroup(hub, 'alice', 'Family', ['bob']);
  const groups = await apiCall<Array<{ gname: string; hash: string }>>(hub, 'alice', '/api/z/1.0/group', {}, 'GET');
  const family = groups.find((g) => g.gname === 'Family')!;
  const carolHash = hub.channels.carol!.channel_hash;

  await postStatus(hub, 'alice', 'Alice for everyone: the garden is in bloom');
  await postStatus(hub, 'bob', 'Bob: dinner at ours on Friday');
  await postStatus(hub, 'carol', 'Carol: climbing trip photos soon');
  await apiCall(hub, 'alice', '/api/z/1.0/item/update', { title: 'Grandma visits', body: 'Grandma arrives on Saturday', 'group_allow[]': family.hash });
  await apiCall(hub, 'alice', '/api/z/1.0/item/update', { body: 'A surprise for Carol only', 'contact_allow[]': carolHash });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

const TEXTS = ['Alice for everyone', 'Bob: dinner at ours', 'Carol: climbing trip', 'Grandma arrives on Saturday', 'A surprise for Carol only'];

async function shownPosts(): Promise<string[]> {
  const stream = ui.page.getByRole('region', { name: 'Stream' });
  await stream.and(ui.page.locator('[aria-busy="false"]')).waitFor();
  const text = await stream.innerText();
  return TEXTS.filter((t) => text.includes(t));
}

test('restricted posts say whom they went to: a group by name, a person by name', async () => {
  const { page } = ui;
  await page.goto('/');
  const grandma = page.getByRole('article').filter({ hasText: 'Grandma arrives on Saturday' });
  await grandma.getByText('Visible to: Family').waitFor();
  const surprise = page.getByRole('article').filter({ hasText: 'A surprise for Carol only' });
  await surprise.getByText('Visible to: Carol').waitFor();
  await page.getByRole('article').filter({ hasText: 'Alice for everyone' }).getByText('Public').waitFor();
  // Others' posts are public here; nothing else is asked of the hub for them.
  await page.getByRole('article').filter({ hasText: 'Bob: dinner at ours' }).getByText('Public').waitFor();
  assert.deepEqual(await shownPosts(), TEXTS);
  await ui.screenshots('stream-audience');
});

test('filtering the stream by group shows its members’ posts and posts shared with it; by connection, that person’s', async () => {
  const { page } = ui;
  await page.goto('/');
  await page.getByText('Carol: climbing trip').waitFor();
  const filters = page.getByRole('form', { name: 'Filter the stream' });

  await filters.getByLabel('Group').selectOption({ label: 'Family' });
  await page.getByText('Showing only posts by members of or shared with the group Family.').waitFor();
  await page.getByText('Carol: climbing trip').waitFor({ state: 'detached' });
  assert.deepEqual(await shownPosts(), ['Bob: dinner at ours', 'Grandma arrives on Saturday']);
  assert.match(page.url(), /\/stream\?group=\d+$/);
  await page.getByRole('article').filter({ hasText: 'Grandma arrives' }).getByText('Visible to: Family').waitFor();
  await ui.screenshots('stream-filter-group');

  await filters.getByLabel('Connection').selectOption({ label: 'Carol' });
  await page.getByText('Showing only posts by Carol.').waitFor();
  await page.getByText('Bob: dinner at ours').waitFor({ state: 'detached' });
  assert.deepEqual(await shownPosts(), ['Carol: climbing trip']);
  assert.equal(await filters.getByLabel('Group').inputValue(), '', 'one filter at a time');
  await ui.screenshots('stream-filter-connection');

  // The filter is in the address: a reload keeps it.
  await page.reload();
  await page.getByText('Showing only posts by Carol.').waitFor();
  assert.deepEqual(await shownPosts(), ['Carol: climbing trip']);

  await filters.getByRole('button', { name: 'Show everything' }).click();
  await page.getByText('Bob: dinner at ours').waitFor();
  assert.deepEqual(await shownPosts(), TEXTS);
  assert.equal(new URL(page.url()).pathname, '/stream');
});

test('a group’s page and a connection’s page lead to the stream filtered by them', async () => {
  const { page } = ui;
  await page.goto('/groups');
  await page.getByRole('list', { name: 'Your groups' }).getByRole('link', { name: /Family/ }).click();
  await page.getByRole('heading', { name: 'Family', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Show posts' }).click();
  await page.getByText('Showing only posts by members of or shared with the group Family.').waitFor();
  assert.deepEqual(await shownPosts(), ['Bob: dinner at ours', 'Grandma arrives on Saturday']);

  await page.goto('/connections');
  await page.getByRole('link', { name: /Carol/ }).first().click();
  await page.getByRole('heading', { name: 'Carol', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Show posts' }).click();
  await page.getByText('Showing only posts by Carol.').waitFor();
  assert.deepEqual(await shownPosts(), ['Carol: climbing trip']);
});
