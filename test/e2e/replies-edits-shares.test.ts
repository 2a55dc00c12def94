import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connectMutually, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

// Issue 19, missing features: replying to a comment, editing one's own comment, and sharing
// (boosting) a post, done in the UI as a user does, and checked through the APIs other clients read.

interface Status {
  id: number;
  text: string;
  in_reply_to_status_id: number | null;
  retweeted?: boolean;
  retweet_count?: number;
  retweeted_status?: Status;
  user: { screen_name: string };
}

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob', 'carol'] });
  await connectMutually(hub, 'alice', ['bob', 'carol']);
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

/** The whole thread (conversation/show gives only direct answers). */
const conversation = (as: string, id: number) => apiCall<Status[]>(hub, as, '/api/statuses/show.json', { id: String(id), conversation: '1', count: '100' }, 'GET');

test('replying to a comment nests the reply under it; editing a comment changes it for everyone', async () => {
  const { page } = ui;
  const post = await postStatus(hub, 'bob', 'Dinner at eight on Friday?');
  await page.goto('/');
  const card = page.getByRole('article').filter({ hasText: 'Dinner at eight on Friday?' });
  await card.getByLabel('Write a comment').fill('Count me in');
  await card.getByRole('button', { name: 'Comment', exact: true }).click();
  await card.getByRole('listitem', { name: 'Comment by Alice' }).waitFor();
  const [aliceComment] = (await conversation('bob', post.id)).filter((s) => s.text === 'Count me in');
  assert.ok(aliceComment, 'the comment reached the hub');
  assert.equal(aliceComment.in_reply_to_status_id, post.id);
  const mine = card.locator(`li[data-status-id="${aliceComment.id}"]`);

  // Bob answers Alice's comment from another client; Alice answers him in the UI.
  const bobReply = await postStatus(hub, 'bob', 'Great, bring bread', { in_reply_to_status_id: String(aliceComment.id) });
  await page.reload();
  const repliesToAlice = card.getByRole('list', { name: 'Replies to Alice' });
  await repliesToAlice.getByText('Great, bring bread').waitFor();
  const bobsComment = repliesToAlice.getByRole('listitem', { name: 'Comment by Bob' });
  assert.equal(await bobsComment.getByRole('button', { name: 'Edit' }).count(), 0, "no Edit on another channel's comment");
  await bobsComment.getByRole('button', { name: 'Reply' }).click();
  const replyForm = bobsComment.getByRole('form', { name: 'Reply to Bob' });
  await replyForm.getByLabel('Reply to Bob').fill('Sourdough it is');
  await replyForm.getByRole('button', { name: 'Reply' }).click();
  await card.getByRole('list', { name: 'Replies to Bob' }).getByText('Sourdough it is').waitFor();
  await ui.screenshots('comment-replies');

  let thread = await conversation('bob', post.id);
  const answer = thread.find((s) => s.text === 'Sourdough it is');
  assert.equal(answer?.in_reply_to_status_id, bobReply.id, "Alice's answer replies to Bob's comment");

  // Alice corrects her first comment.
  const ownBar = mine.locator(':scope > .thread-bar');
  await ownBar.getByRole('button', { name: 'Edit' }).click();
  const editor = mine.getByRole('form', { name: 'Edit comment' });
  await editor.getByLabel('Comment text').fill('Count me in, I will bring wine');
  await ui.screenshots('comment-edit');
  await editor.getByRole('button', { name: 'Save' }).click();
  // The comment as shown (the editor's box holds the same words until it closes).
  await mine.locator(':scope > .post .post-content', { hasText: 'Count me in, I will bring wine' }).waitFor();
  assert.equal(await mine.getByRole('form', { name: 'Edit comment' }).count(), 0, 'the editor closes');
  thread = await conversation('bob', post.id);
  const edited = thread.find((s) => s.id === aliceComment.id);
  assert.equal(edited?.text, 'Count me in, I will bring wine', 'other clients read the edit');
  assert.equal(edited?.in_reply_to_status_id, post.id, 'still a comment on the post');
  assert.equal(thread.find((s) => s.id === bobReply.id)?.in_reply_to_status_id, aliceComment.id, 'the reply to it stays attached');
  await card.getByRole('list', { name: 'Replies to Alice' }).getByText('Great, bring bread').waitFor();

  // Bob's comment cannot be edited by Alice through the API either.
  const res = await hub.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: new URLSearchParams({ post_id: String(bobReply.id), body: 'hijacked' }) });
  assert.equal(res.status, 404);
  await res.text();
  assert.equal((await conversation('bob', post.id)).find((s) => s.id === bobReply.id)?.text, 'Great, bring bread');

  // Who liked a comment: each name leads to the channel's page.
  await apiCall(hub, 'bob', '/api/ext/activity/like', { id: String(aliceComment.id) });
  await page.reload();
  await mine.locator(':scope > .thread-bar .reaction-who').getByRole('link', { name: 'Bob' }).click();
  await page.waitForURL(/\/channel\/bob$/);
  await page.getByRole('heading', { name: 'Bob', level: 1 }).waitFor();
});

