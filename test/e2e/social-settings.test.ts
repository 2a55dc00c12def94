import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { addressOf, apiCall } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

/**
 * The two social settings in Settings → Followers and comments, and the composer's "Allow
 * comments", used as a person would; others (bob, carol) act through the APIs their apps use.
 */
let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

interface User {
  following: boolean;
  follow_request_sent: boolean;
  protected: boolean;
}

const follow = (from: string, to: string) => apiCall<User>(hub, from, '/api/friendships/create', { screen_name: addressOf(hub, to) });
const userSeenBy = (as: string, nick: string) => apiCall<User>(hub, as, '/api/users/show', { screen_name: nick }, 'GET');

async function openSettings() {
  const { page } = ui;
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Followers and comments' });
  await section.getByLabel('Approve followers by hand').waitFor();
  return section;
}

/** Saves the section and waits for the hub's confirmation, which it then dismisses (so that the next one is new). */
async function save(section: Awaited<ReturnType<typeof openSettings>>) {
  const { page } = ui;
  await section.getByRole('button', { name: 'Save' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Your settings for followers and comments were saved.' });
  await notice.waitFor();
  await notice.getByRole('button', { name: 'Dismiss message' }).click();
  await notice.waitFor({ state: 'detached' });
}

/** A reply by `as` to post `id` through the microblog API: the HTTP status. */
async function replyStatus(as: string, id: number): Promise<number> {
  const res = await hub.request('/api/statuses/update.json', { as, method: 'POST', body: new URLSearchParams({ status: `${as} answers`, in_reply_to_status_id: String(id) }) });
  return res.status;
}

test('approving followers by hand: off by default; on, follows become requests to answer; off again, follows are accepted at once', async () => {
  const { page } = ui;
  let section = await openSettings();
  const approve = section.getByLabel('Approve followers by hand');
  assert.equal(await approve.isChecked(), false, 'off by default, as on Mastodon');
  await section.getByText('Anyone can follow you at once.').waitFor();

  await approve.check();
  await section.getByText('Someone who wants to follow you asks first; you accept or ignore them under Connections.').waitFor();
  await ui.screenshots('settings-followers-and-comments', { fullPage: false });
  await save(section);
  assert.equal((await userSeenBy('bob', 'alice')).protected, true, 'apps see alice as protected (locked)');
  const locked = await hub.request('/api/v1/accounts/lookup?acct=alice');
  assert.equal((await locked.json()).locked, true);

  const asked = await follow('bob', 'alice');
  assert.deepEqual([asked.following, asked.follow_request_sent], [false, true], 'bob asks');
  await page.goto('/notifications');
  const answer = page.getByRole('group', { name: 'Connection request from Bob' });
  await answer.getByRole('button', { name: 'Accept' }).click();
  await answer.waitFor({ state: 'detached' });
  assert.equal((await userSeenBy('bob', 'alice')).following, true, 'bob follows alice once she accepted');
  assert.equal((await userSeenBy('alice', 'bob')).following, false, 'accepting is not following back');

  section = await openSettings();
  assert.equal(await section.getByLabel('Approve followers by hand').isChecked(), true, 'the setting was kept');
  await section.getByLabel('Approve followers by hand').uncheck();
  await save(section);
  const followed = await follow('carol', 'alice');
  assert.deepEqual([followed.following, followed.follow_request_sent, followed.protected], [true, false, false], 'carol follows alice at once');

  // alice sees her new follower among her connections and follows her back from there.
  await page.goto('/connections');
  const carol = page.getByRole('list', { name: 'Your connections' }).getByRole('link', { name: /Carol/ });
  await carol.getByText('Follows you').waitFor();
  await carol.click();
  await page.getByRole('button', { name: 'Connect back' }).waitFor();
  await ui.screenshots('connection-follows-you', { fullPage: false });
  await page.getByRole('button', { name: 'Connect back' }).click();
  await page.getByRole('button', { name: 'Disconnect' }).waitFor();
  assert.equal((await userSeenBy('alice', 'carol')).following, true);
});

test('who may comment on my posts: anyone who sees them, only connections, nobody', async () => {
  const { page } = ui;
  const post = await apiCall<{ id: number }>(hub, 'alice', '/api/statuses/update', { status: 'Who wants to comment?' });
  // carol is a connection of alice's (they follow each other); bob stopped following alice and
  // she never followed him, so he is no connection.
  await apiCall(hub, 'bob', '/api/friendships/destroy', { screen_name: addressOf(hub, 'alice') });

  let section = await openSettings();
  const choice = (label: string) => section.getByRole('group', { name: 'Who may comment on and like my posts' }).getByLabel(label);
  assert.equal(await choice('Anyone who can see them').isChecked(), true, 'anyone by default');
  assert.equal(await replyStatus('bob', post.id), 200);

  await choice('Only my connections').check();
  await save(section);
  await ui.screenshots('settings-comments-connections', { fullPage: false });
  assert.equal(await replyStatus('bob', post.id), 403, 'bob is no connection of alice');
  assert.equal(await replyStatus('carol', post.id), 200, 'carol is');

  section = await openSettings();
  assert.equal(await choice('Only my connections').isChecked(), true, 'the choice was kept');
  await choice('Nobody').check();
  await save(section);
  assert.equal(await replyStatus('carol', post.id), 403);
  const like = await hub.request('/api/ext/activity/like.json', { as: 'carol', method: 'POST', body: new URLSearchParams({ id: String(post.id) }) });
  assert.equal(like.status, 400, 'no likes either');

  await choice('Anyone who can see them').check();
  await save(section);
  assert.equal(await replyStatus('bob', post.id), 200);
});

test('closing the comments of one post from the composer', async () => {
  const { page } = ui;
  await page.goto('/stream');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByLabel('Message').fill('No comments on this one, please');
  const allow = composer.getByLabel('Allow comments');
  assert.equal(await allow.isChecked(), true, 'comments are open unless closed');
  await allow.uncheck();
  await ui.screenshots('composer-comments-closed', { fullPage: false });
  await composer.getByRole('button', { name: 'Post' }).click();
  await page.getByRole('article').filter({ hasText: 'No comments on this one, please' }).waitFor();
  assert.equal(await allow.isChecked(), true, 'the next post is open again');

  const timeline = await apiCall<{ id: number; text: string }[]>(hub, 'bob', '/api/statuses/user_timeline', { screen_name: 'alice' }, 'GET');
  const closed = timeline.find((s) => s.text.includes('No comments on this one'))!;
  assert.equal(await replyStatus('bob', closed.id), 403);
  const open = timeline.find((s) => s.text.includes('Who wants to comment?'))!;
  assert.equal(await replyStatus('bob', open.id), 200, 'her other posts stay open');
});
