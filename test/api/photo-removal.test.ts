import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { post } from '../helpers/native.js';
import { pngOf } from '../helpers/ui.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
});

after(async () => {
  await t?.stop();
});

interface Status {
  id: number;
  text: string;
  statusnet_html: string;
  attachments: { url: string }[] | null;
}

async function get<T>(path: string, as = 'alice'): Promise<{ status: number; json: T }> {
  const res = await t.request(path, { as });
  return { status: res.status, json: (await res.json()) as T };
}

/** A post with a photo uploaded along (it lands in the month's album), and the photo's resource id. */
async function postWithPhoto(body: string, filename: string) {
  const form = new FormData();
  form.append('body', body);
  form.append('media', new Blob([new Uint8Array(await pngOf({ r: 200, g: 40, b: 40 }))], { type: 'image/png' }), filename);
  const res = await t.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: form });
  assert.equal(res.status, 200);
  const item = ((await res.json()) as { item: { id: string; body: string } }).item;
  const resourceId = /\/photo\/([0-9a-f]{64})-/.exec(item.body)![1]!;
  const photo = (await get<{ album: string }>(`/api/ext/photo?photo_id=${resourceId}`)).json;
  return { id: Number(item.id), body: item.body, resourceId, album: photo.album };
}

test('the posts showing an album\'s or a photo\'s images are listed before deleting them', async () => {
  const shown = await postWithPhoto('Our trip', 'beach.png');
  const other = await post(t, 'alice', { body: 'No photo here' });
  const albumPosts = await get<Status[]>(`/api/ext/photoalbum/posts.json?album=${encodeURIComponent(shown.album)}`);
  assert.equal(albumPosts.status, 200);
  assert.deepEqual(albumPosts.json.map((s) => s.id), [shown.id], 'only the post showing the photo, not the photo itself');
  const photoPosts = await get<Status[]>(`/api/ext/photo/posts.json?photo_id=${shown.resourceId}`);
  assert.deepEqual(photoPosts.json.map((s) => s.id), [shown.id]);
  assert.ok(!albumPosts.json.some((s) => s.id === Number(other.id)));

  assert.equal((await get('/api/ext/photoalbum/posts.json')).status, 400);
  assert.equal((await get('/api/ext/photoalbum/posts.json?album=nothing-here')).status, 400);
  assert.equal((await get('/api/ext/photo/posts.json')).status, 400);
  assert.equal((await get(`/api/ext/photo/posts.json?photo_id=${shown.resourceId}`, 'nobody')).status, 401);
});

test('after its album is deleted, a post says "photo removed" where the photo was, and lists it no more', async () => {
  const shown = await postWithPhoto('Sunset at the lake', 'lake.png');
  const before = await get<Status>(`/api/statuses/show.json?id=${shown.id}`);
  assert.match(before.json.statusnet_html, /<img /);

  const res = await t.request('/api/ext/photoalbum/delete.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ album: shown.album }) });
  assert.equal(res.status, 200);

  const after = await get<Status>(`/api/statuses/show.json?id=${shown.id}`);
  assert.doesNotMatch(after.json.statusnet_html, /<img /, 'no broken image');
  assert.doesNotMatch(after.json.statusnet_html, new RegExp(shown.resourceId), 'no link to the photo that is gone');
  assert.match(after.json.statusnet_html, /Photo removed: lake\.png/);
  assert.match(after.json.statusnet_html, /Sunset at the lake/);
  assert.match(after.json.text, /Photo removed: lake\.png/);
  assert.equal(after.json.attachments, null, 'the deleted file is no attachment any more');

  // Edited later, the post still shows the note rather than the image.
  const edited = await post(t, 'alice', { post_id: String(shown.id), body: `${shown.body} (edited)` });
  assert.match(edited.html, /Photo removed: lake\.png/);
});
