import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setConfig } from '../../server/store/config.js';
import { getItem, updateItem } from '../../server/store/items.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { makeImage } from '../helpers/media.js';
import { visibleText } from '../helpers/markup-corpus.js';
import { webLogin } from '../helpers/web-session.js';

/**
 * Photos attached to a post show as pictures in every markup (BBCode, Markdown, plain text) and in
 * every API: the native item's html, the microblog API's statusnet_html and text (what the UI
 * shows), the Mastodon API's content and media_attachments. The native body keeps Hubzilla's form
 * (uploads as BBCode lines in front of the text), so Hubzilla clients read it as they would there.
 */

const FORMATS = [
  { mimetype: 'text/bbcode', body: '[b]Leek[/b] soup <tonight> #soup', text: 'Leek soup <tonight> #soup' },
  { mimetype: 'text/markdown', body: '**Leek** soup <tonight> #soup', text: 'Leek soup <tonight> #soup' },
  { mimetype: 'text/plain', body: 'Leek soup <tonight> #soup', text: 'Leek soup <tonight> #soup' },
] as const;

/** BBCode that must never reach a reader as text. */
const RAW_MARKUP = /\[\/?(zmg|zrl|img|url|zvideo|zaudio)\b/i;
const HUBZILLA_PHOTO_LINE = /^\[zrl=https?:\/\/[^\]]+\/photos\/alice\/image\/[0-9a-f]{64}\]\[zmg=https?:\/\/[^\]]+\/photo\/[0-9a-f]{64}-2\.png\][^[\]]+\[\/zmg\]\[\/zrl\]$/;

let t: TestHub;
let mastodon: ReturnType<typeof bearerFetch>;
let png: Blob;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  mastodon = bearerFetch(t, await mastodonToken(t, await webLogin(t, 'alice'), { channel: 'alice' }));
  png = new Blob([new Uint8Array(await makeImage(40, 30, 'png'))], { type: 'image/png' });
});
after(() => t?.stop());

async function json(res: Promise<Response>): Promise<any> {
  const r = await res;
  const text = await r.text();
  assert.ok(r.status < 300, `${r.url}: ${r.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** item/update with uploaded photos (photo1.png, photo2.png, …); the native item record. */
async function nativePost(fields: Record<string, string>, photos: number): Promise<Record<string, string>> {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (let i = 1; i <= photos; i++) f.append('media', png, `photo${i}.png`);
  return (await json(t.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: f }))).item;
}

async function mastodonUpload(): Promise<string> {
  const f = new FormData();
  f.append('file', png, 'upload.png');
  return (await json(mastodon('/api/v2/media', { method: 'POST', body: f }))).id;
}

/** Every rendering of item `id`, with the photos it should show (their keys). */
async function assertRendered(what: string, id: string, text: string, photos: number) {
  const native = (await json(t.request(`/api/z/1.0/item/full?item_id=${id}`, { as: 'alice' }))).item[0] as Record<string, unknown>;
  const record = (await json(t.request(`/api/z/1.0/network/stream?item_id=${id}`, { as: 'alice' }))) as Record<string, unknown>[];
  const status = await json(t.request(`/api/statuses/show.json?id=${id}`, { as: 'alice' }));
  const home = ((await json(t.request('/api/statuses/home_timeline.json?count=100', { as: 'alice' }))) as { id: number; statusnet_html: string }[]).find((s) => String(s.id) === id);
  const toot = await json(mastodon(`/api/v1/statuses/${id}`));

  const keys = [...new Set(Array.from(String(native.body).matchAll(/\/photo\/([0-9a-f]{64})-/g), (m) => m[1]!))];
  assert.equal(keys.length, photos, `${what}: the native body names each photo (${native.body})`);
  // Hubzilla's form: each upload a BBCode line in front of the text.
  const lines = String(native.body).split('\n');
  for (let i = 0; i < photos; i++) assert.match(lines[i]!, HUBZILLA_PHOTO_LINE, `${what}: Hubzilla's photo line`);
  assert.equal(record[0]?.body, native.body, `${what}: network/stream carries the same body`);

  const htmls: [string, string][] = [
    ['statusnet_html', status.statusnet_html],
    ['the UI’s statusnet_html (home timeline)', home?.statusnet_html ?? ''],
    ['Mastodon content', toot.content],
  ];
  htmls.push(['native item html', storedHtml(id)]);
  for (const [where, html] of htmls) {
    assert.doesNotMatch(html, RAW_MARKUP, `${what}: ${where} shows no BBCode: ${html}`);
    assert.ok(visibleText(html).includes(text), `${what}: ${where} shows the text: ${visibleText(html)}`);
  }
  assert.doesNotMatch(status.text, RAW_MARKUP, `${what}: microblog text`);
  assert.ok(status.text.includes(text), `${what}: microblog text ${status.text}`);
  for (const [where, html] of htmls.filter(([w]) => w !== 'Mastodon content')) {
    const imgs = Array.from(html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g), (m) => m[1]!);
    assert.equal(imgs.length, photos, `${what}: ${where} has an <img> per photo: ${html}`);
    for (const key of keys) assert.ok(imgs.some((src) => src.includes(key)), `${what}: ${where} shows photo ${key}`);
  }
  // Mastodon apps show photos as media attachments; the content keeps the text only.
  assert.equal(toot.media_attachments.length, photos, `${what}: media_attachments`);
  for (const m of toot.media_attachments) assert.equal(m.type, 'image');
  assert.doesNotMatch(toot.content, /<img\b/, `${what}: the pictures are attachments, not content`);
}

