import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { openUi, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub();
  ui = await openUi(hub);
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('first run: the UI at / creates the account and first channel, then logs out and in again', async () => {
  const { page } = ui;
  await page.goto('/');
  await page.getByRole('heading', { name: 'Welcome to Hearth' }).waitFor();
  await ui.screenshot('setup');

  await page.getByLabel('Your name').fill('Ada Lovelace');
  await page.getByLabel('Nickname').fill('ada');
  await page.getByLabel('Password', { exact: true }).fill('engine42');
  await page.getByLabel('Password again').fill('engine43');
  await page.getByRole('button', { name: 'Create my hub' }).click();
  await page.getByText('The two passwords are not the same.').waitFor();

  await page.getByLabel('Password again').fill('engine42');
  await page.getByRole('button', { name: 'Create my hub' }).click();
  await page.getByRole('form', { name: 'New post' }).waitFor();
  await page.getByRole('button', { name: /Channel Ada Lovelace/ }).waitFor();

  const session = (await (await page.request.get('/session')).json()) as { authenticated: boolean; setupNeeded: boolean; channel: { nick: string } };
  assert.equal(session.authenticated, true);
  assert.equal(session.setupNeeded, false);
  assert.equal(session.channel.nick, 'ada');

  await page.getByRole('button', { name: /Channel Ada Lovelace/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();

  await page.getByLabel('Nickname or email').fill('ada');
  // The hub answers a wrong password with 401, which the browser reports.
  ui.allowProblems(/\/login\b/);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('alert').filter({ hasText: /wrong/i }).waitFor();
  await ui.screenshot('login-error');

  await page.getByLabel('Password').fill('engine42');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('form', { name: 'New post' }).waitFor();
  await page.getByText('Nothing here yet.').waitFor();
  await ui.screenshot('stream-empty');
});
