import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { apiCall, connect, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, pngOf, type Ui } from '../helpers/ui.js';

const UPLOAD_LIMIT = 256 * 1024;

let hub: TestHub;
let ui: Ui;

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'], options: { limits: { maxUploadBytes: UPLOAD_LIMIT } } });
  await connect(hub, 'alice', 'bob');
  await connect(hub, 'bob', 'alice');
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

/** Paths of API requests the page makes from now on. */
function watchRequests(pattern: RegExp): string[] {
  const seen: string[] = [];
  ui.page.on('request', (req) => {
    if (pattern.test(req.url())) seen.push(req.url());
  });
  return seen;
}

test('each screen has its own title', async () => {
  const { page } = ui;
  const expected: [string, string][] = [
    ['/', 'Stream · Hearth'],
    ['/photos', 'Photos · Hearth'],
    ['/photos/album/Holiday', 'Holiday · Photos · Hearth'],
    ['/groups', 'Groups · Hearth'],
    ['/connections', 'Connections · Hearth'],
    ['/notifications', 'Notifications · Hearth'],
    ['/settings', 'Settings · Hearth'],
    ['/settings/oauth/', 'Apps · Settings · Hearth'],
    ['/channels', 'Channels · Hearth'],
  ];
  for (const [path, title] of expected) {
    await page.goto(path);
    await page.waitForFunction((t) => document.title === t, title).catch(() => undefined);
    assert.equal(await page.title(), title, path);
  }
  ui.allowProblems(/\/not-a-screen/);
  await page.goto('/not-a-screen');
  await page.getByText('There is nothing at this address.').waitFor();
  assert.equal(await page.title(), 'Not found · Hearth');
});

test('focus stays inside the photo viewer while tabbing, both ways', async () => {
  const { page } = ui;
  const form = new FormData();
  form.append('album', 'Holiday');
  form.append('media', new Blob([new Uint8Array(await pngOf({ r: 240, g: 200, b: 40 }, 120, 90))], { type: 'image/png' }), 'sun.png');
  const res = await hub.request('/api/ext/photo/create.json', { as: 'alice', method: 'POST', body: form });
  assert.equal(res.status, 200);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/photos/album/Holiday?photo=${id}`);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Caption').waitFor();
  const inside = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press(key);
      assert.ok(await inside(), `focus left the viewer after ${i + 1} × ${key}`);
    }
  }
});

test('the bell badge sits beside the bell, not over it', async () => {
  const { page } = ui;
  const post = await postStatus(hub, 'alice', 'Anyone up for a walk?');
  await postStatus(hub, 'bob', 'Me!', { in_reply_to_status_id: String(post.id) });
  await page.goto('/');
  const badge = page.getByTestId('bell-count');
  await badge.waitFor();
  const bell = page.getByRole('link', { name: /^Notifications/ }).locator('svg');
  const [b, g] = [(await badge.boundingBox())!, (await bell.boundingBox())!];
  const overlap = Math.max(0, Math.min(b.x + b.width, g.x + g.width) - Math.max(b.x, g.x)) * Math.max(0, Math.min(b.y + b.height, g.y + g.height) - Math.max(b.y, g.y));
  assert.ok(overlap / (g.width * g.height) < 0.15, `the badge covers ${Math.round((100 * overlap) / (g.width * g.height))}% of the bell`);
  const center = { x: g.x + g.width / 2, y: g.y + g.height / 2 };
  assert.ok(!(center.x >= b.x && center.x <= b.x + b.width && center.y >= b.y && center.y <= b.y + b.height), 'the middle of the bell shows');
  const viewport = page.viewportSize()!;
  assert.ok(b.x + b.width <= viewport.width, 'the badge is not cut off');
  await ui.screenshots('bell-badge', { fullPage: false });
});

test('the Like button says what it does, and who liked', async () => {
  const { page } = ui;
  const status = await postStatus(hub, 'bob', 'A fine morning');
  await page.goto(`/item/${status.id}`);
  const like = page.locator(`article[data-status-id="${status.id}"]`).getByRole('button', { name: 'Like', exact: true });
  await like.waitFor();
  assert.equal(await like.getAttribute('title'), 'Like', 'an unliked post is not "Liked"');
  await like.click();
  const liked = page.locator(`article[data-status-id="${status.id}"]`).getByRole('button', { name: /Liked/ });
  await liked.waitFor();
  assert.equal(await liked.getAttribute('title'), 'Undo your like · Liked by Alice');
});

test('the notifications page does not say "All caught up" when they could not be loaded', async () => {
  const { page } = ui;
  ui.allowProblems(/\/api\/ext\/notifications/);
  await page.route('**/api/ext/notifications*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"the hub is busy","code":"503 Service Unavailable"}' }));
  try {
    await page.goto('/notifications');
    await page.getByRole('alert').filter({ hasText: 'Notifications could not be loaded' }).waitFor();
    assert.equal(await page.getByText('All caught up').count(), 0);
    await ui.screenshots('notifications-error', { fullPage: false });
  } finally {
    await page.unroute('**/api/ext/notifications*');
  }
});

test('files over the hub\'s upload limit are refused at once, saying the limit', async () => {
  const { page } = ui;
  const uploads = watchRequests(/\/api\/(z\/1\.0\/item\/update|ext\/photo\/create)/);
  const big = { name: 'holiday-video.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(UPLOAD_LIMIT + 50 * 1024, 1) };
  await page.goto('/');
  const composer = page.getByRole('form', { name: 'New post' });
  await composer.getByLabel('Message').click();
  await composer.getByLabel('Attach photos or files').setInputFiles(big);
  await composer.getByRole('alert').filter({ hasText: 'holiday-video.mp4 is 306 KB; the hub takes at most 256 KB at a time.' }).waitFor();
  assert.equal(await composer.getByRole('list', { name: 'Attachments' }).count(), 0, 'the file is not attached');

  await page.goto('/photos/album/Holiday');
  await page.getByLabel('Choose photos to upload').setInputFiles({ ...big, name: 'huge.png', mimeType: 'image/png' });
  await page.getByRole('list', { name: 'Uploads' }).getByRole('alert').filter({ hasText: 'huge.png is 306 KB; the hub takes at most 256 KB at a time.' }).waitFor();
  assert.deepEqual(uploads, [], 'nothing was sent');
});

test('album names with a slash are refused with a message, not changed', async () => {
  const { page } = ui;
  const uploads = watchRequests(/\/api\/ext\/photo\/create/);
  await page.goto('/photos');
  await page.getByRole('button', { name: 'Upload photos' }).click();
  await page.getByLabel('Album', { exact: true }).fill('Trips/2024');
  await page.getByLabel('Choose photos to upload').setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: await pngOf({ r: 1, g: 2, b: 3 }) });
  await page.getByRole('alert').filter({ hasText: 'An album name cannot contain “/” or “\\”.' }).waitFor();
  assert.deepEqual(uploads, []);

  await page.goto('/photos/album/Holiday');
  await page.getByRole('button', { name: 'Rename album' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename album' });
  await dialog.getByLabel('New name').fill('Summer\\Winter');
  await dialog.getByRole('button', { name: 'Rename' }).click();
  await dialog.getByRole('alert').filter({ hasText: 'An album name cannot contain' }).waitFor();
  const albums = await apiCall<{ albums: { text: string }[] }>(hub, 'alice', '/api/z/1.0/albums', {}, 'GET');
  assert.ok(albums.albums.some((a) => a.text === 'Holiday'), 'the album kept its name');
});