/** The item's html column: what the native item record (item/update's answer) carries as html. */
function storedHtml(id: string): string {
  return getItem(t.hub.db, Number(id))!.html;
}

for (const format of FORMATS) {
  for (const photos of [0, 1, 2]) {
    test(`${format.mimetype} with ${photos} photo(s): posted through item/update (the UI's composer)`, async () => {
      const item = await nativePost({ body: format.body, mimetype: format.mimetype }, photos);
      assert.equal(item.mimetype, format.mimetype);
      assert.equal(item.html, storedHtml(item.id!), 'item/update answers the item with its stored html');
      await assertRendered(`${format.mimetype}, ${photos} photo(s)`, item.id!, format.text, photos);
    });
  }

  test(`${format.mimetype}: a photo added by an edit through item/update`, async () => {
    const item = await nativePost({ body: format.body, mimetype: format.mimetype }, 0);
    const f = new FormData();
    f.append('post_id', item.id!);
    f.append('body', format.body);
    f.append('media', png, 'later.png');
    await json(t.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: f }));
    await assertRendered(`${format.mimetype}, edited in`, item.id!, format.text, 1);
  });

  test(`${format.mimetype}: photos added by a Mastodon app's edit, and the source it edits`, async () => {
    const item = await nativePost({ body: format.body, mimetype: format.mimetype }, 1);
    const source = await json(mastodon(`/api/v1/statuses/${item.id}/source`));
    assert.equal(source.text, format.body, 'the source is the text as written, without the upload lines');
    const media = await json(mastodon(`/api/v1/statuses/${item.id}`));
    const ids = [...media.media_attachments.map((m: { id: string }) => m.id), await mastodonUpload()];
    await json(mastodon(`/api/v1/statuses/${item.id}`, { method: 'PUT', json: { status: source.text as string, media_ids: ids } }));
    await assertRendered(`${format.mimetype}, Mastodon edit`, item.id!, format.text, 2);
  });

  test(`${format.mimetype}: a share of a post with a photo shows the photo`, async () => {
    const item = await nativePost({ body: format.body, mimetype: format.mimetype }, 1);
    const share = await json(t.request(`/api/statuses/retweet/${item.id}.json`, { as: 'bob', method: 'POST' }));
    const shown = await json(t.request(`/api/statuses/show.json?id=${share.id}`, { as: 'bob' }));
    assert.doesNotMatch(shown.statusnet_html, RAW_MARKUP, shown.statusnet_html);
    assert.match(shown.statusnet_html, /<img\b[^>]*\/photo\/[0-9a-f]{64}-2\.png/, shown.statusnet_html);
  });
}

test('posts with photos from Mastodon apps and microblog clients (BBCode) show them in every API', async () => {
  const toot = await json(mastodon('/api/v1/statuses', { method: 'POST', json: { status: 'Leek soup <tonight> #soup', media_ids: [await mastodonUpload()] } }));
  await assertRendered('Mastodon post', toot.id, 'Leek soup <tonight> #soup', 1);
  const f = new FormData();
  f.append('status', 'Leek soup <tonight> #soup');
  f.append('media', png, 'client.png');
  const status = await json(t.request('/api/statuses/update_with_media.json', { as: 'alice', method: 'POST', body: f }));
  await assertRendered('microblog post', String(status.id), 'Leek soup <tonight> #soup', 1);
});

test('Markdown and plain-text posts stored with their photos shown as text are rendered again when the hub starts', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-photo-rerender-'));
  try {
    const first = await startHub({ channels: ['alice'], dataDir });
    const ids: number[] = [];
    for (const mimetype of ['text/markdown', 'text/plain']) {
      const f = new FormData();
      f.append('body', 'Leek soup');
      f.append('mimetype', mimetype);
      f.append('media', png, 'photo1.png');
      const res = await first.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: f });
      const item = ((await res.json()) as { item: { id: string; body: string } }).item;
      ids.push(Number(item.id));
      // What renderer version 3 stored: the upload's BBCode as text.
      updateItem(first.hub.db, Number(item.id), { html: `<p>${item.body.replace(/\n/g, '<br />')}</p>`, html_text: item.body });
    }
    setConfig(first.hub.db, 'system', 'renderer_version', '3');
    await first.stop();

    const again = await startHub({ dataDir });
    try {
      for (const id of ids) {
        const deadline = Date.now() + 30_000;
        let status: { statusnet_html: string; text: string } = { statusnet_html: '', text: '' };
        while (Date.now() < deadline) {
          status = (await (await again.request(`/api/statuses/show.json?id=${id}`, { as: 'alice' })).json()) as typeof status;
          if (!RAW_MARKUP.test(status.statusnet_html)) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.doesNotMatch(status.statusnet_html, RAW_MARKUP);
        assert.match(status.statusnet_html, /<img\b[^>]*\/photo\/[0-9a-f]{64}-2\.png/);
        assert.doesNotMatch(status.text, RAW_MARKUP);
        assert.equal(visibleText(status.statusnet_html), 'Leek soup');
      }
    } finally {
      await again.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
