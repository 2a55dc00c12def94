import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connectMutually } from '../helpers/ui-fixtures.js';
import { openUi, type Ui } from '../helpers/ui.js';

// Issue 19, missing feature: direct messages in the UI (conversations list, thread view, compose,
// unread count), on the microblog API's direct_messages, which other clients use as well.

interface DirectMessage {
  id: number;
  text: string;
  title: string;
  sender_screen_name: string;
  recipient_screen_name: string;
  friendica_seen: boolean;
  friendica_parent_uri: string;
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

const inbox = (as: string) => apiCall<DirectMessage[]>(hub, as, '/api/direct_messages.json', {}, 'GET');
const everything = (as: string) => apiCall<DirectMessage[]>(hub, as, '/api/direct_messages/all.json', {}, 'GET');

test('a message from Bob shows as unread, opens as a conversation, is marked read, and gets an answer', async () => {
  const { page } = ui;
  const sent = await apiCall<DirectMessage>(hub, 'bob', '/api/direct_messages/new.json', { screen_name: 'alice', title: 'Sunday', text: 'Are you free on Sunday? [b]Lunch[/b] at mine' });
  await page.goto('/');
  const envelope = page.getByRole('link', { name: 'Messages: 1 unread' });
  await envelope.waitFor();
  await envelope.click();
  await page.waitForURL(/\/messages$/);
  const line = page.getByRole('link', { name: 'Conversation with Bob, 1 unread' });
  await line.waitFor();
  assert.match(await line.innerText(), /Are you free on Sunday\? Lunch at mine/);
  await ui.screenshots('messages');

  await line.click();
  await page.waitForURL(/\/messages\/bob$/);
  const thread = page.getByRole('region', { name: 'Messages with Bob' });
  const received = thread.getByRole('listitem', { name: 'Bob, message' });
  const bold = received.getByText('Lunch', { exact: true });
  await bold.waitFor();
  assert.ok(Number(await bold.evaluate((el) => getComputedStyle(el).fontWeight)) >= 600, 'BBCode shown as formatting');
  await received.getByText('Sunday', { exact: true }).waitFor();
  await page.getByRole('link', { name: 'Messages: none unread' }).waitFor();
  assert.equal((await inbox('alice')).find((m) => m.id === sent.id)?.friendica_seen, true, 'read on the hub too');

  await thread.getByLabel('Message to Bob').fill('Yes! I will bring dessert');
  await thread.getByRole('button', { name: 'Send' }).click();
  await thread.getByRole('listitem', { name: 'You, message' }).getByText('Yes! I will bring dessert').waitFor();
  assert.equal(await thread.getByLabel('Message to Bob').inputValue(), '', 'the box empties once sent');
  await ui.screenshots('message-thread');

  const answer = (await inbox('bob')).find((m) => m.text === 'Yes! I will bring dessert');
  assert.equal(answer?.sender_screen_name, 'alice');
  assert.equal(answer?.friendica_parent_uri, sent.friendica_parent_uri, 'the answer continues the conversation');
  assert.equal(answer?.title, 'Sunday');
  assert.equal(answer?.friendica_seen, false, 'unread for Bob');
});

test('a new conversation with a connection reaches only them', async () => {
  const { page } = ui;
  await page.goto('/messages');
  const start = page.getByRole('form', { name: 'New message' });
  await start.getByLabel('Write to').selectOption({ label: `Carol (carol@${new URL(hub.url).host})` });
  await start.getByRole('button', { name: 'New message' }).click();
  await page.waitForURL(/\/messages\/carol$/);
  const thread = page.getByRole('region', { name: 'Messages with Carol' });
  await thread.getByText('No messages with Carol yet').waitFor();
  await thread.getByLabel('Message to Carol').fill('Hello Carol, a secret for you');
  await thread.getByRole('button', { name: 'Send' }).click();
  await thread.getByRole('listitem', { name: 'You, message' }).getByText('Hello Carol, a secret for you').waitFor();

  const carols = (await inbox('carol')).find((m) => m.text === 'Hello Carol, a secret for you');
  assert.equal(carols?.sender_screen_name, 'alice');
  // Bob sees nothing of it, even when he names the conversation.
  assert.ok(!(await everything('bob')).some((m) => m.text.includes('secret')));
  const res = await hub.request(`/api/direct_messages/conversation.json?uri=${encodeURIComponent(carols!.friendica_parent_uri)}`, { as: 'bob' });
  const body = await res.text();
  assert.ok(!body.includes('secret'), `Bob reads: ${res.status} ${body}`);

  await page.goto('/messages');
  await page.getByRole('link', { name: /^Conversation with Carol/ }).waitFor();
  assert.match(await page.getByRole('link', { name: /^Conversation with Carol/ }).innerText(), /You: Hello Carol/);

  // Deleting removes Alice's copy only.
  await page.getByRole('link', { name: /^Conversation with Carol/ }).click();
  await thread.getByRole('button', { name: /^Delete this message \(Hello Carol/ }).click();
  await ui.screenshots('message-delete', { fullPage: false });
  await page.getByRole('dialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
  await thread.getByText('No messages with Carol yet').waitFor();
  assert.ok(!(await everything('alice')).some((m) => m.text === 'Hello Carol, a secret for you'));
  assert.ok((await inbox('carol')).some((m) => m.text === 'Hello Carol, a secret for you'), 'Carol keeps hers');
});

test("a message's notification opens the conversation", async () => {
  const { page } = ui;
  await apiCall(hub, 'bob', '/api/direct_messages/new.json', { screen_name: 'alice', text: 'Dessert sounds great' });
  await page.goto('/notifications');
  await page.getByRole('button', { name: /Bob sent you a private message/ }).first().click();
  await page.waitForURL(/\/messages\/bob$/);
  await page.getByRole('region', { name: 'Messages with Bob' }).getByText('Dessert sounds great').waitFor();
});

test('a conversation with a name nobody has says so, and asks for no messages', async () => {
  const { page } = ui;
  ui.allowProblems(/users\/show/);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('direct_messages/all')) asked.push(r.url());
  });
  await page.goto('/messages/nobody-here');
  await page.getByText('There is no channel with this name here.').waitFor();
  assert.deepEqual(asked, []);
});

