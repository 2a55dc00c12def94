import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call, fails, parseXml } from '../helpers/compat.js';
import { form, makeImage } from '../helpers/media.js';
import { assertKeys, DATETIME, HEX64 } from '../helpers/shapes.js';
import { connect } from '../../server/services/connections.js';

const PHOTO_KEYS = ['id', 'created', 'edited', 'title', 'desc', 'album', 'filename', 'type', 'height', 'width', 'profile', 'link', 'friendica_activities', 'friendica_comments', 'rights_mismatch'];
const WITH_DATA_KEYS = ['id', 'created', 'edited', 'title', 'desc', 'album', 'filename', 'type', 'height', 'width', 'profile', 'link', 'datasize', 'data', 'friendica_activities', 'friendica_comments', 'rights_mismatch'];

let t: TestHub;
let jpeg: Buffer;
let bobCid: number;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  jpeg = await makeImage(1200, 900);
  bobCid = connect(t.hub, t.channels.alice!, t.channels.bob!.channel_hash).connection.abook_id;
});

after(() => t.stop());

function createForm(fields: Record<string, string>, data: Buffer | string = jpeg, name = 'holiday.jpg') {
  return form(fields, { media: { data, name, type: 'image/jpeg' } });
}

async function create(fields: Record<string, string> = { album: 'Holidays' }, as = 'alice'): Promise<any> {
  const a = await call(t, '/api/ext/photo/create.json', { as, method: 'POST', body: createForm(fields) });
  assert.equal(a.status, 200, a.text.slice(0, 300));
  return a.body;
}

function counts() {
  const n = (sql: string) => (t.hub.db.prepare(sql).get() as { n: number }).n;
  return { attach: n('SELECT count(*) AS n FROM attach WHERE is_dir = 0'), photo: n('SELECT count(*) AS n FROM photo'), item: n('SELECT count(*) AS n FROM item') };
}

test('ext/photo/create answers the photo: strings, numeric height/width, link per scale 0–2', async () => {
  const p = await create({ album: 'Holidays', desc: 'at the sea', title: 'Sea' });
  assertKeys(p, PHOTO_KEYS, 'photo');
  assert.match(p.id, HEX64);
  assert.match(p.created, DATETIME);
  assert.match(p.edited, DATETIME);
  assert.deepEqual([p.title, p.desc, p.album, p.filename, p.type, p.profile], ['Sea', 'at the sea', 'Holidays', 'holiday.jpg', 'image/jpeg', '0']);
  assert.equal(p.height, 900);
  assert.equal(p.width, 1200);
  assert.deepEqual(Object.keys(p.link), ['0', '1', '2']);
  for (const [scale, url] of Object.entries(p.link as Record<string, string>)) assert.equal(url, `${t.hub.baseUrl}/photo/${p.id}-${scale}.jpg`);
  assert.deepEqual(p.friendica_comments.length, 1, 'the photo’s own item');
  assert.deepEqual(Object.keys(p.friendica_activities).sort(), ['attendmaybe', 'attendno', 'attendyes', 'dislike', 'like']);
  assert.equal(p.rights_mismatch, false);
});

