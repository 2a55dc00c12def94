import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertError, call, NATIVE } from '../helpers/native.js';
import { form, makeImage } from '../helpers/media.js';
import { connect } from '../../server/services/connections.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  connect(t.hub, t.channels.alice!, t.channels.bob!.channel_hash);
  connect(t.hub, t.channels.bob!, t.channels.alice!.channel_hash);
});
after(() => t.stop());

async function upload(as: string, fields: Record<string, string | string[]>, media: { data: Uint8Array; name: string; type?: string }) {
  const res = await t.request(`${NATIVE}/item/update`, { as, method: 'POST', body: form(fields, { media }) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, text };
}

test('a 5 MB file posted as media is listed by files and downloads intact through filedata in 256 KiB chunks', async () => {
  const data = randomBytes(5 * 1024 * 1024);
  const r = await upload('alice', { body: 'the dataset' }, { data, name: 'dataset-5mb.bin', type: 'application/octet-stream' });
  assert.equal(r.status, 200, r.text);
  const item = r.json.item;
  assert.match(item.body, /the dataset$/);

  const listed = await call(t, 'alice', 'files?filename=dataset-5mb');
  assert.equal(listed.status, 200);
  assert.equal(listed.json.results.length, 1);
  const file = listed.json.results[0];
  assert.equal(file.filename, 'dataset-5mb.bin');
  assert.equal(file.filesize, String(data.length));
  assert.equal(file.is_photo, '0');
  assert.match(file.hash, /^[0-9a-f]{64}$/);

  // The post links the file: in the body and in item.attach.
  assert.ok(item.body.includes(file.hash), 'the body links the file');
  const attach = JSON.parse(item.attach);
  assert.deepEqual(attach.map((a: { href: string; length: number }) => [a.href, a.length]), [[`${t.url}/attach/${file.hash}`, data.length]]);

  const CHUNK = 256 * 1024;
  const sha = createHash('sha256');
  let chunks = 0;
  for (let start = 0; start < data.length; start += CHUNK) {
    const c = await call(t, 'alice', `filedata?file_id=${file.hash}&start=${start}&length=${CHUNK}`);
    assert.equal(c.status, 200);
    assert.equal(c.json.attach.start, start);
    assert.equal(c.json.attach.length, Math.min(CHUNK, data.length - start));
    sha.update(Buffer.from(c.json.attach.content, 'base64'));
    chunks++;
  }
  assert.equal(chunks, 20);
  assert.equal(sha.digest('hex'), createHash('sha256').update(data).digest('hex'));
});

test('an image posted as media becomes a photo shown in the post', async () => {
  const png = await makeImage(800, 600, 'png');
  const r = await upload('alice', { body: 'look at this' }, { data: png, name: 'sunset.png', type: 'image/png' });
  assert.equal(r.status, 200, r.text);
  const listed = await call(t, 'alice', 'files?filename=sunset');
  const file = listed.json.results[0];
  assert.equal(file.is_photo, '1');
  assert.match(r.json.item.body, new RegExp(`^\\[zrl=[^\\]]*${file.hash}[^\\]]*\\]\\[zmg[^\\]]*\\]`));
  assert.match(r.json.item.body, /\nlook at this$/);
  const photos = await call(t, 'alice', 'photos');
  assert.ok(photos.json.photos.some((p: { resource_id: string }) => p.resource_id === file.hash));
});

test('media take the audience of the post: a private post\'s file is private too', async () => {
  const bob = t.channels.bob!.channel_hash;
  const r = await upload('alice', { body: 'for bob only', 'contact_allow[]': bob }, { data: randomBytes(1000), name: 'secret-notes.txt', type: 'text/plain' });
  assert.equal(r.status, 200, r.text);
  const file = (await call(t, 'alice', 'files?filename=secret-notes')).json.results[0];
  assert.equal(file.allow_cid, `<${bob}>`);
  assert.equal(r.json.item.allow_cid, `<${bob}>`);
  // carol may not read it; the owner may.
  assert.equal((await call(t, 'carol', `filedata?file_id=${file.hash}`)).status, 404);
  assert.equal((await call(t, 'alice', `filedata?file_id=${file.hash}`)).status, 200);
});

test('media on a comment take the thread\'s audience; a refused post stores no file', async () => {
  const top = await call(t, 'alice', 'item/update', { form: { body: 'private thread', 'contact_allow[]': t.channels.bob!.channel_hash } });
  const c = await upload('bob', { body: 'my reply with a file', parent: top.json.item_id }, { data: randomBytes(500), name: 'reply-file.txt', type: 'text/plain' });
  assert.equal(c.status, 200, c.text);
  const file = (await call(t, 'bob', 'files?filename=reply-file')).json.results[0];
  assert.equal(file.allow_cid, top.json.item.allow_cid);

  const bad = await upload('alice', { body: 'x', contact_allow: 'nobody-at-all' }, { data: randomBytes(100), name: 'orphan-1.txt' });
  assertError(bad, 400, /contact_allow/);
  const badParent = await upload('alice', { body: 'x', parent: '999999' }, { data: randomBytes(100), name: 'orphan-2.txt' });
  assertError(badParent, 404);
  assert.deepEqual((await call(t, 'alice', 'files?filename=orphan')).json.results, []);
});

test('media added in an edit are appended to the item\'s attachments', async () => {
  const first = await upload('alice', { body: 'v1' }, { data: randomBytes(100), name: 'first.txt', type: 'text/plain' });
  const second = await upload('alice', { body: 'v2', post_id: first.json.item_id }, { data: randomBytes(200), name: 'second.txt', type: 'text/plain' });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.json.item_id, first.json.item_id);
  const attach = JSON.parse(second.json.item.attach);
  assert.deepEqual(attach.map((a: { length: number }) => a.length), [100, 200]);
  const bobs = await call(t, 'bob', 'item/update', { form: { body: 'bob item' } });
  assertError(await upload('alice', { body: 'x', post_id: bobs.json.item_id }, { data: randomBytes(10), name: 'hijack.txt' }), 404);
  assert.deepEqual((await call(t, 'alice', 'files?filename=hijack')).json.results, []);
});

