import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { openUi, type Ui } from '../helpers/ui.js';

// A session that ends under the UI (logged out in another tab, or by a password change elsewhere)
// must lead to the UI's own login form, which then works without a reload. A Basic challenge on the
// API's 401 would open the browser's own password dialog instead and hold the UI's requests.

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

test("the UI's API requests get 401 without a Basic challenge; other clients keep it", async () => {
  const ui401 = await fetch(`${hub.url}/api/statuses/home_timeline.json`, { headers: { 'x-requested-with': 'XMLHttpRequest' } });
  assert.equal(ui401.status, 401);
  assert.equal(ui401.headers.get('www-authenticate'), null);
  const client401 = await fetch(`${hub.url}/api/z/1.0/files`);
  assert.equal(client401.status, 401);
  assert.match(client401.headers.get('www-authenticate') ?? '', /^Basic realm=/);
});

test('logged out in another tab: the next click shows the login form, which logs in again', async () => {
  const { page } = ui;
  await page.goto('/photos');
  await page.getByRole('heading', { name: 'Photos', level: 1 }).waitFor();

  const other = await ui.context.newPage();
  await other.goto('/');
  await other.getByRole('button', { name: /Channel Alice/ }).click();
  await other.getByRole('menuitem', { name: 'Log out' }).click();
  await other.getByRole('heading', { name: 'Log in' }).waitFor();
  await other.close();

  // The first tab still shows Photos; its next request is refused (401), which it expects.
  ui.allowProblems(/answered 401/, /status of 401/);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Groups' }).click();
  await page.getByRole('heading', { name: 'Log in' }).waitFor();
  await ui.screenshots('session-lost-login');
  await page.getByLabel('Nickname or email').fill('alice');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: /Channel Alice/ }).waitFor();
  const session = await page.evaluate(async () => (await (await fetch('/session')).json()) as { authenticated: boolean });
  assert.equal(session.authenticated, true);
});
