import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';
import { DESKTOP, openUi, PHONE, SCREENSHOTS, type Ui } from '../helpers/ui.js';

/**
 * Two Hearth hubs that federate (two data folders, two ports, HEARTH_FEDERATION_INSECURE=1 for
 * their http addresses on 127.0.0.1), each used by its owner in a browser of their own: alice on
 * hub A finds bob on hub B by his address and follows him; bob sees the new follower and follows
 * back; alice posts, bob sees the post with where it comes from, replies and likes it; alice sees
 * both. Everything goes through the UI and the two hubs' inboxes, nothing through shortcuts.
 */
let hubA: TestHub;
let hubB: TestHub;
let alice: Ui;
let bob: Ui;
const addressOf = (t: TestHub, nick: string) => `${nick}@${new URL(t.url).host}`;

before(async () => {
  hubA = await startFederatingHub(['alice']);
  hubB = await startFederatingHub(['bob']);
  alice = await openUi(hubA, { as: 'alice' });
  bob = await openUi(hubB, { as: 'bob' });
});

after(async () => {
  await alice?.close();
  await bob?.close();
  await hubA?.stop();
  await hubB?.stop();
});

/**
 * Screenshots of one part of the screen at desktop (<name>.png) and phone width (<name>-phone.png),
 * without the fixed top bar and bottom navigation over it.
 */
async function partShots(ui: Ui, part: Locator, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const before = ui.page.viewportSize() ?? DESKTOP;
  try {
    for (const [size, suffix] of [[DESKTOP, ''], [PHONE, '-phone']] as const) {
      await ui.page.setViewportSize(size);
      await ui.page.waitForLoadState('networkidle').catch(() => undefined);
      await part.screenshot({ path: join(SCREENSHOTS, `${name}${suffix}.png`), style: '.topbar, .nav { visibility: hidden; }' });
    }
  } finally {
    await ui.page.setViewportSize(before);
  }
}

/** The thread card of a post in a stream, looked for (reloading) until the federation brought it. */
async function cardOf(ui: Ui, text: string, timeoutMs = 15_000) {
  const card = ui.page.getByRole('article').filter({ hasText: text });
  const end = Date.now() + timeoutMs;
  for (;;) {
    await ui.page.goto('/');
    try {
      await card.waitFor({ timeout: 1500 });
      return card;
    } catch (err) {
      if (Date.now() > end) throw err;
    }
  }
}

test('Settings → Federation on a federating hub: on and running, at its fixed address', async () => {
  const { page } = alice;
  await page.goto('/settings/federation');
  const section = page.getByRole('region', { name: 'Federation' });
  await section.getByText('Federation is on: people on Mastodon and other ActivityPub servers can find and follow your channels.').waitFor();
  assert.equal(await section.locator('.copy-field').filter({ hasText: 'Public address' }).locator('code').textContent(), hubA.url);
  assert.equal(await section.locator('.copy-field').filter({ hasText: "Your channel's address elsewhere" }).locator('code').textContent(), `@${addressOf(hubA, 'alice')}`);
  await section.getByRole('button', { name: 'Turn federation off' }).waitFor();
  await section.getByText('Anyone, here or elsewhere, can follow your channel at once.').waitFor();
  await partShots(alice, section, 'federation-0-settings');
});

test('alice finds bob on the other hub from the search box and follows him; bob sees his new follower and follows back', async () => {
  const bobAddress = addressOf(hubB, 'bob');
  const aliceAddress = addressOf(hubA, 'alice');

  // Hub A: the search box of the top bar takes an address.
  await alice.page.goto('/');
  const box = alice.page.getByRole('search').first().getByLabel('Search posts');
  await box.fill(bobAddress);
  await box.press('Enter');
  const people = alice.page.getByRole('list', { name: 'People' });
  const row = people.getByRole('listitem').filter({ hasText: `@${bobAddress}` });
  await row.getByText('Bob', { exact: true }).waitFor();
  const you = row.getByRole('group', { name: 'You and Bob' });
  await you.getByRole('button', { name: 'Follow', exact: true }).waitFor();
  await alice.screenshots('federation-1-search-by-address');
  await you.getByRole('button', { name: 'Follow', exact: true }).click();
  // A request until hub B's Accept arrives (bob takes followers at once), then a follow.
  await you.getByText('Following', { exact: true }).waitFor({ timeout: 15_000 });
  await alice.screenshots('federation-2-following');

  // Hub B: the notification of the new follower leads to her, where bob follows back.
  await bob.page.goto('/notifications');
  const note = bob.page.getByRole('list', { name: 'Notifications' }).getByRole('button', { name: /Alice/ });
  await note.waitFor();
  await bob.screenshots('federation-3-follower-notification');
  await note.click();
  await bob.page.getByText(aliceAddress, { exact: true }).waitFor();
  await bob.page.getByText('Follows you').waitFor();
  await bob.screenshots('federation-4-follower');
  await bob.page.getByRole('button', { name: 'Connect back' }).click();
  await bob.page.getByRole('button', { name: 'Disconnect' }).waitFor();

  // Her profile on hub B: who she is, where, and that they follow each other.
  await bob.page.goto(`/channel/${encodeURIComponent(aliceAddress)}`);
  const profile = bob.page.getByRole('region', { name: 'Channel' });
  await profile.getByRole('heading', { name: 'Alice' }).waitFor();
  await profile.getByText(`@${aliceAddress}`).waitFor();
  const both = profile.getByRole('group', { name: 'You and Alice' });
  await both.getByText('Follows you').waitFor();
  await both.getByText('Following', { exact: true }).waitFor({ timeout: 15_000 });
  assert.equal(await profile.getByRole('link', { name: `Their profile on ${new URL(hubA.url).host}` }).getAttribute('href'), `${hubA.url}/channel/alice`);
  await bob.screenshots('federation-5-remote-profile');

  // And on hub A, bob follows alice back.
  await alice.page.goto(`/channel/${encodeURIComponent(bobAddress)}`);
  await alice.page.getByRole('group', { name: 'You and Bob' }).getByText('Follows you').waitFor();
});

