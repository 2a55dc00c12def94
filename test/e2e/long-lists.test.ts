import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Response } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { openUi, pngOf, type Ui } from '../helpers/ui.js';
import { insertAttach } from '../../server/store/attachments.js';
import { insertNotification } from '../../server/store/notify.js';
import { NOTIFY } from '../../server/services/notifications.js';

/**
 * Lists longer than a page: the Files page and the Notifications page show the first page and more
 * on request, and never ask the hub for everything at once.
 */

const IN_ARCHIVE = 250;
const NOTES = 100;

let hub: TestHub;
let ui: Ui;

/** What the page asked the hub for: each answer of a list and how many entries it held. */
const answers: { url: string; entries: number }[] = [];

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  const db = hub.hub.db;
  const alice = hub.channels.alice!;
  const bob = hub.channels.bob!;
  const attach = (hash: string, filename: string, folder: string, dir: boolean, created: string) =>
    insertAttach(db, {
      aid: alice.channel_account_id, uid: alice.channel_id, hash, creator: alice.channel_hash, filename, filetype: dir ? 'multipart/mixed' : 'text/plain',
      filesize: dir ? 0 : 1200, revision: 0, folder, flags: 0, is_dir: dir ? 1 : 0, is_photo: 0, os_storage: 1, os_path: '', display_path: '', content: '',
      created, edited: created, allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '',
    });
  db.transaction(() => {
    attach('archivefolder', 'Archive', '', true, '2025-01-01 00:00:00');
    for (let i = 0; i < IN_ARCHIVE; i++) attach(`archived${i}`, `letter-${String(i).padStart(3, '0')}.txt`, 'archivefolder', false, `2025-01-02 00:00:${String(i % 60).padStart(2, '0')}`);
    for (let i = 0; i < NOTES; i++) {
      insertNotification(db, {
        hash: `note${i}`, xname: 'Bob', url: bob.channel_url ?? '', photo: '', created: `2025-03-01 00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
        msg: `{0} wrote note number ${i}`, aid: alice.channel_account_id, uid: alice.channel_id, link: '', iid: 0, parent: 0, ntype: NOTIFY.POST, verb: '', otype: 'item',
        xchan: bob.channel_hash,
      } as never);
    }
  })();
  ui = await openUi(hub, { as: 'alice' });
  ui.page.on('response', (res: Response) => {
    const url = new URL(res.url());
    if (!/\/api\/(z\/1\.0\/files|ext\/notifications|ext\/photos\/list)$/.test(url.pathname.replace(/\.json$/, '')) || res.request().method() !== 'GET') return;
    void res.json().then(
      (body: any) => answers.push({ url: url.pathname + url.search, entries: Array.isArray(body) ? body.length : (body?.results?.length ?? 0) }),
      () => undefined,
    );
  });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('a folder of 250 files shows 100, then more on request, each file once', async () => {
  const { page } = ui;
  answers.length = 0;
  await page.goto('/files/Archive');
  await page.getByRole('heading', { name: 'Archive', level: 1 }).waitFor();
  const list = page.getByRole('list', { name: 'Files and folders' });
  const names = list.locator('.file-name');
  const more = page.getByRole('button', { name: 'Show more files' });
  await more.waitFor();
  assert.equal(await names.count(), 100);
  await more.scrollIntoViewIfNeeded();
  await ui.screenshots('files-long-folder', { fullPage: false });

  await more.click();
  await page.waitForFunction(() => document.querySelectorAll('.file-name').length === 200);
  await more.click();
  await page.waitForFunction(() => document.querySelectorAll('.file-name').length === 250);
  await more.waitFor({ state: 'detached' });
  const shown = await names.allTextContents();
  assert.equal(new Set(shown).size, IN_ARCHIVE, 'each file once');
  assert.deepEqual(shown, [...shown].sort(), 'by name');
  await list.getByText('letter-249.txt').scrollIntoViewIfNeeded();
  await ui.screenshots('files-long-folder-all', { fullPage: false });

  const pages = answers.filter((a) => a.url.includes('folder='));
  assert.ok(pages.length >= 3, `pages asked: ${JSON.stringify(answers)}`);
  assert.ok(
    answers.every((a) => a.entries <= 100),
    `no answer holds more than a page: ${JSON.stringify(answers)}`,
  );
});

test('100 notifications show 40, then older ones on request, each once', async () => {
  const { page } = ui;
  answers.length = 0;
  await page.goto('/notifications');
  const list = page.getByRole('list', { name: 'Notifications' });
  await list.getByText('Bob wrote note number 99').waitFor();
  const rows = list.getByRole('listitem');
  assert.equal(await rows.count(), 40);
  const older = page.getByRole('button', { name: 'Show older notifications' });
  await older.scrollIntoViewIfNeeded();
  await ui.screenshots('notifications-long', { fullPage: false });

  await older.click();
  await list.getByText('Bob wrote note number 20', { exact: true }).waitFor();
  await older.click();
  await list.getByText('Bob wrote note number 0', { exact: true }).waitFor();
  await older.waitFor({ state: 'detached' });
  const texts = await list.locator('.notification-text').allTextContents();
  assert.equal(texts.length, NOTES);
  assert.equal(new Set(texts).size, NOTES, 'each notification once');
  await list.getByText('Bob wrote note number 0', { exact: true }).scrollIntoViewIfNeeded();
  await ui.screenshots('notifications-long-all', { fullPage: false });
  assert.ok(
    answers.every((a) => a.entries <= 40),
    `no answer holds more than a page: ${JSON.stringify(answers)}`,
  );
});

test('an album of 120 photos shows 100, then the rest on request; the albums page reads only covers', async () => {
  const { page } = ui;
  const png = new Uint8Array(await pngOf({ r: 200, g: 120, b: 60 }, 64, 48));
  for (let i = 0; i < 120; i++) {
    const form = new FormData();
    form.append('album', 'Holiday');
    form.append('media', new Blob([png], { type: 'image/png' }), `shot-${i}.png`);
    const res = await hub.request('/api/ext/photo/create.json', { as: 'alice', method: 'POST', body: form });
    assert.equal(res.status, 200, await res.text());
  }
  answers.length = 0;
  await page.goto('/photos');
  await page.getByRole('list', { name: 'Albums' }).getByText('120 photos').waitFor();
  await page.getByRole('link', { name: /Holiday/ }).click();
  await page.getByRole('heading', { name: 'Holiday', level: 1 }).waitFor();
  await page.getByText('120 photos').waitFor();
  const grid = page.getByRole('list', { name: 'Photos' });
  const more = page.getByRole('button', { name: 'Show more photos' });
  await more.waitFor();
  assert.equal(await grid.getByRole('listitem').count(), 100);
  await more.scrollIntoViewIfNeeded();
  await ui.screenshots('photos-long-album', { fullPage: false });
  await more.click();
  await page.waitForFunction(() => document.querySelectorAll('.photo-grid li').length === 120);
  await more.waitFor({ state: 'detached' });
  assert.ok(
    answers.every((a) => a.entries <= 100),
    `no answer holds more than a page: ${JSON.stringify(answers)}`,
  );
});
