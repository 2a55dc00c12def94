import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form } from '../helpers/media.js';
import { openUi, type Ui } from '../helpers/ui.js';

/** A 2400×1600 picture with detail to see at full size: sky, ridges, a sun and a caption. */
function ridge(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f6c27a"/><stop offset="1" stop-color="#e07a5f"/></linearGradient></defs>
    <rect width="2400" height="1600" fill="url(#sky)"/>
    <circle cx="1700" cy="520" r="190" fill="#ffe8a8"/>
    <path d="M0 1100 L500 620 L900 980 L1400 500 L1900 1000 L2400 700 L2400 1600 L0 1600 Z" fill="#3d5a6c"/>
    <path d="M0 1300 L600 950 L1100 1250 L1600 900 L2400 1300 L2400 1600 L0 1600 Z" fill="#2b3f4c"/>
    <text x="120" y="1500" font-family="sans-serif" font-size="120" fill="#fff">The ridge at dawn</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

let hub: TestHub;
let ui: Ui;
let photoId: string;

before(async () => {
  hub = await startHub({ channels: ['alice'] });
  const res = await hub.request('/api/ext/photo/create', {
    as: 'alice',
    method: 'POST',
    body: form({ album: 'Mountains', desc: 'The ridge at dawn' }, { media: { data: await ridge(), name: 'ridge.jpg', type: 'image/jpeg' } }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  photoId = ((await res.json()) as { id: string }).id;
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

const scaleOf = (url: string) => /\/photo\/[^/?]+-(\d)(?:\.\w+)?(?:\?|$)/.exec(url)?.[1];

test('the viewer shows a medium scale; the original is fetched only for "View full size" and "Download"', async () => {
  const { page } = ui;
  const photoRequests: string[] = [];
  page.on('request', (req) => {
    if (scaleOf(req.url()) !== undefined) photoRequests.push(req.url());
  });

  await page.goto(`/photos/album/Mountains`);
  await page.locator('.photo-grid a').first().click();
  const viewer = page.getByRole('dialog');
  await page.waitForFunction(() => (document.querySelector('.viewer-image') as HTMLImageElement | null)?.naturalWidth);
  const shown = await viewer.locator('.viewer-image').evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, src: img.src }));
  assert.notEqual(scaleOf(shown.src), '0', 'the viewer opens on a smaller scale');
  assert.ok(shown.w < 2400, `the first image is smaller than the original (${shown.w})`);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(photoRequests.filter((u) => scaleOf(u) === '0'), [], 'nothing has fetched the original yet');
  await ui.screenshots('photo-viewer-medium');

  await viewer.getByRole('button', { name: 'View full size' }).click();
  await page.waitForFunction(() => (document.querySelector('.viewer-full-image') as HTMLImageElement | null)?.naturalWidth);
  const full = await viewer.locator('.viewer-full-image').evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, h: img.naturalHeight, src: img.src }));
  assert.deepEqual([full.w, full.h, scaleOf(full.src)], [2400, 1600, '0']);
  assert.equal(photoRequests.filter((u) => scaleOf(u) === '0').length, 1, 'the original is fetched once asked for');
  await ui.screenshots('photo-viewer-full-size', { fullPage: false });

  await viewer.getByRole('button', { name: 'Fit to window' }).click();
  await viewer.locator('.viewer-image').waitFor();

  const [download] = await Promise.all([page.waitForEvent('download'), viewer.getByRole('link', { name: 'Download' }).click()]);
  assert.equal(download.suggestedFilename(), 'ridge.jpg');
  const saved = await readFile((await download.path())!);
  const meta = await sharp(saved).metadata();
  assert.deepEqual([meta.width, meta.height], [2400, 1600], 'the download is the original, not a scale');
  const original = await hub.request(new URL(full.src).pathname, { as: 'alice' });
  assert.deepEqual(saved, Buffer.from(await original.arrayBuffer()));
  assert.ok(photoId);
});
