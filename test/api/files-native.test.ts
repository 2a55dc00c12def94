import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { call } from '../helpers/compat.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { assertAllStrings, assertDatetimes, assertDigitStrings, assertKeys, HEX64 } from '../helpers/shapes.js';
import { storeAttachment } from '../../server/services/attachments.js';
import { createPhoto } from '../../server/services/photos.js';
import { toAclString } from '../../server/util/ids.js';
import type { AttachRow } from '../../server/store/rows.js';

const API = '/api/z/1.0';
const LISTING_KEYS = ['id', 'aid', 'uid', 'hash', 'filename', 'filetype', 'filesize', 'revision', 'folder', 'flags', 'is_dir', 'is_photo', 'os_storage', 'created', 'edited', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid'];
const META_KEYS = ['id', 'aid', 'uid', 'hash', 'creator', 'filename', 'filetype', 'filesize', 'revision', 'folder', 'flags', 'is_dir', 'is_photo', 'os_storage', 'os_path', 'display_path', 'created', 'edited', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid'];
const WITH_CONTENT_KEYS = [...META_KEYS.slice(0, 16), 'content', ...META_KEYS.slice(16)];
const INT_FIELDS = ['id', 'aid', 'uid', 'filesize', 'revision', 'flags', 'is_dir', 'is_photo', 'os_storage'];

let t: TestHub;
let hello: AttachRow;
let wild: AttachRow;
let plain: AttachRow;
let photoHash: string;
let bobPrivate: AttachRow;
let bobPublic: AttachRow;
let bobForAlice: AttachRow;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  const { alice, bob } = t.channels;
  hello = await storeAttachment(t.hub, alice!, await tempUpload('hello world', 'hello.txt', 'text/plain'));
  wild = await storeAttachment(t.hub, alice!, await tempUpload('w', '100%_done.txt', 'text/plain'));
  plain = await storeAttachment(t.hub, alice!, await tempUpload('p', '100xydone.txt', 'text/plain'));
  photoHash = (await createPhoto(t.hub, alice!, await tempUpload(await makeImage(400, 300), 'cat.jpg'), { album: 'Cats' })).attach.hash;
  bobPrivate = await storeAttachment(t.hub, bob!, await tempUpload('secret', 'secret.txt', 'text/plain'), { acl: { allow_cid: toAclString([bob!.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' } });
  bobPublic = await storeAttachment(t.hub, bob!, await tempUpload('open', 'open.txt', 'text/plain'));
  bobForAlice = await storeAttachment(t.hub, bob!, await tempUpload('for alice', 'note.txt', 'text/plain'), { acl: { allow_cid: toAclString([alice!.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' } });
});

after(() => t.stop());

test('files lists the channel’s files and folders in the listing form, integers as digit strings', async () => {
  const a = await call(t, `${API}/files`, { as: 'alice' });
  assert.equal(a.status, 200);
  assert.equal(a.body.success, true);
  assert.ok(Array.isArray(a.body.results));
  const hashes = a.body.results.map((r: { hash: string }) => r.hash);
  assert.ok(hashes.includes(hello.hash) && hashes.includes(photoHash));
  assert.ok(!hashes.includes(bobPublic.hash), 'other channels’ files are not listed');
  for (const r of a.body.results) {
    assertKeys(r, LISTING_KEYS, 'listing record');
    assertAllStrings(r, 'listing record');
    assertDigitStrings(r, INT_FIELDS, 'listing record');
    assertDatetimes(r, ['created', 'edited'], 'listing record');
    assert.match(r.hash, HEX64);
  }
  const folder = a.body.results.find((r: { is_dir: string; filename: string }) => r.is_dir === '1' && r.filename === 'Cats');
  assert.equal(folder.filetype, 'multipart/mixed');
  const cat = a.body.results.find((r: { hash: string }) => r.hash === photoHash);
  assert.equal(cat.is_photo, '1');
  assert.equal(cat.folder, folder.hash);
  assert.equal(a.body.start, undefined, 'no start/records without paging');
});

test('files filters by exact hash, filename and filetype substrings; LIKE wildcards are literal', async () => {
  const byHash = await call(t, `${API}/files?filehash=${hello.hash}`, { as: 'alice' });
  assert.deepEqual(byHash.body.results.map((r: { hash: string }) => r.hash), [hello.hash]);
  const none = await call(t, `${API}/files?filehash=${hello.hash.slice(0, 10)}`, { as: 'alice' });
  assert.deepEqual(none.body.results, [], 'filehash is exact');
  const byName = await call(t, `${API}/files?filename=ello.t`, { as: 'alice' });
  assert.deepEqual(byName.body.results.map((r: { filename: string }) => r.filename), ['hello.txt']);
  const wildcard = await call(t, `${API}/files?filename=${encodeURIComponent('0%_d')}`, { as: 'alice' });
  assert.deepEqual(wildcard.body.results.map((r: { hash: string }) => r.hash), [wild.hash]);
  assert.ok(plain.hash);
  const byType = await call(t, `${API}/files?filetype=image/`, { as: 'alice' });
  assert.deepEqual(byType.body.results.map((r: { hash: string }) => r.hash), [photoHash]);
});

test('files pages with start and records (0 = all) and echoes them as numbers', async () => {
  const all = (await call(t, `${API}/files?records=0`, { as: 'alice' })).body.results;
  assert.ok(all.length >= 6);
  const page = await call(t, `${API}/files?start=1&records=2`, { as: 'alice' });
  assert.equal(page.body.start, 1);
  assert.equal(page.body.records, 2);
  assert.deepEqual(page.body.results.map((r: { id: string }) => r.id), all.slice(1, 3).map((r: { id: string }) => r.id));
  assert.equal((await call(t, `${API}/files?records=abc`, { as: 'alice' })).status, 400);
});

test('filedata returns a chunk: start and length are numbers, content is base64, creator and paths present', async () => {
  const a = await call(t, `${API}/filedata?file_id=${hello.hash.slice(0, 6)}&start=2&length=3`, { as: 'alice' });
  assert.equal(a.status, 200);
  const r = a.body.attach;
  assertKeys(r, [...WITH_CONTENT_KEYS, 'start', 'length'], 'filedata');
  assert.equal(r.hash, hello.hash);
  assert.equal(Buffer.from(r.content, 'base64').toString(), 'llo');
  assert.equal(r.start, 2);
  assert.equal(r.length, 3);
  assert.equal(r.creator, t.channels.alice!.channel_hash);
  assert.match(r.display_path, /\/hello\.txt$/);
  assertDigitStrings(r, INT_FIELDS, 'filedata');
});

test('filedata without start and length returns the whole file; past the end an empty chunk', async () => {
  const whole = (await call(t, `${API}/filedata?file_id=${hello.hash}`, { as: 'alice' })).body.attach;
  assert.equal(Buffer.from(whole.content, 'base64').toString(), 'hello world');
  assert.deepEqual([whole.start, whole.length], [0, 11]);
  const rest = (await call(t, `${API}/filedata?file_id=${hello.hash}&start=6`, { as: 'alice' })).body.attach;
  assert.equal(Buffer.from(rest.content, 'base64').toString(), 'world');
  const past = (await call(t, `${API}/filedata?file_id=${hello.hash}&start=100&length=5`, { as: 'alice' })).body.attach;
  assert.deepEqual([past.content, past.start, past.length], ['', 100, 0]);
});

test('filedata on a folder has empty content and no start/length', async () => {
  const folderHash = (await call(t, `${API}/files?filename=Cats`, { as: 'alice' })).body.results[0].hash;
  const r = (await call(t, `${API}/filedata?file_id=${folderHash}`, { as: 'alice' })).body.attach;
  assert.equal(r.content, '');
  assert.equal('start' in r, false);
  assert.equal('length' in r, false);
});

test('filedata escapes LIKE wildcards in the prefix', async () => {
  for (const id of ['_', '%', '%25', '__']) {
    const a = await call(t, `${API}/filedata?file_id=${encodeURIComponent(id)}`, { as: 'alice' });
    assert.equal(a.status, 404, `file_id ${id}`);
    assert.deepEqual(a.body, { success: false, message: 'file not found' });
  }
});

test('filedata failures: 400 missing or malformed parameter, 404 unknown, 401 without credentials', async () => {
  assert.equal((await call(t, `${API}/filedata`, { as: 'alice' })).status, 400);
  assert.equal((await call(t, `${API}/filedata?file_id=${hello.hash}&start=-1`, { as: 'alice' })).status, 400);
  assert.equal((await call(t, `${API}/filedata?file_id=${hello.hash}&length=x`, { as: 'alice' })).status, 400);
  const unknown = await call(t, `${API}/filedata?file_id=${'f'.repeat(64)}`, { as: 'alice' });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.success, false);
  const anon = await call(t, `${API}/filedata?file_id=${hello.hash}`);
  assert.equal(anon.status, 401);
  assert.match(anon.res.headers.get('www-authenticate') ?? '', /^Basic /);
});

test('a 5 MB upload is found by name and reads back identically through filedata in 256 KiB chunks', async () => {
  const data = randomBytes(5 * 1024 * 1024 + 123);
  await storeAttachment(t.hub, t.channels.alice!, await tempUpload(data, 'big-random.bin', 'application/octet-stream'));
  const listed = (await call(t, `${API}/files?filename=big-random`, { as: 'alice' })).body.results;
  assert.equal(listed.length, 1);
  assert.equal(listed[0].filesize, String(data.length));
  const chunkSize = 256 * 1024;
  const parts: Buffer[] = [];
  for (let start = 0; start < data.length; start += chunkSize) {
    const r = (await call(t, `${API}/filedata?file_id=${listed[0].hash}&start=${start}&length=${chunkSize}`, { as: 'alice' })).body.attach;
    assert.equal(r.start, start);
    assert.equal(r.length, Math.min(chunkSize, data.length - start));
    parts.push(Buffer.from(r.content, 'base64'));
  }
  assert.equal(parts.length, Math.ceil(data.length / chunkSize));
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  assert.equal(sha(Buffer.concat(parts)), sha(data));
});

test('1 MiB filedata answers stay intact while a slow client has not read them and other answers are built (their buffers are reused)', async () => {
  const data = randomBytes(4 * 1024 * 1024 + 77);
  await storeAttachment(t.hub, t.channels.alice!, await tempUpload(data, 'concurrent.bin', 'application/octet-stream'));
  const [file] = (await call(t, `${API}/files?filename=concurrent.bin`, { as: 'alice' })).body.results;
  const MiB = 1024 * 1024;
  const starts = [0, MiB, 2 * MiB, 3 * MiB, 4 * MiB];
  const path = (start: number) => `${API}/filedata?file_id=${file.hash}&start=${start}&length=${MiB}`;
  const intact = (attach: { content: string }, start: number) => Buffer.from(attach.content, 'base64').equals(data.subarray(start, start + MiB));

  // Pipelined on one connection that is not read: the answers wait in the hub behind each other.
  const hub = new URL(t.url);
  const slow = connect(Number(hub.port), hub.hostname);
  await once(slow, 'connect');
  slow.pause();
  slow.write(starts.map((s) => `GET ${path(s)} HTTP/1.1\r\nHost: ${hub.host}\r\nAuthorization: ${basic('alice')}\r\n\r\n`).join(''));
  await new Promise((r) => setTimeout(r, 200));
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all([...starts, ...starts].map((start) => call(t, path(start), { as: 'alice' })));
    answers.forEach((a, i) => assert.ok(a.status === 200 && intact(a.body.attach, starts[i % starts.length]!), `chunk ${i} of round ${round}`));
  }
  const received: Buffer[] = [];
  slow.on('data', (d: Buffer) => received.push(d));
  slow.resume();
  let raw = Buffer.alloc(0);
  const bodies: string[] = [];
  while (bodies.length < starts.length) {
    await new Promise((r) => setTimeout(r, 20));
    raw = Buffer.concat([raw, ...received.splice(0)]);
    for (;;) {
      const end = raw.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(raw.subarray(0, end).toString())?.[1]);
      if (end < 0 || raw.length < end + 4 + length) break;
      bodies.push(raw.subarray(end + 4, end + 4 + length).toString());
      raw = raw.subarray(end + 4 + length);
    }
  }
  slow.destroy();
  bodies.forEach((b, i) => assert.ok(intact(JSON.parse(b).attach, starts[i]!), `pipelined chunk ${i} was overwritten`));
});

test('filemeta returns the record without content', async () => {
  const a = await call(t, `${API}/filemeta?file_id=${hello.hash}`, { as: 'alice' });
  assert.equal(a.status, 200);
  assertKeys(a.body.attach, META_KEYS, 'filemeta');
  assertAllStrings(a.body.attach, 'filemeta');
  assert.equal((await call(t, `${API}/filemeta`, { as: 'alice' })).status, 400);
  assert.equal((await call(t, `${API}/filemeta?file_id=${hello.hash.slice(0, 10)}`, { as: 'alice' })).status, 404, 'exact hash only');
  assert.equal((await call(t, `${API}/filemeta?file_id=${hello.hash}`)).status, 401);
});

test('file returns the whole file base64 in content', async () => {
  const a = await call(t, `${API}/file?file_id=${hello.hash}`, { as: 'alice' });
  assert.equal(a.status, 200);
  assertKeys(a.body.attach, WITH_CONTENT_KEYS, 'file');
  assert.equal(Buffer.from(a.body.attach.content, 'base64').toString(), 'hello world');
  assert.equal((await call(t, `${API}/file`, { as: 'alice' })).status, 400);
  assert.equal((await call(t, `${API}/file?file_id=${'0'.repeat(64)}`, { as: 'alice' })).status, 404);
  assert.equal((await call(t, `${API}/file?file_id=${hello.hash}`)).status, 401);
});

test('another channel’s files: private ones are 404, public and admitted ones readable, never listed', async () => {
  for (const path of ['filedata', 'filemeta', 'file']) {
    const denied = await call(t, `${API}/${path}?file_id=${bobPrivate.hash}`, { as: 'alice' });
    assert.equal(denied.status, 404, `${path} of bob’s private file`);
    assert.equal(denied.text.includes('secret'), false);
    assert.equal((await call(t, `${API}/${path}?file_id=${bobPublic.hash}`, { as: 'alice' })).status, 200, `${path} of bob’s public file`);
    assert.equal((await call(t, `${API}/${path}?file_id=${bobForAlice.hash}`, { as: 'alice' })).status, 200, `${path} of bob’s file for alice`);
    assert.equal((await call(t, `${API}/${path}?file_id=${bobPrivate.hash}`, { as: 'bob' })).status, 200, `${path} of bob’s own file`);
  }
  // A prefix shared with nothing of alice's must not fall through to bob's private file.
  assert.equal((await call(t, `${API}/filedata?file_id=${bobPrivate.hash.slice(0, 20)}`, { as: 'alice' })).status, 404);
  assert.equal((await call(t, `${API}/file/export?file_id=${bobPublic.hash}`, { as: 'alice' })).status, 404, 'exports are of own files only');
});

test('file/export: fetch_url, original_channel, folder chain with terms, photo scales and the photo item', async () => {
  const a = await call(t, `${API}/file/export?file_id=${photoHash}`, { as: 'alice' });
  assert.equal(a.status, 200);
  const x = a.body;
  assert.equal(x.fetch_url, `${t.hub.baseUrl}/getfile`);
  assert.equal(x.original_channel, 'alice');
  assert.equal(x.attach.length, 2);
  assert.equal(x.attach[0].filename, 'Cats');
  assert.equal(x.attach[0].is_dir, '1');
  assert.equal(x.attach[1].hash, photoHash);
  assertKeys(x.attach[1], [...WITH_CONTENT_KEYS, 'term'], 'export attach');
  assert.match(x.attach[1].content, /^store\//);
  assert.deepEqual(x.attach[1].term, []);
  assert.deepEqual(x.photo.map((p: { imgscale: string }) => p.imgscale), ['0', '1', '2', '3']);
  assert.ok(Buffer.from(x.photo[0].content, 'base64').length > 100);
  assert.equal(x.item.length, 1);
  assert.equal(x.item[0].resource_id, photoHash);
  assert.equal(x.item[0].item_hidden, '1');
  const txt = (await call(t, `${API}/file/export?file_id=${hello.hash}`, { as: 'alice' })).body;
  assert.equal('photo' in txt, false);
  assert.equal((await call(t, `${API}/file/export`, { as: 'alice' })).status, 400);
  assert.equal((await call(t, `${API}/file/export?file_id=${'a'.repeat(64)}`, { as: 'alice' })).status, 404);
  assert.equal((await call(t, `${API}/file/export?file_id=${photoHash}`)).status, 401);
});

test('file/export_page: one record per page, total of all records; past the end 200 with success false', async () => {
  const first = await call(t, `${API}/file/export_page?page=0`, { as: 'alice' });
  assert.equal(first.status, 200);
  assert.equal(first.body.success, true);
  assert.equal(typeof first.body.total, 'number');
  const total = first.body.total;
  const listed = (await call(t, `${API}/files`, { as: 'alice' })).body.results;
  assert.equal(total, listed.length);
  assert.equal(first.body.results.length, 1);
  assert.equal(first.body.results[0].attach.at(-1).hash, listed[0].hash);
  const last = (await call(t, `${API}/file/export_page?page=${total - 1}`, { as: 'alice' })).body;
  assert.equal(last.results[0].attach.at(-1).hash, listed[total - 1].hash);
  const past = await call(t, `${API}/file/export_page?page=${total}`, { as: 'alice' });
  assert.equal(past.status, 200);
  assert.deepEqual(past.body, { success: false, total, results: [] });
  assert.equal((await call(t, `${API}/file/export_page?page=-1`, { as: 'alice' })).status, 400);
  assert.equal((await call(t, `${API}/file/export_page`)).status, 401);
});

test('file/export_page for a channel without files answers success false with total 0', async () => {
  const carol = await t.addChannel('carol');
  assert.ok(carol);
  const a = await call(t, `${API}/file/export_page`, { as: 'carol' });
  assert.equal(a.status, 200);
  assert.deepEqual(a.body, { success: false, total: 0, results: [] });
});

test('wrong method on the file endpoints is 405 with Allow', async () => {
  for (const path of ['files', 'filedata', 'filemeta', 'file', 'file/export', 'file/export_page']) {
    const a = await call(t, `${API}/${path}`, { as: 'alice', method: 'PUT' });
    assert.equal(a.status, 405, path);
    assert.match(a.res.headers.get('allow') ?? '', /GET/);
    assert.equal(a.body.success, false);
  }
  assert.equal((await call(t, `${API}/files`)).status, 401);
});