test('alice posts; bob sees it in his stream with where it comes from, replies and likes it; alice sees the reply and the like', async () => {
  const aliceAddress = addressOf(hubA, 'alice');
  const { page } = alice;
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByLabel('Title').fill('Across the hubs');
  await composer.getByLabel('Message').fill('Hello from hub A, [b]bob[/b]!');
  await composer.getByRole('button', { name: 'Post' }).click();
  await page.getByRole('article').filter({ hasText: 'Across the hubs' }).waitFor();

  // Hub B: the post arrived through bob's inbox.
  const card = await cardOf(bob, 'Across the hubs');
  await card.getByText(`@${aliceAddress}`).waitFor();
  const original = card.getByRole('link', { name: `Original on ${new URL(hubA.url).host}` });
  assert.match((await original.getAttribute('href')) ?? '', new RegExp(`^${hubA.url}/`), 'the link leads to the post on hub A');
  await card.locator('.post-content').getByText('bob', { exact: true }).waitFor();
  await partShots(bob, card, 'federation-6-remote-post');

  await card.getByRole('button', { name: 'Like', exact: true }).click();
  await card.getByRole('button', { name: /^Liked/ }).waitFor();
  await card.getByLabel('Write a comment').fill('Hello back from hub B!');
  await card.getByRole('button', { name: 'Comment', exact: true }).click();
  await card.getByRole('listitem', { name: 'Comment by Bob' }).waitFor();
  await partShots(bob, card, 'federation-7-replied-and-liked');

  // Her profile on hub B lists the posts of hers that hub B has.
  await bob.page.goto(`/channel/${encodeURIComponent(aliceAddress)}`);
  await bob.page.getByRole('region', { name: 'Posts by Alice' }).getByRole('article').filter({ hasText: 'Across the hubs' }).waitFor();
  await partShots(bob, bob.page.locator('main'), 'federation-7b-remote-profile-posts');

  // Hub A: the reply under her post, from bob@hub B, and the like among her notifications.
  const mine = await cardOf(alice, 'Across the hubs');
  const reply = mine.getByRole('listitem', { name: 'Comment by Bob' });
  await reply.getByText('Hello back from hub B!').waitFor();
  await reply.getByText(`@${addressOf(hubB, 'bob')}`).waitFor();
  await mine.getByText(/Liked by/).getByText('Bob').waitFor();
  await partShots(alice, mine, 'federation-8-reply-arrived');
  await page.goto('/notifications');
  const notes = page.getByRole('list', { name: 'Notifications' });
  await notes.getByRole('button', { name: /Bob likes your post/ }).waitFor();
  await notes.getByRole('button', { name: /Bob commented on your post/ }).waitFor();
  await alice.screenshots('federation-9-notifications');
});

test('a connection on the other hub joins one of alice\'s privacy groups, and a post for that group reaches him', async () => {
  const bobAddress = addressOf(hubB, 'bob');
  const { page } = alice;
  await page.goto('/groups');
  await page.getByLabel('New group').fill('Elsewhere');
  await page.getByRole('button', { name: 'Create group' }).click();
  await page.getByRole('heading', { name: 'Elsewhere' }).waitFor();
  await page.getByLabel('Add a connection').selectOption({ label: `Bob (${bobAddress})` });
  await page.getByRole('button', { name: 'Add to group' }).click();
  const members = page.getByRole('list', { name: 'Members' });
  await members.getByText(bobAddress).waitFor();
  await alice.screenshots('federation-10-remote-group-member');

  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByLabel('Message').fill('Only for the Elsewhere group');
  await composer.getByRole('button', { name: /Audience: Public/ }).click();
  await composer.getByLabel('Only the groups and people I choose').check();
  await composer.getByLabel('Elsewhere').check();
  await composer.getByRole('button', { name: 'Done' }).click();
  await composer.getByRole('button', { name: 'Post' }).click();
  await page.getByRole('article').filter({ hasText: 'Only for the Elsewhere group' }).getByText('Visible to: Elsewhere').waitFor();

  const card = await cardOf(bob, 'Only for the Elsewhere group');
  await card.getByText(`@${addressOf(hubA, 'alice')}`).waitFor();
  await partShots(bob, card, 'federation-11-group-post-arrived');
});
