import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connectMutually } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

// Markdown as a first-class format: the format chosen is remembered (BBCode does not come back
// after every post), and comments and messages are written in the same formats as posts.

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connectMutually(hub, 'alice', ['bob']);
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('Markdown chosen once stays chosen for the next post, after a reload too, and for comments', async () => {
  const { page } = ui;
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  const format = composer.getByLabel('Format', { exact: true });
  // The composer is one line until the owner clicks into it.
  await composer.getByLabel('Message').click();
  await format.selectOption('text/markdown');
  await composer.getByLabel('Message').fill('Soup is **ready**');
  await composer.getByRole('button', { name: 'Post' }).click();
  const post = page.getByRole('article').filter({ hasText: 'Soup is ready' });
  await post.locator('.post-content strong', { hasText: 'ready' }).waitFor();
  assert.equal(await format.inputValue(), 'text/markdown', 'the next post starts in Markdown');

  await page.reload();
  await composer.getByLabel('Message').waitFor();
  assert.equal(await format.inputValue(), 'text/markdown', 'remembered after a reload');

  const commentBox = post.getByRole('textbox', { name: 'Write a comment' });
  await commentBox.fill('With **bread**, and `butter`');
  assert.equal(await post.getByLabel('Format', { exact: true }).inputValue(), 'text/markdown', 'the comment is written in the same format');
  await ui.screenshots('comment-markdown-writing');
  await post.getByRole('button', { name: 'Comment' }).click();
  const comment = post.getByRole('listitem', { name: 'Comment by Alice' });
  await comment.locator('strong', { hasText: 'bread' }).waitFor();
  await comment.locator('code', { hasText: 'butter' }).waitFor();
  assert.equal(await comment.getByText('**bread**').count(), 0, 'no stars shown');
  await ui.screenshots('comment-markdown');

  // Bob sees the comment formatted too, through the API any client uses.
  const thread = await apiCall<Array<{ statusnet_html: string }>>(hub, 'bob', '/api/statuses/home_timeline.json', {}, 'GET');
  assert.ok(thread.some((s) => /With <strong>bread<\/strong>, and <code>butter<\/code>/.test(s.statusnet_html)));
});

test('a message is written in the format chosen, and shown so', async () => {
  const { page } = ui;
  await page.goto('/messages/bob');
  const form = page.getByRole('form', { name: 'Write a message' });
  const format = form.getByLabel('Format', { exact: true });
  await format.waitFor();
  assert.equal(await format.inputValue(), 'text/markdown', 'the format chosen for posts');
  await form.getByRole('textbox').fill('Meet at **noon**?\n\n- bring a map');
  await form.getByRole('button', { name: 'Send' }).click();
  const sent = page.getByRole('listitem', { name: 'You, message' }).last();
  await sent.locator('strong', { hasText: 'noon' }).waitFor();
  await sent.locator('li', { hasText: 'bring a map' }).waitFor();
  assert.equal(await sent.getByText('**noon**').count(), 0);
  await ui.screenshots('message-markdown', { fullPage: false });

  await format.selectOption('text/bbcode');
  await form.getByRole('textbox').fill('[i]See you[/i]');
  await form.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('listitem', { name: 'You, message' }).last().getByText('See you', { exact: true }).waitFor();
  await page.goto('/');
  assert.equal(await page.getByRole('form', { name: 'New post' }).getByLabel('Format', { exact: true }).inputValue(), 'text/bbcode', 'one choice for posts, comments and messages');
});
