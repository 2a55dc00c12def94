import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startHub, type TestHub } from '../helpers/hub.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { bodyWithMedia, claimMedia, itemAttachJson, uploadMedia, withPostMedia } from '../../server/services/media.js';
import { createPhoto } from '../../server/services/photos.js';
import { inspectImage } from '../../server/services/images.js';
import { createItem } from '../../server/services/items.js';
import { PUBLIC_ACL } from '../../server/services/acl.js';
import { toAclString } from '../../server/util/ids.js';
import { monthFolder } from '../../server/services/attachments.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
});

after(() => t.stop());

const HEX = '[0-9a-f]{64}';
const rows = (sql: string, ...args: unknown[]) => t.hub.db.prepare(sql).all(...args) as Record<string, unknown>[];

test('post media: an image becomes a photo (scales 0–3, hidden item) with the post’s ACL and a linked-image BBCode', async () => {
  const alice = t.channels.alice!;
  const acl = { allow_cid: toAclString([t.channels.bob!.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' };
  const item = await withPostMedia(t.hub, alice, [await tempUpload(await makeImage(800, 600), 'sunset.jpg', 'image/jpeg')], acl, (media) => {
    assert.equal(media.length, 1);
    const m = media[0]!;
    const base = t.hub.baseUrl;
    assert.match(m.bbcode, new RegExp(`^\\[zrl=${base}/photos/alice/image/(${HEX})\\]\\[zmg=${base}/photo/\\1-2\\.jpg\\]sunset\\.jpg\\[/zmg\\]\\[/zrl\\]$`));
    assert.deepEqual(m.attachEntry, { href: `${base}/attach/${m.attach.hash}`, length: m.attach.filesize, type: 'image/jpeg', title: 'sunset.jpg', revision: 0 });
    assert.equal(m.attach.folder !== '', true);
    assert.equal(m.photo?.imgscale, 0);
    return createItem(t.hub, alice, { body: bodyWithMedia('Look!', media), attach: itemAttachJson(media), acl });
  });
  assert.match(item.body, /\[\/zrl\]\nLook!$/);
  const hash = JSON.parse(item.attach)[0].href.split('/').pop();
  assert.deepEqual(rows('SELECT imgscale FROM photo WHERE resource_id = ? ORDER BY imgscale', hash).map((r) => r.imgscale), [0, 1, 2, 3]);
  for (const r of rows('SELECT allow_cid FROM photo WHERE resource_id = ?', hash)) assert.equal(r.allow_cid, acl.allow_cid);
  const [photoItem] = rows("SELECT allow_cid, item_hidden, obj_type FROM item WHERE resource_type = 'photo' AND resource_id = ?", hash);
  assert.deepEqual(photoItem, { allow_cid: acl.allow_cid, item_hidden: 1, obj_type: 'http://activitystrea.ms/schema/1.0/photo' });
  const [folder] = rows('SELECT f.filename FROM attach a JOIN attach f ON f.hash = a.folder WHERE a.hash = ?', hash);
  assert.equal(folder!.filename, monthFolder(alice), 'uploads go to the YYYY-MM folder');
});

test('post media: other files become a link; duplicate names get (1), (2)', async () => {
  const alice = t.channels.alice!;
  const media = await withPostMedia(t.hub, alice, [
    await tempUpload('a,b\n1,2\n', 'data.csv', 'text/csv'),
    await tempUpload('a,b\n3,4\n', 'data.csv', 'text/csv'),
    await tempUpload('a,b\n5,6\n', 'data.csv', null),
  ], PUBLIC_ACL, (m) => m);
  assert.deepEqual(media.map((m) => m.attach.filename), ['data.csv', 'data(1).csv', 'data(2).csv']);
  assert.deepEqual(media.map((m) => m.attach.filetype), ['text/csv', 'text/csv', 'text/csv']);
  assert.equal(media[1]!.bbcode, `[url=${t.hub.baseUrl}/attach/${media[1]!.attach.hash}]data(1).csv[/url]`);
  assert.equal(media[1]!.photo, undefined);
  assert.equal(media[1]!.attachEntry.title, 'data%281%29.csv');
});

test('post media: when the post fails, neither the files nor any rows remain', async () => {
  const before = { keys: (await t.hub.files.listKeys()).length, attach: rows('SELECT id FROM attach').length, photo: rows('SELECT id FROM photo').length, item: rows('SELECT id FROM item').length };
  await assert.rejects(
    withPostMedia(t.hub, t.channels.alice!, [await tempUpload(await makeImage(64, 64), 'a.jpg'), await tempUpload('text', 'b.txt', 'text/plain')], PUBLIC_ACL, () => {
      throw new Error('the post could not be stored');
    }),
    /could not be stored/,
  );
  const after = { keys: (await t.hub.files.listKeys()).length, attach: rows('SELECT id FROM attach').length, photo: rows('SELECT id FROM photo').length, item: rows('SELECT id FROM item').length };
  assert.deepEqual(after, before);
});

test('media/upload-style uploads are private and pending until a post claims them with its ACL', async () => {
  const alice = t.channels.alice!;
  const up = await uploadMedia(t.hub, alice, await tempUpload(await makeImage(700, 350, 'png'), 'chart.png'));
  assert.equal(up.photo.imgscale, 0);
  assert.equal(up.mediaId, up.photo.id);
  assert.equal(up.previewUrl, `${t.hub.baseUrl}/photo/${up.attach.hash}-2.png`);
  assert.equal(up.attach.allow_cid, `<${alice.channel_hash}>`);
  assert.equal(up.attach.flags, 1);
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/${up.attach.hash}-2.png`)).status, 404, 'not visible before it is posted');
  const claimed = t.hub.db.transaction(() => claimMedia(t.hub, alice, [up.mediaId], PUBLIC_ACL))();
  assert.equal(claimed[0]!.attach.flags, 0);
  assert.equal(claimed[0]!.attach.allow_cid, '');
  assert.match(claimed[0]!.bbcode, /\[zmg=.*-2\.png\]chart\.png\[\/zmg\]/);
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/${up.attach.hash}-2.png`)).status, 200, 'public with its post');
  const [photoItem] = rows("SELECT allow_cid, item_private FROM item WHERE resource_type = 'photo' AND resource_id = ?", up.attach.hash);
  assert.deepEqual(photoItem, { allow_cid: '', item_private: 0 });
  // A second post does not change the audience of media another post already uses.
  const secret = { allow_cid: toAclString([alice.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' };
  t.hub.db.transaction(() => claimMedia(t.hub, alice, [up.mediaId], secret))();
  assert.equal(rows('SELECT allow_cid FROM attach WHERE hash = ?', up.attach.hash)[0]!.allow_cid, '');
});

test('claimMedia refuses unknown ids, other channels’ uploads and ids of other scales (400)', async () => {
  const bobUp = await uploadMedia(t.hub, t.channels.bob!, await tempUpload(await makeImage(10, 10), 'b.jpg'));
  const scale1 = rows('SELECT id FROM photo WHERE resource_id = ? AND imgscale = 1', bobUp.attach.hash)[0]!.id as number;
  for (const [who, id] of [['alice', bobUp.mediaId], ['alice', 999999], ['bob', scale1]] as const) {
    assert.throws(() => claimMedia(t.hub, t.channels[who]!, [id], PUBLIC_ACL), (e: { status?: number }) => e.status === 400, `${who} ${id}`);
  }
  await assert.rejects(uploadMedia(t.hub, t.channels.bob!, await tempUpload('no image', 'x.jpg')), (e: { status?: number }) => e.status === 400);
});

test('EXIF orientation is applied: a sideways JPEG is stored upright', async () => {
  const sideways = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#08f' } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
  const info = await inspectImage((await tempUpload(sideways, 's.jpg')).filepath);
  assert.deepEqual([info.width, info.height, info.orientation], [100, 200, 6]);
  const p = await createPhoto(t.hub, t.channels.alice!, await tempUpload(sideways, 's.jpg'));
  assert.deepEqual(p.photos.map((r) => [r.imgscale, r.width, r.height]), [[0, 100, 200], [1, 100, 200], [2, 100, 200], [3, 80, 160]]);
  const scale0 = await sharp(await t.hub.files.read(t.hub.files.keyOf(p.photos[0]!.content)!)).metadata();
  assert.deepEqual([scale0.width, scale0.height], [100, 200]);
  assert.equal(scale0.orientation, undefined, 'no orientation left to apply');
});

test('originals larger than 4096 px are capped at scale 0; the original file is kept as uploaded', async () => {
  const big = await sharp({ create: { width: 5000, height: 1000, channels: 3, background: '#333' } }).png().toBuffer();
  const p = await createPhoto(t.hub, t.channels.alice!, await tempUpload(big, 'wide.png'));
  assert.deepEqual([p.photos[0]!.width, p.photos[0]!.height], [4096, 819]);
  assert.equal(p.attach.filesize, big.length);
  assert.ok((await t.hub.files.read(t.hub.files.keyOf(p.attach.content)!)).equals(big));
});

test('animated GIFs keep their frames in every scale', async () => {
  const frames = await Promise.all(['#f00', '#0f0', '#00f'].map((c) => sharp({ create: { width: 400, height: 300, channels: 3, background: c } }).png().toBuffer()));
  const anim = await sharp(frames, { join: { animated: true } }).gif({ loop: 0 }).toBuffer();
  assert.equal((await sharp(anim, { animated: true }).metadata()).pages, 3);
  const p = await createPhoto(t.hub, t.channels.alice!, await tempUpload(anim, 'anim.gif'));
  assert.deepEqual([p.photos[0]!.width, p.photos[0]!.height, p.photos[0]!.mimetype], [400, 300, 'image/gif']);
  const scale2 = await sharp(await t.hub.files.read(t.hub.files.keyOf(p.photos[2]!.content)!), { animated: true }).metadata();
  assert.deepEqual([scale2.width, scale2.pageHeight, scale2.pages], [320, 240, 3]);
});
