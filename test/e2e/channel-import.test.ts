import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { postStatus } from '../helpers/ui-fixtures.js';
import { DESKTOP, PHONE, openUi, type Ui } from '../helpers/ui.js';
import { createPhoto } from '../../server/services/photos.js';

/** "Move a channel here" in the UI: a channel of another hub comes over with a progress bar and a summary. */

let source: TestHub;
let target: TestHub;
let relay: Server;
let relayUrl: string;
let ui: Ui;
const consoleErrors: string[] = [];
/** File downloads wait here until the test has looked at the progress bar. */
let release: () => void = () => {};
let held = new Promise<void>((resolve) => (release = resolve));


async function shoot(name: string): Promise<void> {
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await ui.page.setViewportSize(viewport);
    await ui.screenshot(`channel-import-${name}-${size}`);
  }
  await ui.page.setViewportSize(DESKTOP);
}

before(async () => {
  source = await startHub({ channels: ['alice'] });
  await postStatus(source, 'alice', 'Hello from the old hub');
  await postStatus(source, 'alice', 'A second post from the old hub');
  await createPhoto(source.hub, source.channels.alice!, await tempUpload(await makeImage(120, 80), 'garden.jpg'), { album: 'Garden' });
  // The way to the source hub, where file downloads can be held back.
  relay = createServer(async (req, res) => {
    if (req.url?.includes('/filedata')) await held;
    const answer = await fetch(source.url + req.url, { headers: { authorization: req.headers.authorization ?? '' } });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  target = await startHub({ channels: ['owner'] });
  ui = await openUi(target, { as: 'owner', viewport: DESKTOP });
  ui.page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
});

after(async () => {
  release();
  await ui?.close();
  await target?.stop();
  relay?.close();
  await source?.stop();
});

test('moving a channel here from the channels page: form, progress bar, summary, then switching to it', async () => {
  const { page } = ui;
  await page.goto('/channels');
  await page.getByRole('link', { name: 'Move a channel here' }).click();
  await page.getByRole('heading', { name: 'Move a channel here' }).waitFor();
  await page.getByText(/Keys are not moved/).waitFor();
  await page.getByLabel('Hub address').fill(relayUrl);
  await page.getByLabel('Nickname there').fill('alice');
  await page.getByLabel('Password there').fill(PASSWORD);
  await page.getByRole('alert').getByText(/This address is not https: the password goes to that hub unencrypted/).waitFor();
  await shoot('form');
  await page.getByRole('button', { name: 'Move the channel here' }).click();

  const bar = page.getByRole('progressbar', { name: 'Moving the channel' });
  await bar.waitFor();
  await page.getByText('Files and photos: 0 of 1').waitFor();
  await shoot('progress');
  assert.equal(await page.getByRole('button', { name: 'Stop' }).isEnabled(), true);
  release();

  await page.getByRole('heading', { name: 'Alice moved here' }).waitFor();
  const imported = page.getByRole('list', { name: 'Imported' });
  await imported.getByText('2 posts, comments and likes').waitFor();
  await imported.getByText(/1 photo and 0 files/).waitFor();
  await shoot('summary');
  await page.getByRole('button', { name: 'Switch to Alice' }).click();
  await page.getByRole('button', { name: /^Channel Alice/ }).waitFor();
  await page.getByText('A second post from the old hub').waitFor();
  const session = (await (await page.request.get('/session')).json()) as { channel: { nick: string; hash: string } };
  assert.equal(session.channel.nick, 'alice');
  assert.notEqual(session.channel.hash, source.channels.alice!.channel_hash, 'a channel of its own: keys are not moved');
  assert.deepEqual(consoleErrors, []);
});

test('the form says what is wrong: a wrong password comes back as the summary\'s reason, and nothing is made', async () => {
  const { page } = ui;
  held = Promise.resolve();
  await page.goto('/channels/import');
  await page.getByLabel('Hub address').fill(source.url);
  await page.getByLabel('Nickname there').fill('alice');
  await page.getByLabel('Password there').fill('not the password');
  await page.getByRole('button', { name: 'Move the channel here' }).click();
  await page.getByRole('heading', { name: 'The channel could not be moved' }).waitFor();
  await page.getByText(/refused the nickname and password/).waitFor();
  await shoot('failed');
  const channels = (await (await page.request.get('/session')).json()) as { channels: unknown[] };
  assert.equal(channels.channels.length, 2, 'owner and the alice moved before');
  assert.deepEqual(consoleErrors, []);
});
