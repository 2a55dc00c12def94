// The stream is the first screen, and it comes first: its scripts hold none of the other pages'
// code nor the composer preview's renderers, which load when they are opened; the hub is asked for
// the stream's page before anything the first screen does not show. The composer's preview is a
// toggle: typing alone leaves the text the whole width.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page, Request, Response, Route } from 'playwright-core';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connectMutually, createGroup, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, SCREENSHOTS, type Ui } from '../helpers/ui.js';

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Words only another page's code (or the preview's Markdown renderer) holds. */
const OTHER_PAGES: Array<[string, string]> = [
  ['the settings', 'Followers and comments'],
  ['the apps page', 'Access you gave'],
  ['moving a channel here', 'Move a channel here'],
  ['the files page', 'Upload files or create a folder above.'],
  ['the preview’s Markdown renderer (linkify-it)', 'linkify'],
];

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  for (let i = 1; i <= 4; i++) await postStatus(hub, 'alice', `Post ${i}: [b]bold[/b] and plain words.`);
  await connectMutually(hub, 'alice', ['bob']);
  await createGroup(hub, 'alice', 'Friends', ['bob']);
  ui = await openUi(hub, { as: 'alice', viewport: LAPTOP });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

/** The scripts the page fetches from now on, with their (decoded) code. */
function recordScripts(page: Page): { code(): Promise<Map<string, string>> } {
  const responses: Response[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') responses.push(res);
  });
  return {
    async code() {
      return new Map(await Promise.all(responses.map(async (r) => [new URL(r.url()).pathname, await r.text()] as [string, string])));
    },
  };
}

async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const [size, suffix] of [[LAPTOP, ''], [PHONE, '-phone']] as const) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: join(SCREENSHOTS, `${name}${suffix}.png`) });
  }
  await page.setViewportSize(LAPTOP);
}

test('the stream’s first screen loads without the other pages’ code, which loads when they open', async () => {
  const { page } = ui;
  const scripts = recordScripts(page);
  await page.goto('/');
  await page.locator('article[data-status-id]').first().waitFor();
  await page.waitForLoadState('networkidle');
  const first = await scripts.code();
  const firstCode = [...first.values()].join('\n');
  assert.match(firstCode, /What's on your mind\?/, 'the stream and its composer came');
  for (const [what, words] of OTHER_PAGES) assert.ok(!firstCode.includes(words), `the first screen's scripts (${[...first.keys()].join(', ')}) hold ${what}`);
  await shoot(page, 'first-screen-stream');

  // Opening another page fetches its code then, once.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Followers and comments' }).waitFor();
  const later = await scripts.code();
  const settingsChunk = [...later].find(([path, code]) => !first.has(path) && code.includes('Followers and comments'));
  assert.ok(settingsChunk, 'the settings came in a script of their own');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Files' }).click();
  await page.getByText('Upload files or create a folder above.').waitFor();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Stream' }).click();
  await page.locator('article[data-status-id]').first().waitFor();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Followers and comments' }).waitFor();
  const fetched = [...(await scripts.code()).keys()];
  assert.equal(fetched.filter((p) => p === settingsChunk[0]).length, 1, 'fetched once');
});

test('the composer’s preview is a toggle: typing keeps the text the full width until Preview is pressed', async () => {
  const { page } = ui;
  const scripts = recordScripts(page);
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  const body = composer.getByLabel('Message');
  const fullWidth = (await body.boundingBox())!.width;
  await body.fill('[b]Bring[/b] some bread, and [i]cheese[/i].');
  await page.waitForTimeout(300); // the preview used to follow the typing at once (a deferred value)
  assert.equal(await composer.getByRole('region', { name: 'Preview' }).count(), 0, 'no preview before it is asked for');
  assert.equal((await body.boundingBox())!.width, fullWidth, 'the text keeps the whole width');
  assert.ok(![...(await scripts.code()).values()].some((code) => code.includes('linkify')), 'nor its renderers');

  const toggle = composer.getByRole('button', { name: 'Preview' });
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  const preview = composer.getByRole('region', { name: 'Preview' });
  await preview.locator('span', { hasText: 'Bring' }).waitFor();
  assert.equal(await preview.locator('span', { hasText: 'Bring' }).evaluate((el) => getComputedStyle(el).fontWeight), '700');
  assert.ok((await body.boundingBox())!.width < fullWidth * 0.6, 'side by side on a laptop');
  // It follows the typing while it is open.
  await body.fill('[u]Now[/u] something else');
  await preview.getByText('something else').waitFor();
  await shoot(page, 'composer-preview-open');

  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  await preview.waitFor({ state: 'detached' });
  assert.equal((await body.boundingBox())!.width, fullWidth);
});

test('the stream’s page is asked for first: the filters’ groups and connections after it, the audience’s choices when its panel opens', async () => {
  const { page } = ui;
  // After years of use a channel's connections are megabytes, and the hub answers one request at a
  // time: asked for beside the stream's page, they came before it. The stream's page answers late
  // here, as on a hub that holds years of posts, so that what is asked before it shows.
  const log: string[] = [];
  const isStreamPage = (url: URL) => url.pathname === '/api/statuses/home_timeline';
  const onRequest = (req: Request) => {
    const path = new URL(req.url()).pathname;
    if (path.startsWith('/api/')) log.push(`asked ${path}`);
  };
  const onResponse = (res: Response) => {
    if (isStreamPage(new URL(res.url()))) log.push('stream answered');
  };
  const late = async (route: Route) => {
    await new Promise((r) => setTimeout(r, 500));
    await route.continue();
  };
  await page.route(isStreamPage, late);
  page.on('request', onRequest);
  page.on('response', onResponse);
  try {
    await page.goto('/');
    await page.locator('article[data-status-id]').first().waitFor();
    const filters = page.getByRole('form', { name: 'Filter the stream' });
    await filters.getByLabel('Connection').locator('option', { hasText: 'Bob' }).waitFor({ state: 'attached' });
    await filters.getByLabel('Group').locator('option', { hasText: 'Friends' }).waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    const answered = log.indexOf('stream answered');
    assert.ok(answered >= 0, log.join('\n'));
    assert.deepEqual(log.slice(0, answered).filter((l) => /abook|group/.test(l)), [], `asked before the stream's page answered:\n${log.join('\n')}`);
    assert.ok(!log.includes('asked /api/ext/group_show'), 'the filters need the groups’ names, not every member of them');
    assert.equal(log.filter((l) => l === 'asked /api/z/1.0/abook').length, 1, `the connections once, for the filters (not for the composer's closed audience panel):\n${log.join('\n')}`);

    const before = log.length;
    const composer = page.getByRole('form', { name: 'New post' });
    await composer.getByLabel('Message').click();
    await composer.getByRole('button', { name: /Audience/ }).click();
    await page.getByLabel('Only the groups and people I choose').check();
    await page.getByRole('checkbox', { name: /Bob/ }).waitFor();
    await page.getByRole('checkbox', { name: 'Friends' }).waitFor();
    assert.ok(log.slice(before).includes('asked /api/z/1.0/abook'), 'the audience panel asks for the connections as it opens');
    await shoot(page, 'first-screen-audience-open');
  } finally {
    page.off('request', onRequest);
    page.off('response', onResponse);
    await page.unroute(isStreamPage, late);
  }
});
