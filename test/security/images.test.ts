import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { tallPng } from '../helpers/hostile.js';

// Issue 16, finding 6: an image of a few hundred KB declaring 1 × 99,000,000 px stalled the photo
// pipeline (98 s, and every upload behind it waited). Every way in refuses it from its header.

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice'] });
});
after(() => t.stop());

type Media = { data: Uint8Array; name: string; type: string };

/** Every upload path, as a client would call it with one image. */
const UPLOADS: [string, (media: Media) => Promise<Response>][] = [
  ['ext/photo/create', (media) => t.request('/api/ext/photo/create.json', { as: 'alice', method: 'POST', body: form({ album: 'Holidays' }, { media }) })],
  ['media/upload', (media) => t.request('/api/media/upload.json', { as: 'alice', method: 'POST', body: form({}, { media }) })],
  ['statuses/update_with_media', (media) => t.request('/api/statuses/update_with_media.json', { as: 'alice', method: 'POST', body: form({ status: 'look' }, { media }) })],
  ['account/update_profile_image', (media) => t.request('/api/account/update_profile_image.json', { as: 'alice', method: 'POST', body: form({}, { image: media }) })],
  ['native item/update', (media) => t.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: form({ body: 'look' }, { media }) })],
];

test('a tiny PNG of 1 × 99,000,000 px is refused with 422 and a message on every upload path; a normal one goes through', { timeout: 120_000 }, async () => {
  const tall = { data: await tallPng(1, 99_000_000), name: 'tall.png', type: 'image/png' };
  assert.ok(tall.data.length < 1024 * 1024, `the file is small (${tall.data.length} bytes)`);
  const wide = { data: await tallPng(40_000, 2), name: 'wide.png', type: 'image/png' };
  const normal = { data: new Uint8Array(await makeImage(64, 48, 'png')), name: 'fine.png', type: 'image/png' };
  for (const [name, upload] of UPLOADS) {
    for (const huge of [wide, tall]) {
      const res = await upload(huge);
      const body = await res.text();
      assert.equal(res.status, 422, `${name} ${huge.name}: ${body}`);
      assert.match(body, /too large to process: at most 30000 pixels per side/);
    }
    const ok = await upload(normal);
    assert.equal(ok.status, 200, `${name} after the refusals: ${await ok.text()}`);
  }
});
