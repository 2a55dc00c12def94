import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { storeAttachment } from '../../server/services/attachments.js';
import { createPhoto, type PhotoRecord } from '../../server/services/photos.js';
import { createSession } from '../../server/store/sessions.js';
import { SESSION_COOKIE } from '../../server/auth/identity.js';
import { toAclString } from '../../server/util/ids.js';
import type { AttachRow } from '../../server/store/rows.js';

let t: TestHub;
let text: AttachRow;
let html: AttachRow;
let unicode: AttachRow;
let bobPrivate: AttachRow;
let bobPhoto: PhotoRecord;
let aliceCookie: string;
let bobCookie: string;
const TEXT = 'The quick brown fox jumps over the lazy dog';

const only = (hash: string) => ({ allow_cid: toAclString([hash]), allow_gid: '', deny_cid: '', deny_gid: '' });

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  const { alice, bob } = t.channels;
  text = await storeAttachment(t.hub, alice!, await tempUpload(TEXT, 'fox.txt', 'text/plain'));
  html = await storeAttachment(t.hub, alice!, await tempUpload('<script>alert(1)</script>', 'page.html', 'text/html'));
  unicode = await storeAttachment(t.hub, alice!, await tempUpload('x', 'Grüße "quoted".txt', 'text/plain'));
  bobPrivate = await storeAttachment(t.hub, bob!, await tempUpload('bob only', 'diary.txt', 'text/plain'), { acl: only(bob!.channel_hash) });
  bobPhoto = await createPhoto(t.hub, bob!, await tempUpload(await makeImage(200, 100), 'p.jpg'), { acl: only(bob!.channel_hash) });
  aliceCookie = `${SESSION_COOKIE}=${createSession(t.hub.db, alice!.channel_account_id, alice!.channel_id, 60_000).token}`;
  bobCookie = `${SESSION_COOKIE}=${createSession(t.hub.db, bob!.channel_account_id, bob!.channel_id, 60_000).token}`;
});

after(() => t.stop());

test('/attach/<hash> downloads the file with type, disposition, ETag and private caching', async () => {
  const res = await fetch(`${t.url}/attach/${text.hash}`);
  assert.equal(res.status, 200);
  assert.equal(await res.text(), TEXT);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  assert.equal(res.headers.get('content-disposition'), `inline; filename="fox.txt"; filename*=UTF-8''fox.txt`);
  assert.match(res.headers.get('etag') ?? '', /^"[0-9a-f]{64}"$/);
  assert.match(res.headers.get('cache-control') ?? '', /private/);
  assert.equal(res.headers.get('accept-ranges'), 'bytes');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  const dl = await fetch(`${t.url}/attach/${text.hash}?download=1`);
  assert.match(dl.headers.get('content-disposition') ?? '', /^attachment;/);
});