test('the scales ext/photo lists are reachable at their URLs, within their bounds; there is no scale 3', async () => {
  const p = await create();
  const listed = (await call(t, `/api/ext/photo?photo_id=${p.id}`, { as: 'alice' })).body;
  const bounds: Record<string, [number, number]> = { '0': [1200, 900], '1': [640, 480], '2': [320, 240] };
  for (const [scale, url] of Object.entries(listed.link as Record<string, string>)) {
    const res = await fetch(url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers.get('content-type'), 'image/jpeg');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], bounds[scale], `scale ${scale}`);
  }
  assert.equal((await call(t, `/api/ext/photo?photo_id=${p.id}&scale=3`, { as: 'alice' })).status, 404);
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/${p.id}-3.jpg`)).status, 404);
});

test('ext/photo with scale returns base64 data whose decoded size equals datasize', async () => {
  const p = await create();
  const a = await call(t, `/api/ext/photo.json?photo_id=${p.id}&scale=1`, { as: 'alice' });
  assert.equal(a.status, 200);
  assertKeys(a.body, WITH_DATA_KEYS, 'photo with scale');
  assert.equal(typeof a.body.datasize, 'string');
  const bytes = Buffer.from(a.body.data, 'base64');
  assert.equal(bytes.length, Number(a.body.datasize));
  assert.deepEqual([a.body.width, a.body.height], [640, 480]);
  assert.deepEqual(Object.keys(a.body.link), ['1']);
  const served = Buffer.from(await (await fetch(a.body.link['1'])).arrayBuffer());
  assert.ok(served.equals(bytes), 'the same bytes as the scale URL');
});

test('ext/photo XML: photo element, links type=array with link type/scale/href attributes; with scale data and datasize', async () => {
  const p = await create();
  const doc = parseXml((await call(t, `/api/ext/photo.xml?photo_id=${p.id}`, { as: 'alice' })).text);
  const photo = doc.photo;
  assert.ok(photo, 'root photo');
  for (const el of ['id', 'created', 'edited', 'title', 'desc', 'album', 'filename', 'type', 'height', 'width', 'profile']) assert.ok(el in photo, `element ${el}`);
  assert.equal(photo.id, p.id);
  assert.equal(photo.width, '1200');
  assert.equal(photo.links['@_type'], 'array');
  const links = [photo.links.link].flat();
  assert.deepEqual(links.map((l: Record<string, string>) => [l['@_scale'], l['@_type'], l['@_href']]), [0, 1, 2].map((s) => [String(s), 'image/jpeg', `${t.hub.baseUrl}/photo/${p.id}-${s}.jpg`]));
  const withScale = parseXml((await call(t, `/api/ext/photo.xml?photo_id=${p.id}&scale=2`, { as: 'alice' })).text).photo;
  assert.equal(Buffer.from(withScale.data, 'base64').length, Number(withScale.datasize));
  assert.equal([withScale.links.link].flat().length, 1);
  const created = parseXml((await call(t, '/api/ext/photo/create.xml', { as: 'alice', method: 'POST', body: createForm({ album: 'X' }) })).text);
  assert.equal(created.photo_create.album, 'X');
});

test('ext/photo failures: 400 without photo_id (JSON and XML bodies), 404 unknown, 401 anonymous', async () => {
  assert.equal(await fails(t, '/api/ext/photo.json', 400, { as: 'alice' }), 'No photo id.');
  assert.equal(await fails(t, '/api/ext/photo.xml', 400, { as: 'alice' }), 'No photo id.');
  await fails(t, `/api/ext/photo.json?photo_id=${'1'.repeat(64)}`, 404, { as: 'alice' });
  await fails(t, '/api/ext/photo.json?photo_id=1', 404, { as: 'alice' });
  const p = await create();
  await fails(t, `/api/ext/photo.json?photo_id=${p.id}`, 401);
});

test('ext/photo/create failures: no album, no media, not an image, pixel bomb, invalid ACL; nothing is stored', async () => {
  const before = counts();
  assert.equal(await fails(t, '/api/ext/photo/create.json', 400, { as: 'alice', method: 'POST', body: form({}, { media: { data: jpeg, name: 'a.jpg' } }) }), 'no album name specified');
  assert.equal(await fails(t, '/api/ext/photo/create.json', 400, { as: 'alice', method: 'POST', body: form({ album: 'A' }) }), 'no media data submitted');
  assert.match(await fails(t, '/api/ext/photo/create.json', 400, { as: 'alice', method: 'POST', body: createForm({ album: 'A' }, 'this is text, not a picture') }), /not a decodable image/);
  assert.match(await fails(t, '/api/ext/photo/create.xml', 400, { as: 'alice', method: 'POST', body: createForm({ album: 'A' }, Buffer.alloc(0)) }), /not a decodable image/);
  assert.match(await fails(t, '/api/ext/photo/create.json', 422, { as: 'alice', method: 'POST', body: createForm({ album: 'A' }, pixelBomb(30000, 30000), 'bomb.png') }), /too large to process/);
  assert.equal(await fails(t, '/api/ext/photo/create.json', 400, { as: 'alice', method: 'POST', body: createForm({ album: 'A', allow_cid: '<99999>' }) }), 'acl data invalid');
  assert.deepEqual(counts(), before);
  await fails(t, '/api/ext/photo/create.json', 405, { as: 'alice' });
  await fails(t, '/api/ext/photo/create.json', 401, { method: 'POST', body: createForm({ album: 'A' }) });
});

/** A PNG whose header claims huge dimensions over a few bytes of data. */
function pixelBomb(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])), chunk('IEND', Buffer.alloc(0))]);
}

test('a photo restricted to a contact (allow_cid=<cid>) is visible to that contact only', async () => {
  const p = await create({ album: 'Friends', allow_cid: `<${bobCid}>` });
  const row = t.hub.db.prepare('SELECT allow_cid FROM photo WHERE resource_id = ? LIMIT 1').get(p.id) as { allow_cid: string };
  assert.equal(row.allow_cid, `<${t.channels.bob!.channel_hash}>`);
  assert.equal((await call(t, `/api/ext/photo?photo_id=${p.id}`, { as: 'bob' })).status, 200);
  assert.equal((await call(t, `/api/ext/photo?photo_id=${p.id}`, { as: 'carol' })).status, 404);
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/${p.id}-2.jpg`)).status, 404, 'anonymous');
  assert.equal((await t.request(`/photo/${p.id}-2.jpg`, { as: 'bob' })).status, 200);
  assert.equal((await t.request(`/photo/${p.id}-2.jpg`, { as: 'carol' })).status, 404);
});

