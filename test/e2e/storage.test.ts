import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { postStatus } from '../helpers/ui-fixtures.js';
import { DESKTOP, openUi, PHONE, pngOf, SCREENSHOTS, type Ui } from '../helpers/ui.js';
import { toDbDate } from '../../server/util/time.js';

/**
 * Settings → Storage used as the owner would: the sizes of the database and of the photos, by kind
 * and by channel; removing the old notifications already seen; compacting the database afterwards.
 */
let hub: TestHub;
let ui: Ui;

async function uploadPhoto(as: string, album: string, color: { r: number; g: number; b: number }): Promise<void> {
  const form = new FormData();
  form.append('album', album);
  form.append('media', new Blob([new Uint8Array(await pngOf(color, 320, 240))], { type: 'image/png' }), `${album}.png`);
  const res = await hub.request('/api/ext/photo/create', { as, method: 'POST', body: form });
  assert.equal(res.status, 200, await res.text());
}

/** Notifications aged `days` (the hub makes them as things happen; a test cannot wait months). */
function addNotifications(nick: string, n: number, days: number, seen: boolean): void {
  const insert = hub.hub.db.prepare('INSERT INTO notify (uid, created, seen, msg, xname) VALUES (?, ?, ?, ?, ?)');
  const created = toDbDate(new Date(Date.now() - days * 86_400_000));
  hub.hub.db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(hub.channels[nick]!.channel_id, created, seen ? 1 : 0, `liked your post ${'…'.repeat(500)}`, 'Someone');
  })();
}

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await postStatus(hub, 'alice', 'Hello from Alice');
  await postStatus(hub, 'alice', 'Another day in the garden');
  await postStatus(hub, 'bob', 'Bob was here');
  await uploadPhoto('alice', 'Sea', { r: 20, g: 100, b: 200 });
  await uploadPhoto('bob', 'Bikes', { r: 60, g: 60, b: 60 });
  addNotifications('alice', 400, 120, true);
  addNotifications('alice', 2, 120, false);
  addNotifications('alice', 3, 2, true);
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

async function sectionShots(part: Locator, name: string) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const before = ui.page.viewportSize() ?? DESKTOP;
  try {
    for (const [size, suffix] of [[DESKTOP, ''], [PHONE, '-phone']] as const) {
      await ui.page.setViewportSize(size);
      await part.screenshot({ path: join(SCREENSHOTS, `${name}${suffix}.png`), style: '.topbar, .nav { visibility: hidden; }' });
    }
  } finally {
    await ui.page.setViewportSize(before);
  }
}

async function openStorage() {
  await ui.page.goto('/settings/storage');
  const section = ui.page.getByRole('region', { name: 'Storage' });
  await section.getByRole('table', { name: 'By channel' }).waitFor();
  return section;
}

/** The cells of a channel's row in the By channel table, by column name. */
async function channelRow(section: Locator, name: string): Promise<Record<string, string>> {
  const table = section.getByRole('table', { name: 'By channel' });
  const heads = await table.locator('thead th').allInnerTexts();
  const cells = await table.getByRole('row').filter({ has: ui.page.getByRole('rowheader', { name, exact: true }) }).locator('th, td').allInnerTexts();
  return Object.fromEntries(heads.map((h, i) => [h.trim(), cells[i]!.trim()]));
}

test('the owner sees the sizes by kind and by channel, removes old seen notifications, then compacts the database', async () => {
  const { page } = ui;
  const section = await openStorage();
  await section.getByText(/in the database, of which .* is free space|in the database$/).first().waitFor();
  await section.getByText(/of photos \(2 photos, with their smaller sizes\)/).waitFor();
  const kinds = section.getByRole('table', { name: /^The database by kind/ });
  for (const kind of ['Posts', 'Notifications', 'Photos (their records)']) await kinds.getByRole('rowheader', { name: kind, exact: true }).waitFor();

  const alice = await channelRow(section, 'Alice');
  const bob = await channelRow(section, 'Bob');
  assert.equal(alice.Posts, '3', 'two posts and the photo\'s own post');
  assert.equal(bob.Posts, '2');
  assert.equal(alice.Notifications, '405');
  assert.equal(bob.Notifications, '0');
  assert.match(alice.Photos!, /^1 · \d+(\.\d)? KB$/);
  assert.match(bob.Photos!, /^1 · \d+(\.\d)? KB$/);
  await sectionShots(section, 'settings-storage');

  await section.getByLabel('Remove seen notifications older than').fill('30');
  await section.getByRole('button', { name: 'Remove…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove old notifications?' });
  await dialog.getByText('older than 30 days are removed for good').waitFor();
  await dialog.getByRole('button', { name: 'Remove them' }).click();
  await page.getByRole('status').filter({ hasText: 'Removed 400 old notifications.' }).waitFor();
  await dialog.waitFor({ state: 'detached' });
  await section.getByRole('row').filter({ hasText: 'Alice' }).getByRole('cell', { name: '5', exact: true }).waitFor();
  assert.equal((await channelRow(section, 'Alice')).Notifications, '5', 'the unseen and the recent ones stay');

  // Removing them left free space in the database: compacting gives it back.
  const compact = section.getByRole('button', { name: 'Compact the database…' });
  await section.getByText(/^Free space in the database: [1-9][\d.]* [KM]B, which compacting gives back to your disk.* meanwhile the hub answers nothing else/).waitFor();
  await sectionShots(section, 'settings-storage-cleaned');
  await compact.click();
  const confirm = page.getByRole('dialog', { name: 'Compact the database now?' });
  await confirm.getByText(/Until it ends the hub answers nothing else/).waitFor();
  await ui.screenshots('settings-storage-compact-dialog', { fullPage: false });
  await confirm.getByRole('button', { name: 'Compact now' }).click();
  await page.getByRole('status').filter({ hasText: /The database was compacted in [\d.]+ s: .* freed\./ }).waitFor();
  await section.getByText(/^Free space in the database: 0 B,/).waitFor();
  await section.getByText(/in the database, of which .* is free space/).waitFor({ state: 'detached' });
});