test('/attach serves HTML as a sandboxed download, never as a page of the hub', async () => {
  const res = await fetch(`${t.url}/attach/${html.hash}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="page.html"/);
  assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
});

test('/attach shows a PDF in the page (the browser\'s viewer runs in a sandbox of its own origin); HTML that claims to be a PDF stays a PDF', async () => {
  const { alice } = t.channels;
  const pdf = await storeAttachment(t.hub, alice!, await tempUpload('%PDF-1.4\n%%EOF\n', 'notes.pdf', 'application/pdf'));
  const res = await fetch(`${t.url}/attach/${pdf.hash}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/pdf');
  assert.match(res.headers.get('content-disposition') ?? '', /^inline; filename="notes.pdf"/);
  const policy = res.headers.get('content-security-policy') ?? '';
  assert.match(policy, /^sandbox allow-scripts;/);
  assert.doesNotMatch(policy, /allow-same-origin|allow-top-navigation|allow-popups|allow-forms/);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  const liar = await storeAttachment(t.hub, alice!, await tempUpload('<script>alert(1)</script>', 'trap.pdf', 'application/pdf'));
  const trap = await fetch(`${t.url}/attach/${liar.hash}`);
  assert.doesNotMatch(trap.headers.get('content-type') ?? '', /html/);
  assert.equal(trap.headers.get('x-content-type-options'), 'nosniff', 'never sniffed into a page');
  assert.match((await fetch(`${t.url}/attach/${html.hash}`)).headers.get('content-security-policy') ?? '', /^sandbox;/, 'other files keep the strict sandbox');
});

test('/attach encodes non-ASCII names in filename* and keeps an ASCII fallback', async () => {
  const res = await fetch(`${t.url}/attach/${unicode.hash}`);
  assert.equal(res.headers.get('content-disposition'), `inline; filename="Gr__e _quoted_.txt"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%22quoted%22.txt`);
});

test('/attach supports byte ranges, If-Range, 416, HEAD and If-None-Match', async () => {
  const part = await fetch(`${t.url}/attach/${text.hash}`, { headers: { range: 'bytes=4-8' } });
  assert.equal(part.status, 206);
  assert.equal(await part.text(), 'quick');
  assert.equal(part.headers.get('content-range'), `bytes 4-8/${TEXT.length}`);
  const suffix = await fetch(`${t.url}/attach/${text.hash}`, { headers: { range: 'bytes=-3' } });
  assert.equal(await suffix.text(), 'dog');
  const open = await fetch(`${t.url}/attach/${text.hash}`, { headers: { range: 'bytes=40-' } });
  assert.equal(await open.text(), 'dog');
  const bad = await fetch(`${t.url}/attach/${text.hash}`, { headers: { range: 'bytes=1000-2000' } });
  assert.equal(bad.status, 416);
  assert.equal(bad.headers.get('content-range'), `bytes */${TEXT.length}`);
  const etag = part.headers.get('etag')!;
  const stale = await fetch(`${t.url}/attach/${text.hash}`, { headers: { range: 'bytes=4-8', 'if-range': '"other"' } });
  assert.equal(stale.status, 200, 'a changed file is sent whole');
  assert.equal((await stale.text()).length, TEXT.length);
  const cached = await fetch(`${t.url}/attach/${text.hash}`, { headers: { 'if-none-match': etag } });
  assert.equal(cached.status, 304);
  const head = await fetch(`${t.url}/attach/${text.hash}`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), String(TEXT.length));
  assert.equal(await head.text(), '');
});

test('restricted files and photos: 404 anonymous or for others; the owner by session cookie (no CSRF header) or Basic', async () => {
  const fileUrl = `/attach/${bobPrivate.hash}`;
  const photoUrl = `/photo/${bobPhoto.attach.hash}-1.jpg`;
  for (const url of [fileUrl, photoUrl]) {
    const anon = await fetch(t.url + url);
    assert.equal(anon.status, 404, `${url} anonymous`);
    assert.equal((await anon.text()).includes('bob only'), false);
    assert.equal((await t.request(url, { as: 'alice' })).status, 404, `${url} as alice`);
    assert.equal((await fetch(t.url + url, { headers: { cookie: aliceCookie } })).status, 404, `${url} alice's session`);
    assert.equal((await t.request(url, { as: 'bob' })).status, 200, `${url} as bob (Basic)`);
    assert.equal((await fetch(t.url + url, { headers: { cookie: bobCookie } })).status, 200, `${url} bob's session without CSRF header`);
    assert.equal((await t.request(url, { as: 'bob', password: 'wrong' })).status, 404, `${url} wrong password`);
  }
});

test('/photo/<resource>-<scale>[.ext]: type per scale, extension optional, unknown resource or scale 404', async () => {
  const mine = await createPhoto(t.hub, t.channels.alice!, await tempUpload(await makeImage(50, 40, 'png'), 'a.png'));
  for (const url of [`/photo/${mine.attach.hash}-2.png`, `/photo/${mine.attach.hash}-2`, `/photo/${mine.attach.hash}-2.jpg`]) {
    const res = await fetch(t.url + url);
    assert.equal(res.status, 200, url);
    assert.equal(res.headers.get('content-type'), 'image/png');
  }
  const scale0 = await fetch(`${t.url}/photo/${mine.attach.hash}`);
  assert.equal(scale0.status, 200, 'no scale means scale 0');
  assert.equal((await fetch(`${t.url}/photo/${mine.attach.hash}-7.png`)).status, 404);
  assert.equal((await fetch(`${t.url}/photo/${'a'.repeat(64)}-0.jpg`)).status, 404);
  assert.equal((await fetch(`${t.url}/photo/..%2f..%2fhearth.db`)).status, 404);
  assert.equal((await fetch(`${t.url}/attach/..%2fhearth.db`)).status, 404);
});

test('a folder is not downloadable', async () => {
  const folder = t.hub.db.prepare('SELECT hash FROM attach WHERE is_dir = 1 LIMIT 1').get() as { hash: string };
  assert.equal((await fetch(`${t.url}/attach/${folder.hash}`)).status, 404);
});