test('ext/photos/list: id, album, filename, type, thumb (scale 2) in JSON; photo elements with attributes in XML', async () => {
  await t.addChannel('dave');
  const p = await call(t, '/api/ext/photo/create.json', { as: 'dave', method: 'POST', body: createForm({ album: 'Dogs' }) });
  const png = await call(t, '/api/ext/photo/create.json', { as: 'dave', method: 'POST', body: form({ album: 'Dogs' }, { media: { data: await makeImage(30, 20, 'png'), name: 'tiny.png' } }) });
  const list = await call(t, '/api/ext/photos/list.json', { as: 'dave' });
  assert.equal(list.status, 200);
  assert.deepEqual(list.body, [
    { id: p.body.id, album: 'Dogs', filename: 'holiday.jpg', type: 'image/jpeg', thumb: `${t.hub.baseUrl}/photo/${p.body.id}-2.jpg` },
    { id: png.body.id, album: 'Dogs', filename: 'tiny.png', type: 'image/png', thumb: `${t.hub.baseUrl}/photo/${png.body.id}-2.png` },
  ]);
  const xml = await call(t, '/api/ext/photos/list.xml', { as: 'dave' });
  assert.match(xml.res.headers.get('content-type') ?? '', /xml/);
  const doc = parseXml(xml.text);
  assert.equal(doc.photos['@_type'], 'array');
  const entries = [doc.photos.photo].flat();
  assert.deepEqual(entries.map((e: Record<string, string>) => [e['@_id'], e['@_album'], e['@_filename'], e['@_type'], e['#text']]), [
    [p.body.id, 'Dogs', 'holiday.jpg', 'image/jpeg', `${t.hub.baseUrl}/photo/${p.body.id}-2.jpg`],
    [png.body.id, 'Dogs', 'tiny.png', 'image/png', `${t.hub.baseUrl}/photo/${png.body.id}-2.png`],
  ]);
  await fails(t, '/api/ext/photos/list.json', 401);
});

