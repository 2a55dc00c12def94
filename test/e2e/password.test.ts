import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { openUi, type Ui } from '../helpers/ui.js';

// Issue 16, finding 8: the Settings page's Password section. The other browser is logged out, this
// one stays, and the new password is the one that logs in afterwards.

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice'] });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

test('settings: the password is changed in the UI, other browsers are logged out, and the new one logs in', async () => {
  const { page } = ui;
  const otherBrowser = await webLogin(hub, 'alice');
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Password' });
  await section.getByLabel('Current password').waitFor();

  // A wrong current password is refused (the hub answers 403, which the browser reports).
  ui.allowProblems(/\/settings\/password\b|\/login\b/);
  await section.getByLabel('Current password').fill('not my password');
  await section.getByLabel('New password', { exact: true }).fill('fresh secret 9');
  await section.getByLabel('New password again').fill('fresh secret 9');
  await section.getByRole('button', { name: 'Change password' }).click();
  await section.getByRole('alert').filter({ hasText: /current password is wrong/i }).waitFor();

  await section.getByLabel('Current password').fill(PASSWORD);
  assert.equal(await section.getByLabel('Also sign out apps (OAuth)').isChecked(), false);
  await ui.screenshots('settings-password');
  await section.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Your password was changed. 1 other browser was logged out.').waitFor();
  assert.equal(await section.getByLabel('Current password').inputValue(), '', 'the form is cleared');

  const other = (await (await otherBrowser.get('/session')).json()) as { authenticated: boolean };
  assert.equal(other.authenticated, false, 'the other browser was logged out');
  const mine = await page.evaluate(async () => (await (await fetch('/session')).json()) as { authenticated: boolean });
  assert.equal(mine.authenticated, true, 'this browser stays logged in');

  await page.getByRole('button', { name: /Channel Alice/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  // The login form that replaces the Settings page works as it is (no reload).
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await page.getByLabel('Nickname or email').fill('alice');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('alert').filter({ hasText: /wrong/i }).waitFor();
  await page.getByLabel('Password').fill('fresh secret 9');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor({ state: 'detached' });
  await page.getByRole('button', { name: /Channel Alice/ }).waitFor();
  const again = await page.evaluate(async () => (await (await fetch('/session')).json()) as { authenticated: boolean });
  assert.equal(again.authenticated, true, 'logged in with the new password');
  await ui.screenshot('password-new-login');
});
