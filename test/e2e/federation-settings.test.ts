import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { DESKTOP, openUi, PHONE, SCREENSHOTS, type Ui } from '../helpers/ui.js';

/**
 * Settings → Federation used as the owner would: off at first, an address other servers cannot
 * reach refused with what to do, on at an address (here the hub's own http one, which only
 * HEARTH_FEDERATION_INSECURE=1 allows), off, and on again at the address fixed the first time.
 */
let hub: TestHub;
let ui: Ui;
const insecureBefore = process.env.HEARTH_FEDERATION_INSECURE;

before(async () => {
  delete process.env.HEARTH_FEDERATION_INSECURE;
  hub = await startHub({ channels: ['alice'] });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
  if (insecureBefore === undefined) delete process.env.HEARTH_FEDERATION_INSECURE;
  else process.env.HEARTH_FEDERATION_INSECURE = insecureBefore;
});

async function partShots(part: Locator, name: string) {
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

/** What anybody can see of the hub's federation: NodeInfo's protocols. */
async function speaksActivityPub(): Promise<boolean> {
  const info = (await (await fetch(`${hub.url}/nodeinfo/2.0`)).json()) as { protocols: string[] };
  return info.protocols.includes('activitypub');
}

async function openSection() {
  await ui.page.goto('/settings/federation');
  const section = ui.page.getByRole('region', { name: 'Federation' });
  await section.getByRole('paragraph').first().waitFor();
  return section;
}

test('off at first: the form asks for the public https address and says how a computer at home gets one', async () => {
  const section = await openSection();
  await section.getByText('Federation is off: your channels are known on this hub only.').waitFor();
  await section.getByLabel('Public https address of this hub').waitFor();
  await section.getByText(/Cloudflare Tunnel, Tailscale Funnel, or an ssh reverse tunnel/).waitFor();
  await section.getByText(/a reverse proxy \(Caddy, nginx\)/).waitFor();
  assert.equal(await section.getByText(/HEARTH_FEDERATION_INSECURE=1 is set/).count(), 0, 'no word of the insecure setting while it is not set');
  assert.equal(await section.getByRole('link', { name: 'Change this under Followers and comments' }).getAttribute('href'), '#settings-social');
  await section.getByText('Anyone, here or elsewhere, can follow your channel at once.').waitFor();
  await partShots(section, 'federation-settings-off');
});

test('an address other servers cannot reach is refused, with what to do', async () => {
  ui.allowProblems(/\/settings\/federation\/state/);
  const section = await openSection();
  await section.getByLabel('Public https address of this hub').fill('http://192.168.1.20:8420');
  await section.getByRole('button', { name: 'Turn federation on' }).click();
  const error = section.getByRole('alert');
  await error.getByText(/Federation was not turned on: Federation needs a public https address, and http:\/\/192\.168\.1\.20:8420 is not https: put the hub behind a reverse proxy or a tunnel/).waitFor();
  await partShots(section, 'federation-settings-refused');
  assert.equal(await speaksActivityPub(), false);
});

test('on (the insecure setting allows the hub\'s own http address), off, and on again at the same address', async () => {
  process.env.HEARTH_FEDERATION_INSECURE = '1';
  let section = await openSection();
  await section.getByText(/HEARTH_FEDERATION_INSECURE=1 is set: http and addresses on your own network are accepted too/).waitFor();
  await section.getByLabel('Public https address of this hub').fill(hub.url);
  await section.getByRole('button', { name: 'Turn federation on' }).click();
  await section.getByText('Federation is on: people on Mastodon and other ActivityPub servers can find and follow your channels.').waitFor();
  assert.equal(await section.locator('.copy-field').filter({ hasText: 'Public address' }).locator('code').textContent(), hub.url);
  assert.equal(await section.locator('.copy-field').filter({ hasText: "Your channel's address elsewhere" }).locator('code').textContent(), `@alice@${new URL(hub.url).host}`);
  assert.equal(await speaksActivityPub(), true);
  await ui.page.getByRole('status').filter({ hasText: 'Federation is on.' }).getByRole('button', { name: 'Dismiss message' }).click();
  await partShots(section, 'federation-settings-on');

  await section.getByRole('button', { name: 'Turn federation off' }).click();
  const dialog = ui.page.getByRole('dialog', { name: 'Turn federation off?' });
  await dialog.getByText(/your followers there stop getting your posts/).waitFor();
  await partShots(dialog, 'federation-settings-turn-off');
  await dialog.getByRole('button', { name: 'Turn federation off' }).click();
  await section.getByText('Federation is off: your channels are known on this hub only.').waitFor();
  const notice = ui.page.getByRole('status').filter({ hasText: 'Federation is off.' });
  await notice.getByRole('button', { name: 'Dismiss message' }).click();
  assert.equal(await speaksActivityPub(), false);
  assert.equal(await section.locator('.copy-field').filter({ hasText: 'Public address' }).locator('code').textContent(), hub.url, 'the address stays');
  assert.equal(await section.getByLabel('Public https address of this hub').count(), 0, 'it is not asked again');
  await partShots(section, 'federation-settings-off-again');

  await section.getByRole('button', { name: 'Turn federation on again' }).click();
  await section.getByText(/^Federation is on/).waitFor();
  assert.equal(await speaksActivityPub(), true);

  // Reloaded, the page says the same.
  section = await openSection();
  await section.getByText(/^Federation is on/).waitFor();
});

test('on, but at an address the hub may no longer use (the insecure setting was taken away): it says that it does not run, and why', async () => {
  delete process.env.HEARTH_FEDERATION_INSECURE;
  await hub.hub.federation.restart(); // as at the hub's next start
  const section = await openSection();
  await section.getByText('Federation is on, but it does not run.').waitFor();
  await section.getByText(/^Federation needs a public https address, and http:\/\/127\.0\.0\.1:\d+ is not https: put the hub behind a reverse proxy or a tunnel/).waitFor();
  await section.getByRole('button', { name: 'Turn federation off' }).waitFor();
  assert.equal(await speaksActivityPub(), false);
  await partShots(section, 'federation-settings-not-running');
});