test('ext/photo/update changes desc, title, album and ACL; answers updated, or cancelled when nothing changes', async () => {
  const p = await create({ album: 'Before' });
  const up = await call(t, '/api/ext/photo/update.json', { as: 'alice', method: 'POST', body: form({ photo_id: p.id, album: 'Before', album_new: 'After', desc: 'new words', title: 'T2' }) });
  assert.equal(up.status, 200);
  assert.deepEqual(up.body, { result: 'updated', message: `Image id \`${p.id}\` has been updated.` });
  const now = (await call(t, `/api/ext/photo?photo_id=${p.id}`, { as: 'alice' })).body;
  assert.deepEqual([now.album, now.desc, now.title], ['After', 'new words', 'T2']);
  const folder = t.hub.db.prepare('SELECT f.filename FROM attach a JOIN attach f ON f.hash = a.folder WHERE a.hash = ?').get(p.id) as { filename: string };
  assert.equal(folder.filename, 'After', 'the file moved to the new album’s folder');
  const same = await call(t, '/api/ext/photo/update.xml', { as: 'alice', method: 'POST', body: form({ photo_id: p.id, album: 'After' }) });
  const doc = parseXml(same.text);
  assert.deepEqual(doc.photo_update.result, 'cancelled');
  assert.equal(doc.photo_update.message, `Nothing to update for image id \`${p.id}\`.`);
  // Making it private hides it from others and from anonymous URLs; an empty value makes it public again.
  await call(t, '/api/ext/photo/update.json', { as: 'alice', method: 'POST', body: form({ photo_id: p.id, album: 'After', allow_cid: `<${bobCid}>` }) });
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/${p.id}-0.jpg`)).status, 404);
  assert.equal((await call(t, `/api/ext/photo?photo_id=${p.id}`, { as: 'carol' })).status, 404);
  const item = t.hub.db.prepare("SELECT allow_cid, item_private FROM item WHERE resource_type = 'photo' AND resource_id = ?").get(p.id) as { allow_cid: string; item_private: number };
  assert.deepEqual(item, { allow_cid: `<${t.channels.bob!.channel_hash}>`, item_private: 1 }, 'the photo item follows');
  await call(t, '/api/ext/photo/update.json', { as: 'alice', method: 'POST', body: form({ photo_id: p.id, album: 'After', allow_cid: '' }) });
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/${p.id}-0.jpg`)).status, 200);
});

test('ext/photo/update with a new media file replaces the image and answers the photo', async () => {
  const p = await create({ album: 'Replace' });
  const a = await call(t, '/api/ext/photo/update.json', { as: 'alice', method: 'POST', body: form({ photo_id: p.id, album: 'Replace', desc: 'swapped' }, { media: { data: await makeImage(500, 1000, 'png'), name: 'new.png' } }) });
  assert.equal(a.status, 200, a.text);
  assertKeys(a.body, PHOTO_KEYS, 'updated photo');
  assert.deepEqual([a.body.id, a.body.width, a.body.height, a.body.type, a.body.desc], [p.id, 500, 1000, 'image/png', 'swapped']);
  const res = await fetch(`${t.hub.baseUrl}/photo/${p.id}-1.png`);
  assert.equal(res.headers.get('content-type'), 'image/png');
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  assert.deepEqual([meta.width, meta.height], [320, 640]);
  const xml = parseXml((await call(t, '/api/ext/photo/update.xml', { as: 'alice', method: 'POST', body: form({ photo_id: p.id, album: 'Replace' }, { media: { data: jpeg, name: 'b.jpg' } }) })).text);
  assert.equal(xml.photo_update.width, '1200');
});

test('ext/photo/update failures: 400 no photo_id, no album, wrong album, unknown or foreign photo, bad image; 405; 401', async () => {
  const p = await create({ album: 'Mine' });
  const bobs = await create({ album: 'Bobs' }, 'bob');
  assert.equal(await fails(t, '/api/ext/photo/update.json', 400, { as: 'alice', method: 'POST', body: form({ album: 'Mine' }) }), 'no photo_id specified');
  assert.equal(await fails(t, '/api/ext/photo/update.json', 400, { as: 'alice', method: 'POST', body: form({ photo_id: p.id }) }), 'no albumname specified');
  assert.equal(await fails(t, '/api/ext/photo/update.json', 400, { as: 'alice', method: 'POST', body: form({ photo_id: p.id, album: 'Other' }) }), 'photo not available');
  assert.equal(await fails(t, '/api/ext/photo/update.json', 400, { as: 'alice', method: 'POST', body: form({ photo_id: 'f'.repeat(64), album: 'Mine' }) }), 'photo not available');
  assert.equal(await fails(t, '/api/ext/photo/update.json', 400, { as: 'alice', method: 'POST', body: form({ photo_id: bobs.id, album: 'Bobs', desc: 'mine now' }) }), 'photo not available');
  await fails(t, '/api/ext/photo/update.json', 400, { as: 'alice', method: 'POST', body: form({ photo_id: p.id, album: 'Mine' }, { media: { data: 'garbage', name: 'x.jpg' } }) });
  assert.equal((await call(t, `/api/ext/photo?photo_id=${p.id}&scale=0`, { as: 'alice' })).body.width, 1200, 'a refused image changes nothing');
  await fails(t, `/api/ext/photo/update.json?photo_id=${p.id}&album=Mine`, 405, { as: 'alice' });
  await fails(t, '/api/ext/photo/update.json', 401, { method: 'POST', body: form({ photo_id: p.id, album: 'Mine' }) });
});

