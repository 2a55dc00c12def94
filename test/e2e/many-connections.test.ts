import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page, Response } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connect } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';
import { seedConnections, seededAddress, seededHash, seededName } from '../helpers/many-connections.js';
import { addGroupMember, insertGroup } from '../../server/store/groups.js';

// A channel after years of use: 600 connections, and a group of 300 of them. Every screen that
// shows or picks connections asks the hub for a page of them, or for those a person types.
const COUNT = 600;
const GROUP_SIZE = 300;
/** More rows than any page the UI asks for: an answer this long means the whole list was downloaded. */
const MOST_ROWS = 100;

let hub: TestHub;
let ui: Ui;
let gid = 0;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connect(hub, 'alice', 'bob');
  const alice = hub.channels.alice!;
  seedConnections(hub.hub, alice, COUNT);
  hub.hub.db.transaction(() => {
    gid = insertGroup(hub.hub.db, alice.channel_id, 'bighash', 'Everyone I met');
    for (let i = 0; i < GROUP_SIZE; i++) addGroupMember(hub.hub.db, alice.channel_id, gid, seededHash(i));
  })();
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

interface Asked {
  url: URL;
  rows?: number;
}

/** Records what the page asks of the hub while `run` runs: each request, with the rows of each abook answer. */
async function watchRequests(page: Page, run: () => Promise<void>): Promise<Asked[]> {
  const asked: Asked[] = [];
  const pending: Promise<void>[] = [];
  const onResponse = (res: Response) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/api/')) return;
    const entry: Asked = { url };
    asked.push(entry);
    if (url.pathname === '/api/z/1.0/abook' || url.pathname === '/api/z/1.0/group_members') {
      pending.push(
        res.json().then(
          (body: unknown) => void (entry.rows = Array.isArray(body) ? body.length : 0),
          () => undefined,
        ),
      );
    }
  };
  page.on('response', onResponse);
  try {
    await run();
    await page.waitForLoadState('networkidle');
  } finally {
    page.off('response', onResponse);
  }
  await Promise.all(pending);
  return asked;
}

function assertNoWholeList(asked: Asked[]): void {
  const lists = asked.filter((a) => a.url.pathname === '/api/z/1.0/abook' || a.url.pathname === '/api/z/1.0/group_members');
  assert.ok(lists.length > 0, 'the connections were asked for');
  for (const a of lists) {
    assert.ok((a.rows ?? 0) <= MOST_ROWS, `${a.url.pathname}${a.url.search} answered ${a.rows} rows`);
    // Without records (or with records=0) the hub answers every connection.
    const slice = Number(a.url.searchParams.get('records') ?? 0) > 0 || a.url.searchParams.has('xchan') || a.url.searchParams.has('abook_id');
    assert.ok(slice, `${a.url.pathname}${a.url.search} asks for the whole list`);
  }
}

