import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { addressOf, apiCall } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

/**
 * A connection request seen from both sides: alice asks bob, who approves followers by hand. She
 * sees her request waiting (Requested) wherever bob shows, until he accepts it in his own window;
 * his notification then says that she follows him now.
 */

let hub: TestHub;
let alice: Ui;
let bob: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  await apiCall(hub, 'bob', '/api/account/settings', { protected: '1' });
  alice = await openUi(hub, { as: 'alice' });
  bob = await openUi(hub, { as: 'bob' });
});

after(async () => {
  await alice?.close();
  await bob?.close();
  await hub?.stop();
});

test('a request sent shows as Requested on the connections, the connection, the profile and in search, until it is accepted', async () => {
  const { page } = alice;
  await page.goto('/connections');
  await page.getByText('No connections yet.').waitFor();
  await page.getByLabel('Connect with').fill('bob');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByText('Bob approves followers by hand: your request waits for their answer.').waitFor();
  const row = page.getByRole('list', { name: 'Your connections' }).getByRole('link', { name: /Bob/ });
  await row.getByText('Requested', { exact: true }).waitFor();
  assert.equal(await row.getByText('Following', { exact: true }).count(), 0, 'no ordinary connection yet');
  await alice.screenshots('request-sent-connections', { fullPage: false });

  await row.click();
  const you = page.getByLabel('You and Bob');
  await you.getByText('Requested', { exact: true }).waitFor();
  await page.getByRole('status').filter({ hasText: 'You follow Bob once they accept your request: they approve followers by hand.' }).waitFor();
  await page.getByRole('button', { name: 'Cancel request' }).waitFor();
  await alice.screenshots('request-sent-connection', { fullPage: false });

  await page.goto('/channel/bob');
  await page.getByRole('group', { name: 'You and Bob' }).getByText('Requested', { exact: true }).waitFor();
  await page.goto(`/search?q=${encodeURIComponent(addressOf(hub, 'bob'))}`);
  const found = page.getByRole('list', { name: 'People' }).getByRole('listitem').filter({ hasText: 'Bob' });
  await found.getByRole('group', { name: 'You and Bob' }).getByText('Requested', { exact: true }).waitFor();
  await found.getByRole('button', { name: 'Cancel request' }).waitFor();
  await alice.screenshots('request-sent-search', { fullPage: false });

  // Alice waits on the connection's page while bob answers in his window.
  await page.goto('/connections');
  await row.click();
  await you.getByText('Requested', { exact: true }).waitFor();

  await bob.page.goto('/notifications');
  const note = bob.page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'Alice' });
  await note.getByText('Alice wants to connect with you').waitFor();
  await note.getByRole('group', { name: 'Connection request from Alice' }).getByRole('button', { name: 'Accept' }).click();
  await note.getByText('Alice follows you now: you accepted their request').waitFor();
  assert.equal(await note.getByText('wants to connect').count(), 0, 'the request no longer asks');
  await bob.screenshots('request-accepted-notification', { fullPage: false });

  await you.getByText('Following', { exact: true }).waitFor();
  assert.equal(await you.getByText('Requested', { exact: true }).count(), 0);
  await page.getByRole('button', { name: 'Disconnect' }).waitFor();
  await alice.screenshots('request-accepted-connection', { fullPage: false });

  // On bob's side, alice is a follower he has not followed back.
  await bob.page.goto('/connections');
  const aliceRow = bob.page.getByRole('list', { name: 'Your connections' }).getByRole('link', { name: /Alice/ });
  await aliceRow.getByText('Follows you', { exact: true }).waitFor();
  assert.equal(await aliceRow.getByText('Wants to connect').count(), 0);
});

test('a request can be withdrawn from the connection page', async () => {
  await apiCall(hub, 'carol', '/api/account/settings', { protected: '1' });
  const { page } = bob;
  await page.goto('/connections');
  await page.getByLabel('Connect with').fill('carol');
  await page.getByRole('button', { name: 'Connect' }).click();
  const carolRow = page.getByRole('list', { name: 'Your connections' }).getByRole('link', { name: /Carol/ });
  await carolRow.getByText('Requested', { exact: true }).waitFor();
  await carolRow.click();
  await page.getByRole('button', { name: 'Cancel request' }).click();
  await page.getByText('Your request to Carol was withdrawn.').waitFor();
  await page.getByRole('list', { name: 'Your connections' }).getByRole('link', { name: /Alice/ }).waitFor();
  assert.equal(await carolRow.count(), 0, 'no request left, and carol does not follow bob');
  const asked = await apiCall<number[]>(hub, 'carol', '/api/friendships/incoming', {}, 'GET');
  assert.equal(asked.length, 0, 'carol has nothing to answer any more');
});