test('ext/photo/delete (DELETE) removes every scale and file and marks the photo’s items deleted', async () => {
  const p = await create({ album: 'Gone' });
  const itemIds = (t.hub.db.prepare("SELECT id FROM item WHERE resource_type = 'photo' AND resource_id = ?").all(p.id) as { id: number }[]).map((r) => r.id);
  assert.equal(itemIds.length, 1);
  const keysBefore = (await t.hub.files.listKeys()).length;
  const a = await call(t, `/api/ext/photo/delete.json?photo_id=${p.id}`, { as: 'alice', method: 'DELETE' });
  assert.equal(a.status, 200);
  assert.deepEqual(a.body, { result: 'deleted', message: `photo with id \`${p.id}\` has been deleted from server.` });
  assert.equal((t.hub.db.prepare('SELECT count(*) AS n FROM photo WHERE resource_id = ?').get(p.id) as { n: number }).n, 0);
  assert.equal((t.hub.db.prepare('SELECT count(*) AS n FROM attach WHERE hash = ?').get(p.id) as { n: number }).n, 0);
  assert.equal((t.hub.db.prepare('SELECT item_deleted FROM item WHERE id = ?').get(itemIds[0]) as { item_deleted: number }).item_deleted, 1);
  assert.equal((await t.hub.files.listKeys()).length, keysBefore - 4, 'three scales and the original file are removed');
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/${p.id}-0.jpg`)).status, 404);
  await fails(t, `/api/ext/photo.json?photo_id=${p.id}`, 404, { as: 'alice' });
});

test('ext/photo/delete: XML envelope; 400 no photo_id, unknown or foreign photo; POST is 405; 401', async () => {
  const p = await create({ album: 'Gone' });
  const bobs = await create({ album: 'Bobs' }, 'bob');
  const doc = parseXml((await call(t, `/api/ext/photo/delete.xml?photo_id=${p.id}`, { as: 'alice', method: 'DELETE' })).text);
  assert.equal(doc.photo_delete.result, 'deleted');
  assert.equal(await fails(t, '/api/ext/photo/delete.json', 400, { as: 'alice', method: 'DELETE' }), 'no photo_id specified');
  assert.equal(await fails(t, '/api/ext/photo/delete.json?photo_id=1', 400, { as: 'alice', method: 'DELETE' }), 'photo not available');
  assert.equal(await fails(t, `/api/ext/photo/delete.json?photo_id=${bobs.id}`, 400, { as: 'alice', method: 'DELETE' }), 'photo not available');
  assert.equal((await call(t, `/api/ext/photo?photo_id=${bobs.id}`, { as: 'bob' })).status, 200, 'bob’s photo is untouched');
  await fails(t, `/api/ext/photo/delete.json?photo_id=${bobs.id}`, 405, { as: 'bob', method: 'POST' });
  await fails(t, `/api/ext/photo/delete.json?photo_id=${bobs.id}`, 401, { method: 'DELETE' });
});

test('ext/photoalbum/update renames an album; errors 400; wrong method 405; 401', async () => {
  const p = await create({ album: 'test_album' });
  const a = await call(t, '/api/ext/photoalbum/update.json', { as: 'alice', method: 'POST', body: form({ album: 'test_album', album_new: 'test_album_2' }) });
  assert.equal(a.status, 200);
  assert.deepEqual(a.body, { result: 'updated', message: 'album `test_album` with all containing photos has been renamed to `test_album_2`.' });
  assert.equal((await call(t, `/api/ext/photo?photo_id=${p.id}`, { as: 'alice' })).body.album, 'test_album_2');
  const xml = parseXml((await call(t, '/api/ext/photoalbum/update.xml', { as: 'alice', method: 'PUT', body: form({ album: 'test_album_2', album_new: 'test_album_3' }) })).text);
  assert.equal(xml.photoalbum_update.result, 'updated');
  assert.equal(await fails(t, '/api/ext/photoalbum/update.json', 400, { as: 'alice', method: 'POST' }), 'no albumname specified');
  assert.equal(await fails(t, '/api/ext/photoalbum/update.json', 400, { as: 'alice', method: 'POST', body: form({ album: 'test_album_3' }) }), 'no new albumname specified');
  assert.equal(await fails(t, '/api/ext/photoalbum/update.json', 400, { as: 'alice', method: 'POST', body: form({ album: 'album_name', album_new: 'x' }) }), 'album not available');
  await fails(t, '/api/ext/photoalbum/update.json', 400, { as: 'bob', method: 'POST', body: form({ album: 'test_album_3', album_new: 'x' }) });
  await fails(t, '/api/ext/photoalbum/update.json', 405, { as: 'alice', method: 'DELETE' });
  await fails(t, '/api/ext/photoalbum/update.json', 401, { method: 'POST', body: form({ album: 'test_album_3', album_new: 'x' }) });
});

test('ext/photoalbum/delete deletes every photo of the album; errors 400; wrong method 405; 401', async () => {
  const one = await create({ album: 'doomed' });
  const two = await create({ album: 'doomed' });
  const keep = await create({ album: 'kept' });
  const a = await call(t, '/api/ext/photoalbum/delete.json', { as: 'alice', method: 'POST', body: form({ album: 'doomed' }) });
  assert.equal(a.status, 200);
  assert.deepEqual(a.body, { result: 'deleted', message: 'album `doomed` with all containing photos has been deleted.' });
  for (const p of [one, two]) assert.equal((await call(t, `/api/ext/photo?photo_id=${p.id}`, { as: 'alice' })).status, 404);
  assert.equal((await call(t, `/api/ext/photo?photo_id=${keep.id}`, { as: 'alice' })).status, 200);
  const xml = parseXml((await call(t, '/api/ext/photoalbum/delete.xml?album=kept', { as: 'alice', method: 'DELETE' })).text);
  assert.equal(xml.photoalbum_delete.result, 'deleted');
  assert.equal(await fails(t, '/api/ext/photoalbum/delete.json', 400, { as: 'alice', method: 'POST' }), 'no albumname specified');
  assert.equal(await fails(t, '/api/ext/photoalbum/delete.json', 400, { as: 'alice', method: 'POST', body: form({ album: 'doomed' }) }), 'album not available');
  await fails(t, '/api/ext/photoalbum/delete.json', 405, { as: 'alice', method: 'PUT', body: form({ album: 'x' }) });
  await fails(t, '/api/ext/photoalbum/delete.json', 401, { method: 'POST', body: form({ album: 'x' }) });
});

test('account/update_profile_image makes the upload the profile photo at scales 4–6 and answers the user', async () => {
  const erin = await t.addChannel('erin');
  const before = (t.hub.db.prepare('SELECT xchan_photo_date FROM xchan WHERE xchan_hash = ?').get(erin.channel_hash) as { xchan_photo_date: string }).xchan_photo_date;
  const a = await call(t, '/api/account/update_profile_image.json', { as: 'erin', method: 'POST', body: form({}, { image: { data: await makeImage(640, 480), name: 'me.jpg' } }) });
  assert.equal(a.status, 200, a.text.slice(0, 300));
  assert.equal(a.body.screen_name, 'erin');
  assert.equal(typeof a.body.id, 'number');
  for (const [size, px] of [['l', 300], ['m', 80], ['s', 48]] as const) {
    const res = await fetch(`${t.hub.baseUrl}/photo/profile/${size}/${erin.channel_id}`);
    assert.equal(res.headers.get('content-type'), 'image/jpeg');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [px, px], `profile photo ${size}`);
  }
  const x = t.hub.db.prepare('SELECT xchan_photo_date, xchan_photo_l, xchan_photo_mimetype FROM xchan WHERE xchan_hash = ?').get(erin.channel_hash) as Record<string, string>;
  assert.ok(x.xchan_photo_date! >= before);
  assert.equal(x.xchan_photo_l, `${t.hub.baseUrl}/photo/profile/l/${erin.channel_id}`);
  assert.equal(x.xchan_photo_mimetype, 'image/jpeg');
  const profile = t.hub.db.prepare('SELECT photo, thumb FROM profile WHERE uid = ? AND is_default = 1').get(erin.channel_id) as { photo: string; thumb: string };
  const resource = profile.photo.match(/\/photo\/([0-9a-f]{64})-4\.jpg$/)?.[1];
  assert.ok(resource, profile.photo);
  assert.equal(profile.thumb, `${t.hub.baseUrl}/photo/${resource}-5.jpg`);
  const photo = (await call(t, `/api/ext/photo?photo_id=${resource}`, { as: 'erin' })).body;
  assert.equal(photo.profile, '1');
  assert.deepEqual(Object.keys(photo.link), ['4', '5', '6']);
  const listed = (await call(t, '/api/ext/photos/list.json', { as: 'erin' })).body;
  assert.deepEqual(listed.map((e: Record<string, string>) => e.thumb), [`${t.hub.baseUrl}/photo/${resource}-5.jpg`], 'a profile photo lists its scale 5');
  // The fallback field name `media`, and XML.
  const xml = await call(t, '/api/account/update_profile_image.xml', { as: 'erin', method: 'POST', body: form({}, { media: { data: await makeImage(90, 90, 'png'), name: 'me.png' } }) });
  assert.equal(parseXml(xml.text).user.screen_name, 'erin');
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/profile/s/${erin.channel_id}`)).headers.get('content-type'), 'image/png');
  const usage = t.hub.db.prepare('SELECT resource_id, photo_usage FROM photo WHERE uid = ? AND imgscale = 4 ORDER BY id').all(erin.channel_id) as { photo_usage: number }[];
  assert.deepEqual(usage.map((r) => r.photo_usage), [0, 1], 'only the newest is the profile photo');
});

