import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call } from '../helpers/compat.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { assertAllStrings, assertDatetimes, assertDigitStrings, assertKeys } from '../helpers/shapes.js';
import { createPhoto, type PhotoRecord } from '../../server/services/photos.js';
import { createItem } from '../../server/services/items.js';
import { toAclString } from '../../server/util/ids.js';

const API = '/api/z/1.0';
const PHOTO_LISTING_KEYS = ['resource_id', 'created', 'edited', 'title', 'description', 'album', 'filename', 'mimetype', 'height', 'width', 'filesize', 'imgscale', 'photo_usage', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid', 'src'];
const PHOTO_RECORD_KEYS = [
  'id', 'aid', 'uid', 'xchan', 'resource_id', 'created', 'edited', 'expires', 'title', 'description', 'album', 'filename', 'mimetype', 'height',
  'width', 'filesize', 'content', 'imgscale', 'photo_usage', 'profile', 'is_nsfw', 'os_storage', 'os_path', 'display_path', 'photo_flags',
  'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid',
];

let t: TestHub;
let trip: PhotoRecord;
let root: PhotoRecord;
let bobPrivate: PhotoRecord;
let bobPublic: PhotoRecord;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  const { alice, bob } = t.channels;
  trip = await createPhoto(t.hub, alice!, await tempUpload(await makeImage(1600, 1200), 'beach.jpg'), { album: 'My Trip', title: 'Beach', description: 'sunny' });
  await createPhoto(t.hub, alice!, await tempUpload(await makeImage(300, 500, 'png'), 'dune.png'), { album: 'My Trip' });
  root = await createPhoto(t.hub, alice!, await tempUpload(await makeImage(100, 100, 'gif'), 'dot.gif'), { album: '' });
  bobPrivate = await createPhoto(t.hub, bob!, await tempUpload(await makeImage(50, 50), 'secret.jpg'), { album: 'Private', acl: { allow_cid: toAclString([bob!.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' } });
  bobPublic = await createPhoto(t.hub, bob!, await tempUpload(await makeImage(50, 50), 'open.jpg'), { album: 'Open' });
  createItem(t.hub, alice!, { body: 'lovely beach', parentId: trip.item.id });
});

after(() => t.stop());

test('albums: exact entry shape, photo counts, root album named "/"', async () => {
  const a = await call(t, `${API}/albums`, { as: 'alice' });
  assert.equal(a.status, 200);
  assert.equal(a.body.success, true);
  assertKeys(a.body, ['success', 'albums']);
  for (const e of a.body.albums) {
    assertKeys(e, ['text', 'shorttext', 'jstext', 'total', 'url', 'urlencode', 'bin2hex'], 'album');
    assertAllStrings(e, 'album');
  }
  const byName = Object.fromEntries(a.body.albums.map((e: { text: string }) => [e.text, e]));
  assert.deepEqual(Object.keys(byName).sort(), ['/', 'My Trip']);
  assert.deepEqual(byName['My Trip'], {
    text: 'My Trip',
    shorttext: 'My Trip',
    jstext: 'My Trip',
    total: '2',
    url: `${t.hub.baseUrl}/photos/alice/album/4d792054726970`,
    urlencode: 'My+Trip',
    bin2hex: '4d792054726970',
  });
  assert.deepEqual(byName['/'], { text: '/', shorttext: '/', jstext: '/', total: '1', url: `${t.hub.baseUrl}/photos/alice/album/`, urlencode: '', bin2hex: '' });
  const bob = await call(t, `${API}/albums`, { as: 'bob' });
  assert.deepEqual(bob.body.albums.map((e: { text: string }) => e.text), ['Open', 'Private']);
});

test('albums of a channel without photos is an empty list; 401 without credentials; 405 for PUT', async () => {
  await t.addChannel('carol');
  assert.deepEqual((await call(t, `${API}/albums`, { as: 'carol' })).body, { success: true, albums: [] });
  assert.equal((await call(t, `${API}/albums`)).status, 401);
  assert.equal((await call(t, `${API}/albums`, { as: 'alice', method: 'PUT' })).status, 405);
});

test('photos: one entry per scale with src, integers as strings, optional album filter', async () => {
  const a = await call(t, `${API}/photos`, { as: 'alice' });
  assert.equal(a.status, 200);
  assert.equal(a.body.success, true);
  assert.equal(a.body.photos.length, 12, 'three photos with four scales each');
  for (const p of a.body.photos) {
    assertKeys(p, PHOTO_LISTING_KEYS, 'photo listing');
    assertAllStrings(p, 'photo listing');
    assertDigitStrings(p, ['height', 'width', 'filesize', 'imgscale', 'photo_usage'], 'photo listing');
    assertDatetimes(p, ['created', 'edited'], 'photo listing');
    assert.equal(p.src, `${t.hub.baseUrl}/photo/${p.resource_id}-${p.imgscale}.${{ 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif' }[p.mimetype as string]}`);
  }
  const beach = a.body.photos.filter((p: { resource_id: string }) => p.resource_id === trip.attach.hash);
  assert.deepEqual(beach.map((p: { imgscale: string; width: string; height: string }) => [p.imgscale, p.width, p.height]), [
    ['0', '1600', '1200'],
    ['1', '640', '480'],
    ['2', '320', '240'],
    ['3', '160', '120'],
  ]);
  assert.equal(beach[0].title, 'Beach');
  assert.equal(beach[0].description, 'sunny');
  const inTrip = (await call(t, `${API}/photos?album=${encodeURIComponent('My Trip')}`, { as: 'alice' })).body.photos;
  assert.equal(new Set(inTrip.map((p: { resource_id: string }) => p.resource_id)).size, 2);
  const inRoot = (await call(t, `${API}/photos?album=/`, { as: 'alice' })).body.photos;
  assert.deepEqual([...new Set(inRoot.map((p: { resource_id: string }) => p.resource_id))], [root.attach.hash]);
  assert.deepEqual((await call(t, `${API}/photos?album=nothing`, { as: 'alice' })).body, { success: true, photos: [] });
  assert.equal((await call(t, `${API}/photos`)).status, 401);
});

test('photo: the record of a scale with base64 bytes, plus the photo item and its comments', async () => {
  const a = await call(t, `${API}/photo?photo_id=${trip.attach.hash}&scale=2`, { as: 'alice' });
  assert.equal(a.status, 200);
  const p = a.body.photo;
  assertKeys(p, PHOTO_RECORD_KEYS, 'photo');
  assertAllStrings(p, 'photo');
  assertDigitStrings(p, ['id', 'aid', 'uid', 'height', 'width', 'filesize', 'imgscale', 'photo_usage', 'profile', 'is_nsfw', 'os_storage', 'photo_flags'], 'photo');
  assert.equal(p.imgscale, '2');
  const bytes = Buffer.from(p.content, 'base64');
  assert.equal(bytes.length, Number(p.filesize));
  const meta = await sharp(bytes).metadata();
  assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 320, 240]);
  assert.equal(a.body.item.length, 2, 'the photo item and one comment');
  assert.equal(a.body.item[0].resource_id, trip.attach.hash);
  assert.equal(a.body.item[0].resource_type, 'photo');
  assert.equal(a.body.item[0].item_hidden, '1');
  assert.equal(a.body.item[1].body, 'lovely beach');
  const scale0 = (await call(t, `${API}/photo?photo_id=${trip.attach.hash}`, { as: 'alice' })).body.photo;
  assert.equal(scale0.imgscale, '0', 'scale defaults to 0');
});

test('photo failures: 400 missing photo_id or bad scale, 404 unknown photo or scale, 401 anonymous', async () => {
  assert.equal((await call(t, `${API}/photo`, { as: 'alice' })).status, 400);
  assert.equal((await call(t, `${API}/photo?photo_id=${trip.attach.hash}&scale=x`, { as: 'alice' })).status, 400);
  const unknown = await call(t, `${API}/photo?photo_id=${'e'.repeat(64)}`, { as: 'alice' });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { success: false, message: 'photo not found' });
  assert.equal((await call(t, `${API}/photo?photo_id=${trip.attach.hash}&scale=5`, { as: 'alice' })).status, 404);
  assert.equal((await call(t, `${API}/photo?photo_id=${trip.attach.hash}`)).status, 401);
  assert.equal((await call(t, `${API}/photo?photo_id=${trip.attach.hash}`, { as: 'alice', method: 'DELETE' })).status, 405);
});

test('photo of another channel: private is 404, public is readable without the owner’s item metadata', async () => {
  const denied = await call(t, `${API}/photo?photo_id=${bobPrivate.attach.hash}`, { as: 'alice' });
  assert.equal(denied.status, 404);
  const open = await call(t, `${API}/photo?photo_id=${bobPublic.attach.hash}`, { as: 'alice' });
  assert.equal(open.status, 200);
  assert.equal(open.body.item.length, 1);
  assert.equal('allow_cid' in open.body.item[0], false, 'items of others in the plain portable form');
  assert.equal((await call(t, `${API}/photo?photo_id=${bobPrivate.attach.hash}`, { as: 'bob' })).status, 200);
  const photos = (await call(t, `${API}/photos`, { as: 'alice' })).body.photos;
  assert.equal(photos.some((p: { resource_id: string }) => p.resource_id === bobPublic.attach.hash), false, 'photos lists own photos only');
});