test("a channel's page offers to send a message; a long conversation opens at its newest message", async () => {
  const { page } = ui;
  for (let i = 1; i <= 25; i++) await apiCall(hub, 'bob', '/api/direct_messages/new.json', { screen_name: 'alice', text: `Line ${i} of a long chat` });
  await page.goto('/channel/bob');
  await page.getByRole('link', { name: 'Send a message' }).click();
  await page.waitForURL(/\/messages\/bob$/);
  const newest = page.getByText('Line 25 of a long chat');
  await newest.waitFor();
  await page.getByLabel('Message to Bob').waitFor();
  assert.ok(await newest.isVisible());
  const inView = async (text: string) =>
    page.getByText(text, { exact: true }).evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
  await page.waitForFunction(() => window.scrollY > 0);
  assert.equal(await inView('Line 25 of a long chat'), true, 'the newest message is in view');
  assert.equal(await inView('Line 1 of a long chat'), false, 'the oldest is above');
  // One's own page has no such button.
  await page.goto('/channel/alice');
  await page.getByRole('heading', { name: 'Alice', level: 1 }).waitFor();
  assert.equal(await page.getByRole('link', { name: 'Send a message' }).count(), 0);
});

test('earlier messages and older conversations come a page at a time', async () => {
  const { page } = ui;
  // With the 25 lines above, more than a page (100) of messages with Bob.
  for (let i = 26; i <= 110; i++) await apiCall(hub, 'bob', '/api/direct_messages/new.json', { screen_name: 'alice', text: `Line ${i} of a long chat` });
  await page.goto('/messages/bob');
  await page.getByText('Line 110 of a long chat').waitFor();
  assert.equal(await page.getByText('Line 1 of a long chat', { exact: true }).count(), 0, 'only the newest page at first');
  await page.getByRole('button', { name: 'Show earlier messages' }).click();
  await page.getByText('Line 1 of a long chat', { exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Show earlier messages' }).count(), 0, 'nothing earlier is left');
  assert.equal(await page.getByText('Line 55 of a long chat', { exact: true }).count(), 1, 'no message twice');

  // Carol's conversation is older than Bob's hundred lines: it comes with the older conversations.
  await apiCall(hub, 'carol', '/api/direct_messages/new.json', { screen_name: 'alice', text: 'An old note from Carol' });
  for (let i = 111; i <= 215; i++) await apiCall(hub, 'bob', '/api/direct_messages/new.json', { screen_name: 'alice', text: `Line ${i} of a long chat` });
  await page.goto('/messages');
  await page.getByRole('link', { name: /^Conversation with Bob/ }).waitFor();
  assert.equal(await page.getByRole('link', { name: /^Conversation with Carol/ }).count(), 0);
  await page.getByRole('button', { name: 'Show older conversations' }).click();
  await page.getByRole('link', { name: /^Conversation with Carol/ }).waitFor();
});