test('sharing a post shows it to the sharer\'s followers, tells its author, and can be undone', async () => {
  const { page } = ui;
  const original = await postStatus(hub, 'bob', 'Look at this sunset over the bay');
  await apiCall(hub, 'bob', '/api/z/1.0/item/update', { body: 'Only for my friends', 'contact_allow[]': hub.channels.alice!.channel_hash });

  await page.goto('/');
  const card = page.getByRole('article', { name: 'Post by Bob' }).filter({ hasText: 'Look at this sunset over the bay' });
  const shareButton = card.getByRole('button', { name: /^Share/ });
  assert.equal(await shareButton.getAttribute('aria-pressed'), 'false');
  await shareButton.click();
  await card.getByRole('button', { name: /^Shared/ }).waitFor();
  assert.equal(await card.getByRole('button', { name: /^Shared/ }).getAttribute('aria-pressed'), 'true');
  assert.match(await card.getByRole('button', { name: /^Shared/ }).innerText(), /1/);

  const privateCard = page.getByRole('article').filter({ hasText: 'Only for my friends' });
  await privateCard.waitFor();
  assert.equal(await privateCard.getByRole('button', { name: /^Share/ }).count(), 0, 'a private post offers no share');

  // Carol follows Alice: the share reaches her timeline; Bob is told.
  const carols = await apiCall<Status[]>(hub, 'carol', '/api/statuses/home_timeline.json', {}, 'GET');
  const reshared = carols.find((s) => s.retweeted_status?.id === original.id);
  assert.equal(reshared?.user.screen_name, 'alice');
  const bobsNews = await apiCall<Array<{ msg_plain?: string; msg?: string }>>(hub, 'bob', '/api/ext/notifications', {}, 'GET');
  assert.ok(bobsNews.some((n) => /Alice shared your post/.test(n.msg_plain ?? n.msg ?? '')), 'the author is notified');

  // The share and the original are one card, saying who shared it.
  await page.reload();
  const shareCard = page.getByRole('article', { name: 'Post by Bob, shared by you' }).filter({ hasText: 'Look at this sunset over the bay' });
  await shareCard.getByText('You shared').waitFor();
  assert.equal(await page.getByRole('article').filter({ hasText: 'Look at this sunset over the bay' }).count(), 1, 'shown once');
  await ui.screenshots('share');

  // Undone from that card: the post stays, no longer shared.
  await shareCard.getByRole('button', { name: /^Shared/ }).click();
  const plain = page.getByRole('article', { name: 'Post by Bob', exact: true }).filter({ hasText: 'Look at this sunset over the bay' });
  await plain.getByRole('button', { name: /^Share/ }).and(page.locator('[aria-pressed="false"]')).waitFor();
  assert.equal(await plain.getByText('You shared').count(), 0);
  const after = await apiCall<Status>(hub, 'alice', '/api/statuses/show.json', { id: String(original.id) }, 'GET');
  assert.equal(after.retweeted, false);
  assert.equal(after.retweet_count, 0);
  assert.ok(!(await apiCall<Status[]>(hub, 'carol', '/api/statuses/home_timeline.json', {}, 'GET')).some((s) => s.retweeted_status?.id === original.id), "gone from Carol's timeline");
});
