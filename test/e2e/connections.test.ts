import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { addressOf, apiCall, connect, connectionId, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol', 'dave'] });
  // alice approves followers by hand (Settings): connecting with her is a request she answers.
  await apiCall(hub, 'alice', '/api/account/settings', { protected: '1' });
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

test('connecting another local channel by its address and seeing what it may do', async () => {
  const { page } = ui;
  await page.goto('/connections');
  await page.getByText('No connections yet.').waitFor();
  await page.getByLabel('Connect with').fill(addressOf(hub, 'bob'));
  await page.getByRole('button', { name: 'Connect' }).click();
  const row = page.getByRole('list', { name: 'Your connections' }).getByRole('link', { name: /Bob/ });
  await row.getByText(addressOf(hub, 'bob')).waitFor();
  await ui.screenshot('connections');

  await row.click();
  await page.getByRole('heading', { name: 'Bob', exact: true }).waitFor();
  await page.getByText(addressOf(hub, 'bob')).waitFor();
  await page.getByLabel('Comment on and like your posts').waitFor();
  await ui.screenshot('connection');
});

/** Whether bob's reply to alice's post is taken (200) or refused (403), as his app would see it. */
async function bobReplies(postId: number): Promise<number> {
  const res = await hub.request('/api/statuses/update.json', { as: 'bob', method: 'POST', body: new URLSearchParams({ status: 'A word from Bob', in_reply_to_status_id: String(postId) }) });
  return res.status;
}

test('a connection page shows only what Hearth lets a connection do, in plain words, and changing it works', async () => {
  const { page } = ui;
  await connect(hub, 'bob', 'alice');
  const post = await postStatus(hub, 'alice', 'Comments welcome?');
  const abookId = await connectionId(hub, 'alice', 'bob');
  await page.goto(`/connections/${abookId}`);
  const section = page.getByRole('region', { name: 'What Bob may do' });
  const comments = section.getByLabel('Comment on and like your posts');
  await comments.waitFor();
  // Hubzilla's permissions for features Hearth does not have are not offered.
  for (const gone of ['Manage my channel', 'web pages', 'wikis', 'Chat with me', 'Post on my wall', 'Republish']) assert.equal(await page.getByText(gone).count(), 0, gone);
  assert.equal(await section.getByRole('checkbox').count(), 1);
  // While anyone who sees her posts may comment, there is nothing to decide per connection.
  assert.equal(await comments.isDisabled(), true);
  assert.equal(await comments.isChecked(), true);
  await section.getByText('Anyone who can see your posts may comment on and like them, Bob too.', { exact: false }).waitFor();
  await ui.screenshots('connection-permissions-anyone', { fullPage: false });

  // Only her connections, as she allows each.
  await apiCall(hub, 'alice', '/api/account/settings', { comment_policy: 'connections' });
  await page.reload();
  await comments.and(page.locator(':enabled')).waitFor();
  assert.equal(await comments.isChecked(), true, 'connections may comment by default');
  await comments.uncheck();
  // Saved once the box can be used again.
  await comments.and(page.locator(':enabled:not(:checked)')).waitFor();
  assert.equal(await bobReplies(post.id), 403, 'bob may no longer comment');
  await ui.screenshots('connection-permissions', { fullPage: false });
  await comments.check();
  await comments.and(page.locator(':enabled:checked')).waitFor();
  assert.equal(await bobReplies(post.id), 200, 'bob may comment again');
  await apiCall(hub, 'alice', '/api/account/settings', { comment_policy: 'anyone' });

  // What is not shown keeps safe values: nobody manages the channel or writes its files but alice.
  const perms = await apiCall<PermAllowed[]>(hub, 'alice', '/api/z/1.0/perm_allowed', { abook_id: abookId }, 'GET');
  for (const perm of ['delegate', 'write_storage', 'write_pages', 'write_wiki']) assert.equal(Boolean(perms.find((p) => p.perm === perm)?.allowed), false, perm);
});

interface AbookRow {
  abook_id: string;
  abook_pending: string;
  abook_ignored: string;
  xchan_addr: string;
}

async function requestFrom(nick: string): Promise<AbookRow> {
  const rows = await apiCall<AbookRow[]>(hub, 'alice', '/api/z/1.0/abook', {}, 'GET');
  return rows.find((r) => r.xchan_addr === addressOf(hub, nick))!;
}

test('a connection request is accepted from its notification', async () => {
  const { page } = ui;
  await connect(hub, 'carol', 'alice');
  await page.goto('/notifications');
  const row = page.getByRole('listitem').filter({ hasText: 'Carol' });
  await row.getByText('Carol wants to connect with you').waitFor();
  const answer = row.getByRole('group', { name: 'Connection request from Carol' });
  await answer.getByRole('button', { name: 'Ignore' }).waitFor();
  await ui.screenshots('notification-connection-request', { fullPage: false });
  await answer.getByRole('button', { name: 'Accept' }).click();
  await answer.waitFor({ state: 'detached' });
  await row.getByText('Carol follows you now: you accepted their request').waitFor();
  assert.equal((await requestFrom('carol')).abook_pending, '0', 'carol is connected');
  assert.equal(await row.getAttribute('class').then((c) => c?.includes('notification-unseen')), false, 'the notification is seen');
});

test('a connection request is ignored, then accepted, from the connection\'s page', async () => {
  const { page } = ui;
  await connect(hub, 'dave', 'alice');
  await page.goto('/notifications');
  await page.getByRole('button', { name: /Dave wants to connect with you/ }).click();
  const request = await requestFrom('dave');
  await page.waitForURL(`**/connections/${request.abook_id}`);
  const card = page.getByRole('region', { name: 'Connection request' });
  await card.getByText('Dave wants to connect with you.').waitFor();
  await card.getByRole('button', { name: 'Ignore' }).click();
  await card.getByText('You ignored the request of Dave to connect. You can still accept it.').waitFor();
  assert.equal((await requestFrom('dave')).abook_ignored, '1');
  assert.equal((await requestFrom('dave')).abook_pending, '1', 'dave gets no access');
  await ui.screenshots('connection-request-ignored', { fullPage: false });

  await page.goto('/connections');
  await page.getByRole('link', { name: /Dave/ }).getByText('Ignored').waitFor();
  await page.getByRole('link', { name: /Dave/ }).click();
  await card.getByRole('button', { name: 'Accept' }).click();
  await card.waitFor({ state: 'detached' });
  assert.equal((await requestFrom('dave')).abook_pending, '0', 'accepted in the end');
});