test('account/update_profile_image failures: 400 without a file or with a non-image; 405 for GET; 401', async () => {
  assert.equal(await fails(t, '/api/account/update_profile_image.json', 400, { as: 'alice', method: 'POST', body: form({ x: '1' }) }), 'no media data submitted');
  await fails(t, '/api/account/update_profile_image.json', 400, { as: 'alice', method: 'POST', body: form({}, { image: { data: '%PDF-1.4 not an image', name: 'doc.pdf' } }) });
  await fails(t, '/api/account/update_profile_image.json', 405, { as: 'alice' });
  await fails(t, '/api/account/update_profile_image.json', 401, { method: 'POST', body: form({}, { image: { data: jpeg, name: 'me.jpg' } }) });
});

test('a channel without a profile photo gets a generated avatar at each size', async () => {
  const frank = await t.addChannel('frank');
  for (const [size, px] of [['l', 300], ['m', 80], ['s', 48]] as const) {
    const res = await fetch(`${t.hub.baseUrl}/photo/profile/${size}/${frank.channel_id}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    assert.deepEqual([meta.width, meta.height], [px, px]);
  }
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/profile/x/${frank.channel_id}`)).status, 404);
  assert.equal((await fetch(`${t.hub.baseUrl}/photo/profile/l/99999`)).status, 404);
});

test('album names with "/" or "\\" are refused with a message, not changed', async () => {
  const before = counts();
  const created = await call(t, '/api/ext/photo/create.json', { as: 'alice', method: 'POST', body: createForm({ album: 'Trips/2024' }) });
  assert.equal(created.status, 400);
  assert.match(created.text, /album name cannot contain/);
  assert.deepEqual(counts(), before, 'nothing stored');
  const photo = await create({ album: 'Moving' });
  for (const [path, fields] of [
    ['/api/ext/photo/update.json', { photo_id: photo.id, album: 'Moving', album_new: 'A\\B' }],
    ['/api/ext/photoalbum/update.json', { album: 'Moving', album_new: 'A/B' }],
  ] as const) {
    const res = await call(t, path, { as: 'alice', method: 'POST', body: new URLSearchParams(fields) });
    assert.equal(res.status, 400, `${path}: ${res.text}`);
    assert.match(res.text, /album name cannot contain/);
  }
  const again = await call(t, `/api/ext/photo.json?photo_id=${photo.id}`, { as: 'alice' });
  assert.equal(again.body.album, 'Moving');
});
