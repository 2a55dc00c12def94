import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';
import { openUi, type Ui } from '../helpers/ui.js';

// The UI's Messages with someone on another server (an independent ActivityPub server): a new
// conversation reaches them as a direct Note, and their answer shows in the conversation.

let hub: TestHub;
let peer: FedifyPeer;
let ui: Ui;

before(async () => {
  hub = await startFederatingHub(['alice']);
  peer = await FedifyPeer.start({ actors: ['ap1'], sharedInbox: false });
  await peer.follow('ap1', `${hub.url}/channel/alice`);
  await peer.waitFor((r) => r.type === 'Accept');
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await peer?.close();
  await hub?.stop();
});

test('a conversation with someone elsewhere: the message goes to them as a direct Note, and their answer shows', async () => {
  const { page } = ui;
  await page.goto('/messages');
  const start = page.getByRole('form', { name: 'New message' });
  await start.getByLabel('Write to').selectOption({ label: `Peer ap1 (${peer.address('ap1')})` });
  await start.getByRole('button', { name: 'New message' }).click();
  await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/messages/${peer.address('ap1')}`);
  const thread = page.getByRole('region', { name: 'Messages with Peer ap1' });
  await thread.getByLabel('Message to Peer ap1').fill('Hello from the desktop');
  await thread.getByRole('button', { name: 'Send' }).click();
  await thread.getByRole('listitem', { name: 'You, message' }).getByText('Hello from the desktop').waitFor();

  const create = await peer.waitFor((r) => r.type === 'Create' && String((r.json.object as { content?: string }).content).includes('Hello from the desktop'));
  const note = create.json.object as { id: string; to: unknown; cc?: unknown };
  assert.equal(create.inbox, 'ap1');
  assert.equal(note.to, peer.actorUri('ap1'), 'to ap1 alone');
  assert.equal(note.cc, undefined);

  await peer.post('ap1', { content: '<p>Hello back from elsewhere</p>', audience: 'direct', mentions: [`${hub.url}/channel/alice`], inReplyTo: note.id });
  await page.reload();
  await page.getByRole('region', { name: 'Messages with Peer ap1' }).getByRole('listitem', { name: 'Peer ap1, message' }).getByText('Hello back from elsewhere').waitFor({ timeout: 15_000 });
  await ui.screenshots('message-thread-federated');
});
