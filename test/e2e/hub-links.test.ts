import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { addressOf, apiCall, connect, postStatus } from '../helpers/ui-fixtures.js';
import { openUi, pngOf, type Ui } from '../helpers/ui.js';

let hub: TestHub;
let ui: Ui;
let aliceItem: { id: string; llink: string; plink: string; body: string };
let bobPhotoPage: string;

/** A post with a photo, through the native API as a client would. */
async function postWithPhoto(as: string, body: string, filename: string) {
  const form = new FormData();
  form.append('body', body);
  form.append('media', new Blob([new Uint8Array(await pngOf({ r: 60, g: 90, b: 200 }, 240, 180))], { type: 'image/png' }), filename);
  const res = await hub.request('/api/z/1.0/item/update', { as, method: 'POST', body: form });
  assert.equal(res.status, 200);
  return ((await res.json()) as { item: { id: string; llink: string; plink: string; body: string } }).item;
}

before(async () => {
  hub = await startHub({ channels: ['alice', 'bob'] });
  await connect(hub, 'alice', 'bob');
  await connect(hub, 'bob', 'alice');
  aliceItem = await postWithPhoto('alice', 'Our garden', 'garden.png');
  const bobItem = await postWithPhoto('bob', 'My bike', 'bike.png');
  bobPhotoPage = /\[zrl=([^\]]+)\]/.exec(bobItem.body)![1]!;
  // A comment by bob: alice gets a notification linking to it.
  await postStatus(hub, 'bob', 'Lovely!', { in_reply_to_status_id: aliceItem.id });
  ui = await openUi(hub, { as: 'alice' });
});

after(async () => {
  await ui?.close();
  await hub?.stop();
});

/** Every string in a JSON answer that is a URL of this hub. */
function hubUrls(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    for (const m of value.matchAll(/https?:\/\/[^\s"'<>\]]+/g)) if (m[0].startsWith(hub.url)) out.add(m[0].replace(/&amp;/g, '&'));
  } else if (Array.isArray(value)) for (const v of value) hubUrls(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) hubUrls(v, out);
  return out;
}

/** URLs the APIs hand out to alice: statuses, users, notifications, identities, albums, photos, the site config. */
async function urlsHandedOut(): Promise<Set<string>> {
  const answers = await Promise.all([
    apiCall(hub, 'alice', '/api/statuses/home_timeline', { include_entities: 'true' }, 'GET'),
    apiCall(hub, 'alice', '/api/statuses/show', { id: aliceItem.id }, 'GET'),
    apiCall(hub, 'alice', '/api/account/verify_credentials', {}, 'GET'),
    apiCall(hub, 'alice', '/api/users/show', { screen_name: 'bob' }, 'GET'),
    apiCall(hub, 'alice', '/api/ext/notifications', {}, 'GET'),
    apiCall(hub, 'alice', '/api/ext/photos/list', {}, 'GET'),
    apiCall(hub, 'alice', '/api/compat/config', {}, 'GET'),
    apiCall(hub, 'alice', '/api/z/1.0/verify', {}, 'GET'),
    apiCall(hub, 'alice', '/api/z/1.0/abook', {}, 'GET'),
    apiCall(hub, 'alice', '/api/z/1.0/xchan', { address: addressOf(hub, 'bob') }, 'GET'),
    apiCall(hub, 'alice', '/api/z/1.0/albums', {}, 'GET'),
    apiCall(hub, 'alice', '/api/z/1.0/item/full', { item_id: aliceItem.id }, 'GET'),
  ]);
  const urls = new Set<string>();
  for (const a of answers) hubUrls(a, urls);
  hubUrls(aliceItem, urls);
  urls.add(bobPhotoPage);
  return urls;
}

const FILE_PATHS = /^\/(photo|attach)\/|^\/favicon\.ico$/;
/** Built by the other UI work (channel pages, search, messages); covered by its own tests. */
const ELSEWHERE = /^\/(mail|search)\b/;

test('every URL the APIs hand out opens something useful: a page of the UI, or the photo or file itself', async () => {
  const { page } = ui;
  const urls = [...(await urlsHandedOut())].map((u) => u.replace('%s', encodeURIComponent(addressOf(hub, 'bob'))));
  const paths = new Set(urls.map((u) => new URL(u).pathname.replace(/[0-9a-f]{64}/g, '<hash>').replace(/\d+/g, '<n>')));
  for (const shape of ['/display/<n>', '/channel/alice', '/photos/alice/image/<hash>', '/photos/bob/image/<hash>', '/photos/alice/album/<n>', '/poco/bob', '/follow', '/favicon.ico']) {
    assert.ok([...paths].some((p) => p.startsWith(shape.replace('<n>', ''))), `the APIs hand out ${shape} (got ${[...paths].join(', ')})`);
  }
  const checked: string[] = [];
  for (const url of urls) {
    const path = new URL(url).pathname;
    if (/^\/api\//.test(path) || ELSEWHERE.test(path)) continue;
    if (FILE_PATHS.test(path)) {
      const res = await page.request.get(url);
      assert.equal(res.status(), 200, url);
      assert.match(res.headers()['content-type'] ?? '', /^(image|text|application)\//, url);
      continue;
    }
    const res = await page.goto(url);
    assert.ok(res && res.status() < 400, `${url} answers ${res?.status()}`);
    await page.locator('main#main').waitFor();
    await page.waitForFunction(() => !document.querySelector('[role="status"].loading'));
    assert.equal(await page.getByText('There is nothing at this address.').count(), 0, `${url} opens a page of the UI`);
    checked.push(path);
  }
  assert.ok(checked.length >= 6, `pages checked: ${checked.join(', ')}`);
});

test('a post\'s llink and plink open its conversation; a photo page opens the photo in its album', async () => {
  const { page } = ui;
  for (const link of [aliceItem.llink, aliceItem.plink]) {
    await page.goto(link);
    await page.waitForURL(`**/item/${aliceItem.id}`);
    await page.locator(`article[data-status-id="${aliceItem.id}"]`).getByText('Our garden').waitFor();
  }
  const photoPage = /\[zrl=([^\]]+)\]/.exec(aliceItem.body)![1]!;
  await page.goto(photoPage);
  await page.waitForURL(/\/photos\/album\/[^?]+\?photo=[0-9a-f]{64}$/);
  await page.getByRole('dialog').locator('img.viewer-image').waitFor();
  await ui.screenshots('link-photo-page', { fullPage: false });

  // Another channel's photo page shows that photo and leads to the channel.
  await page.goto(bobPhotoPage);
  await page.getByRole('heading', { name: 'A photo of bob' }).waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll('.photo-of-channel img')].some((img) => (img as HTMLImageElement).naturalWidth > 0));
  await page.getByRole('link', { name: '← bob' }).click();
  await page.waitForURL('**/channel/bob');
  await page.getByRole('heading', { name: 'Bob' }).waitFor();
  await ui.screenshots('link-channel-page', { fullPage: false });

  // The follow link of an identity fills in the address to connect with.
  await page.goto(`/follow?f=&url=${encodeURIComponent('carol@example.org')}`);
  await page.waitForURL('**/connections?connect=*');
  assert.equal(await page.getByLabel('Connect with').inputValue(), 'carol@example.org');
});