test('a post of media alone needs no body text', async () => {
  const png = await makeImage(100, 80, 'png');
  const r = await upload('alice', {}, { data: png, name: 'just-a-picture.png', type: 'image/png' });
  assert.equal(r.status, 200, r.text);
  assert.match(r.json.item.body, /^\[zrl=[^\]]+\]\[zmg[^\]]*\][^\[]*\[\/zmg\]\[\/zrl\]$/);
  assertError(await call(t, 'alice', 'item/update', { form: { title: 'neither body nor media' } }), 400, /body/);
});

test('album names where a post\'s uploads go (Hearth\'s addition); without it they go to the month\'s, and a name with / is refused', async () => {
  const photo = await upload('alice', { body: 'in the garden album', album: 'Garden 2026' }, { data: await makeImage(120, 80), name: 'rose.png', type: 'image/png' });
  assert.equal(photo.status, 200, photo.text);
  const file = await upload('alice', { body: 'notes too', album: 'Garden 2026' }, { data: new TextEncoder().encode('plan'), name: 'plan.txt', type: 'text/plain' });
  assert.equal(file.status, 200, file.text);
  const albums = (await call(t, 'alice', 'albums')).json.albums as { text: string; total: string }[];
  assert.equal(albums.find((a) => a.text === 'Garden 2026')?.total, '1', 'the photo is in the album named');
  const listed = (await call(t, 'alice', 'files?filename=plan')).json.results as { folder: string }[];
  const folders = (await call(t, 'alice', 'files')).json.results as { hash: string; filename: string; is_dir: string }[];
  assert.equal(folders.find((f) => f.hash === listed[0]!.folder)?.filename, 'Garden 2026', 'a file goes to the same folder');

  const month = await upload('alice', { body: 'where by default' }, { data: await makeImage(60, 40), name: 'leaf.png', type: 'image/png' });
  assert.equal(month.status, 200, month.text);
  const after = (await call(t, 'alice', 'albums')).json.albums as { text: string }[];
  assert.ok(after.some((a) => /^\d{4}-\d{2}$/.test(a.text)), 'the month\'s album');

  const refused = await upload('alice', { body: 'nowhere', album: 'a/b' }, { data: await makeImage(60, 40), name: 'x.png', type: 'image/png' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /album name cannot contain/);
});

test('media are shown in the order they were sent, whatever order their uploads finish writing in', async () => {
  // A large first file finishes writing last; small ones after it finish first.
  const sizes = [[1600, 1200], [60, 40], [80, 50], [100, 60], [120, 70], [140, 80]] as const;
  const images = await Promise.all(sizes.map(([w, h]) => makeImage(w, h)));
  // Three posts: the order the writes finish in varies from one request to the next.
  for (let round = 0; round < 3; round++) {
    const body = new FormData();
    body.append('body', 'in order');
    for (const [i, image] of images.entries()) body.append('media', new Blob([new Uint8Array(image)], { type: 'image/png' }), `order-${i + 1}.png`);
    const res = await t.request(`${NATIVE}/item/update`, { as: 'bob', method: 'POST', body });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    const names = [...(JSON.parse(text).item.body as string).matchAll(/\[zmg=[^\]]*\](order-\d(?:\(\d+\))?)\.png\[\/zmg\]/g)].map((m) => m[1]!.replace(/\(\d+\)$/, ''));
    assert.deepEqual(names, sizes.map((_, i) => `order-${i + 1}`));
  }
});