test('the Connections screen shows a page at a time, shows more on request, and finds someone far down the list by name', async () => {
  const { page } = ui;
  const list = page.getByRole('list', { name: 'Your connections' });
  const asked = await watchRequests(page, async () => {
    await page.goto('/connections');
    await list.getByText(seededName(0), { exact: true }).waitFor();
    const first = await list.getByRole('listitem').count();
    assert.ok(first >= 40 && first <= MOST_ROWS, `a page of connections is shown (${first})`);
    assert.equal(await list.getByText(seededName(COUNT - 1)).count(), 0, 'not the last one');
    await ui.screenshots('connections-many-first-page', { fullPage: false });

    await page.getByRole('button', { name: 'Show more connections' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('[aria-label="Your connections"] > li').length > n, first);
    const second = await list.getByRole('listitem').count();
    assert.ok(second > first && second <= 2 * MOST_ROWS, `the next page follows (${first} → ${second})`);
    assert.deepEqual(await list.getByRole('listitem').nth(first).locator('.person-name').innerText(), seededName(first - 1), 'the next one, in order, none twice');

    // Someone far down the list: found by the hub as the name is typed.
    await page.getByLabel('Search your connections').fill('person 0555');
    await list.getByText(seededName(555), { exact: true }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Your connections"] > li').length === 1);
    assert.equal(await list.getByText(seededAddress(555)).count(), 1);
    await ui.screenshots('connections-many-search');
    await page.getByLabel('Search your connections').fill('nobody by this name');
    await page.getByText('None of your connections is named “nobody by this name”.').waitFor();

    await page.getByLabel('Search your connections').fill('');
    await list.getByText(seededName(0), { exact: true }).waitFor();
    await list.getByText(seededName(555), { exact: true }).waitFor({ state: 'detached' });
  });
  assertNoWholeList(asked);
  assert.ok(
    asked.some((a) => a.url.searchParams.get('q') === 'person 0555'),
    'the hub was asked for the name',
  );
});

test('the audience picker finds a connection as their name is typed, and the post says it is visible to them', async () => {
  const { page } = ui;
  const asked = await watchRequests(page, async () => {
    await page.goto('/');
    const composer = page.getByRole('form', { name: 'New post' });
    await composer.getByLabel('Message').click();
    await composer.getByLabel('Message').fill('Only for Person 0444: the spare key is under the pot');
    await composer.getByRole('button', { name: /^Audience/ }).click();
    await page.getByLabel('Only the groups and people I choose').check();
    await page.getByRole('checkbox', { name: new RegExp(seededName(0)) }).waitFor();
    assert.equal(await page.getByRole('checkbox', { name: new RegExp(seededName(444)) }).count(), 0, 'not among the first shown');
    await page.getByLabel('Find people by name').fill('Person 0444');
    const person = page.getByRole('checkbox', { name: new RegExp(seededName(444)) });
    await person.check();
    await composer.getByRole('button', { name: `Audience: ${seededName(444)}` }).waitFor();
    await ui.screenshots('audience-find-person', { fullPage: false });
    await composer.getByRole('button', { name: 'Done' }).click();
    await composer.getByRole('button', { name: 'Post', exact: true }).click();
    const post = page.getByRole('article').filter({ hasText: 'the spare key is under the pot' });
    await post.getByText(`Visible to: ${seededName(444)}`).waitFor();
  });
  assertNoWholeList(asked);
});

test('the stream filter finds a connection beyond its first choices by name', async () => {
  const { page } = ui;
  const asked = await watchRequests(page, async () => {
    await page.goto('/');
    const filters = page.getByRole('form', { name: 'Filter the stream' });
    const choice = filters.getByLabel('Connection');
    await choice.locator('option', { hasText: seededName(0) }).waitFor({ state: 'attached' });
    assert.equal(await choice.locator('option', { hasText: seededName(333) }).count(), 0, 'not among the first choices');
    await filters.getByLabel('Find someone').fill('Person 0333');
    await choice.locator('option', { hasText: seededName(333) }).waitFor({ state: 'attached' });
    await choice.selectOption({ label: seededName(333) });
    await page.getByText(`Showing only posts by ${seededName(333)}.`).waitFor();
    await ui.screenshots('stream-filter-find', { fullPage: false });
    // Reloaded, the filter names the connection though it is not among the first choices.
    await page.reload();
    await page.getByText(`Showing only posts by ${seededName(333)}.`).waitFor();
    assert.equal(await filters.getByLabel('Connection').inputValue(), new URL(page.url()).searchParams.get('connection'));
  });
  assertNoWholeList(asked);
});

test('a new message finds its recipient by name among hundreds', async () => {
  const { page } = ui;
  const asked = await watchRequests(page, async () => {
    await page.goto('/messages');
    const start = page.getByRole('form', { name: 'New message' });
    const to = start.getByLabel('Write to');
    await to.locator('option', { hasText: seededName(0) }).waitFor({ state: 'attached' });
    assert.equal(await to.locator('option', { hasText: seededName(404) }).count(), 0, 'not among the first choices');
    await start.getByLabel('Find a connection by name').fill('person 0404');
    await to.locator('option', { hasText: seededName(404) }).waitFor({ state: 'attached' });
    await to.selectOption({ label: `${seededName(404)} (${seededAddress(404)})` });
    await ui.screenshots('new-message-find', { fullPage: false });
    await start.getByRole('button', { name: 'New message' }).click();
    await page.waitForURL(new RegExp(`/messages/${encodeURIComponent(seededAddress(404))}$`));
  });
  assertNoWholeList(asked);
});

test('a member is added to and removed from a large group one at a time, without sending the whole group', async () => {
  const { page } = ui;
  const posted: { path: string; body: string }[] = [];
  const onRequest = (req: import('playwright-core').Request) => {
    if (req.method() === 'POST') posted.push({ path: new URL(req.url()).pathname, body: req.postData() ?? '' });
  };
  page.on('request', onRequest);
  try {
    const asked = await watchRequests(page, async () => {
      await page.goto(`/groups/${gid}`);
      await page.getByRole('heading', { name: 'Everyone I met', level: 1 }).waitFor();
      await page.getByText(`${GROUP_SIZE} members`, { exact: true }).waitFor();
      const members = page.getByRole('list', { name: 'Members' });
      await members.getByText(seededName(0), { exact: true }).waitFor();

      // Someone not among the first connections shown: found by name, then added.
      await page.getByLabel('Find someone to add by name').fill('Person 0500');
      const choice = page.getByLabel('Add a connection');
      await choice.locator('option', { hasText: seededName(500) }).waitFor({ state: 'attached' });
      await choice.selectOption({ label: `${seededName(500)} (${seededAddress(500)})` });
      await page.getByRole('button', { name: 'Add to group' }).click();
      await page.getByText(`${GROUP_SIZE + 1} members`, { exact: true }).waitFor();

      await page.getByRole('button', { name: `Remove ${seededName(0)} from the group` }).click();
      await page.getByText(`${GROUP_SIZE} members`, { exact: true }).waitFor();
      await members.getByText(seededName(0), { exact: true }).waitFor({ state: 'detached' });
      await ui.screenshots('group-large', { fullPage: false });
    });
    assertNoWholeList(asked);
  } finally {
    page.off('request', onRequest);
  }
  const changes = posted.filter((p) => /group|lists\/members/.test(p.path));
  assert.equal(changes.length, 2, JSON.stringify(changes));
  for (const c of changes) assert.ok(c.body.length < 500, `one member is sent, not the group: ${c.path} ${c.body.length} bytes`);

  const members = await apiCall<Array<{ xchan: string }>>(hub, 'alice', '/api/z/1.0/group_members', { group_id: String(gid) }, 'GET');
  const hashes = new Set(members.map((m) => m.xchan));
  assert.equal(hashes.size, GROUP_SIZE);
  assert.ok(hashes.has(seededHash(500)) && !hashes.has(seededHash(0)) && hashes.has(seededHash(1)));
});
