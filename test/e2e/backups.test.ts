import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startHub, PASSWORD, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { openUi, type Ui } from '../helpers/ui.js';
import type { LastBackup } from '../../server/backup/service.js';
import { runRestore } from '../../server/backup/restore.js';
import { FolderTarget } from '../../server/backup/targets/folder.js';

/**
 * Settings → Backups as a person uses it: turning backups on (a folder, a passphrase), backing up
 * now, seeing the result, and a failing backup shown on the page (and announced to the desktop app).
 */
let hub: TestHub;
let ui: Ui;
let work: string;

before(async () => {
  hub = await startHub({ channels: ['alice'] });
  const res = await hub.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: 'a photo to keep' }, { media: { data: await makeImage(640, 480), name: 'a.jpg', type: 'image/jpeg' } }) });
  assert.equal(res.status, 200);
  work = await mkdtemp(join(tmpdir(), 'hearth-ui-backup-'));
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
  await rm(work, { recursive: true, force: true });
});

async function openBackups() {
  await ui.page.goto('/settings/backups');
  const section = ui.page.getByRole('region', { name: 'Backups' });
  await section.getByRole('button', { name: 'Back up now' }).waitFor();
  return section;
}

test('turning backups on: a folder and a passphrase, saved with the password; Back up now makes a backup that restores', async () => {
  const { page } = ui;
  const started = Date.now();
  const section = await openBackups();
  await section.getByText('Backups are off: choose where they go').waitFor();
  assert.equal(await section.getByRole('button', { name: 'Back up now' }).isDisabled(), true, 'nothing to back up to yet');
  assert.equal(await section.getByLabel('How often').inputValue(), '86400', 'daily by default');
  await ui.screenshots('settings-backups-off', { fullPage: false });

  const folder = join(work, 'backup disk');
  await section.getByLabel('Folder', { exact: true }).fill(folder);
  await section.getByLabel(/^Passphrase/).fill('four words to remember');
  await section.getByLabel(/^Your Hearth password/).fill(PASSWORD);
  await section.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Your backup settings were saved.' }).waitFor();
  await section.getByText(/^Next backup: /).waitFor({ state: 'detached' }).catch(() => undefined);

  const outcome = new Promise<LastBackup>((resolve) => hub.hub.events.once('backup', resolve));
  await section.getByRole('button', { name: 'Back up now' }).click();
  await section.getByText(/^Last backup /).waitFor({ timeout: 60_000 });
  const seconds = (Date.now() - started) / 1000;
  console.log(`backups on and a first backup made through the page in ${seconds.toFixed(1)} s`);
  const last = await outcome;
  assert.equal(last.ok, true, last.error);
  await ui.screenshots('settings-backups', { fullPage: false });

  assert.ok(existsSync(join(folder, 'backups', last.id!, 'manifest.json')));
  const restored = join(work, 'restored');
  const r = await runRestore({ target: new FolderTarget(folder), passphrase: 'four words to remember', dataDir: restored });
  assert.equal(r.id, last.id);
  assert.ok(r.files >= 3, 'the photo in its scales');
  assert.equal((await readdir(restored)).includes('hearth.db'), true);
});

test('a failing backup shows on the page, with its reason, and is announced to the desktop app', async () => {
  const { page } = ui;
  const section = await openBackups();
  // A "folder" that is a file: nothing can be written there.
  const blocked = join(work, 'not-a-folder');
  await writeFile(blocked, 'a file');
  await section.getByLabel('Folder', { exact: true }).fill(blocked);
  await section.getByLabel(/^Your Hearth password/).fill(PASSWORD);
  await section.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Your backup settings were saved.' }).waitFor();

  const outcome = new Promise<LastBackup>((resolve) => hub.hub.events.once('backup', resolve));
  await section.getByRole('button', { name: 'Back up now' }).click();
  const alert = section.getByRole('alert').filter({ hasText: 'The last backup failed' });
  await alert.waitFor({ timeout: 60_000 });
  assert.match((await alert.textContent()) ?? '', /cannot write to the folder/);
  const last = await outcome;
  assert.equal(last.ok, false);
  await ui.screenshots('settings-backups-failed', { fullPage: false });
});
