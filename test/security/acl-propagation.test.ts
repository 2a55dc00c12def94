import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { addForeignAccount, EVE_PASSWORD } from '../helpers/seed.js';
import { form, makeImage } from '../helpers/media.js';
import { webLogin } from '../helpers/web-session.js';
import { obtainAccessToken, registerApp, signedFetch, type OAuthApp, type OAuthToken } from '../helpers/oauth-client.js';
import { connect } from '../../server/services/connections.js';
import type { ChannelRow } from '../../server/store/rows.js';

/**
 * Every way an audience changes after others reacted, checked against every read path, from the
 * side of those who lose access: anonymous, another channel (eve, another account) and eve's
 * OAuth app. A thread's comments and likes, and the photos and files it carries, follow its top.
 */
let t: TestHub;
let alice: ChannelRow;
let bob: ChannelRow;
let eve: ChannelRow;
let eveApp: OAuthApp;
let eveToken: OAuthToken;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  alice = t.channels.alice!;
  bob = t.channels.bob!;
  eve = await addForeignAccount(t.hub, 'eve', EVE_PASSWORD);
  connect(t.hub, alice, bob.channel_hash);
  connect(t.hub, bob, alice.channel_hash);
  connect(t.hub, alice, eve.channel_hash);
  connect(t.hub, eve, alice.channel_hash);
  const s = await webLogin(t, 'eve', EVE_PASSWORD);
  eveApp = await registerApp(s, { name: 'Eve app', redirect: 'https://eve.example/cb' });
  eveToken = await obtainAccessToken(t, s, eveApp);
});
after(() => t.stop());

type Observer = { name: string; get(path: string): Promise<Response> };
const observers = (): Observer[] => [
  { name: 'anonymous', get: (p) => fetch(t.url + p) },
  { name: 'eve', get: (p) => t.request(p, { as: 'eve', password: EVE_PASSWORD }) },
  { name: "eve's OAuth app", get: (p) => signedFetch(t, eveApp, p.split('?')[0]!, { token: eveToken, data: Object.fromEntries(new URLSearchParams(p.split('?')[1] ?? '')) }) },
];

async function native(as: string, path: string, body: FormData | URLSearchParams) {
  const res = await t.request(`/api/z/1.0/${path}`, { as, method: 'POST', body });
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  return JSON.parse(text);
}
async function compat(as: string, path: string, fields: Record<string, string> | FormData) {
  const res = await t.request(`/api/${path}`, { as, method: 'POST', body: fields instanceof FormData ? fields : new URLSearchParams(fields) });
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  return JSON.parse(text);
}

/** The photo and file URLs in a body, with every scale of each photo. */
function mediaUrls(body: string): string[] {
  const urls = new Set<string>();
  for (const m of body.matchAll(/\/photo\/([0-9a-f]{64})-\d+(\.[a-z]+)/g)) for (const s of [0, 1, 2, 3]) urls.add(`/photo/${m[1]}-${s}${m[2]}`);
  for (const m of body.matchAll(/\/attach\/([0-9a-f]{64})/g)) urls.add(`/attach/${m[1]}`);
  return [...urls];
}

interface Thread {
  /** Words only the thread's items contain (its mid is in every item of it). */
  secrets: string[];
  ids: number[];
  media: string[];
}

/** Every read path an outsider has, as paths. */
function readPaths(th: Thread): string[] {
  const paths = [
    '/api/users/show.json?screen_name=alice',
    '/api/statuses/public_timeline.json',
    '/api/statuses/home_timeline.json',
    '/api/statuses/friends_timeline.json',
    '/api/statuses/user_timeline.json?screen_name=alice',
    `/api/search.json?q=${encodeURIComponent(th.secrets[0]!)}`,
    '/api/z/1.0/network/stream',
    '/api/z/1.0/channel/stream',
  ];
  for (const id of th.ids) {
    for (const f of ['json', 'xml', 'rss', 'atom']) paths.push(`/api/statuses/show/${id}.${f}`);
    paths.push(`/api/z/1.0/item/full?item_id=${id}`);
  }
  return paths;
}

/** What each observer can still read of the thread: a list of "observer path" leaks. */
async function leaks(th: Thread, who: Observer[] = observers()): Promise<string[]> {
  const found: string[] = [];
  for (const o of who) {
    for (const p of readPaths(th)) {
      const res = await o.get(p);
      const text = await res.text();
      // A refusal may repeat the search words; the thread's other secrets must not be there.
      const secrets = p.startsWith('/api/search') ? th.secrets.slice(1) : th.secrets;
      for (const s of secrets) if (text.includes(s)) found.push(`${o.name} ${p} shows ${s.slice(0, 20)}`);
    }
    for (const m of th.media) {
      const res = await o.get(m);
      await res.arrayBuffer();
      if (res.status === 200) found.push(`${o.name} ${m} answers 200`);
    }
  }
  return found;
}

/** A public post by alice with a photo and a file, commented and liked by bob. */
async function publicThreadWithMedia(secret: string): Promise<{ thread: Thread; topId: number }> {
  const png = await makeImage(40, 30, 'png');
  const top = (await native('alice', 'item/update', form({ body: `${secret} top` }, { media: { data: png, name: 'p.png', type: 'image/png' } }))).item;
  const withFile = (await native('alice', 'item/update', form({ post_id: top.id, body: top.body }, { media: { data: 'plain file text', name: 'notes.txt', type: 'text/plain' } }))).item;
  const comment = (await native('bob', 'item/update', new URLSearchParams({ body: `${secret} comment by bob`, parent: top.id }))).item;
  await compat('bob', 'favorites/create.json', { id: top.id });
  const media = mediaUrls(withFile.body);
  assert.ok(media.some((m) => m.startsWith('/photo/')) && media.some((m) => m.startsWith('/attach/')), `media in ${withFile.body}`);
  return { thread: { secrets: [secret, top.mid, `${secret} comment`], ids: [Number(top.id), Number(comment.id)], media }, topId: Number(top.id) };
}

async function photoOnItsOwn(secret: string): Promise<{ thread: Thread; photoId: string; album: string }> {
  const png = await makeImage(30, 20, 'png');
  const album = `Album ${secret}`;
  const photo = await compat('alice', 'ext/photo/create.json', form({ album, desc: `${secret} photo` }, { media: { data: png, name: 'q.png', type: 'image/png' } }));
  const id = String(photo.id);
  const urls = [0, 1, 2, 3].map((s) => `/photo/${id}-${s}.png`);
  return { thread: { secrets: [`${secret} photo`], ids: [], media: [...urls, `/attach/${id}`] }, photoId: id, album };
}

const CHANGES: { name: string; run(): Promise<{ thread: Thread; who?: Observer[] }> }[] = [
  {
    name: 'native item/update with post_id makes the thread top private after comments and likes',
    async run() {
      const { thread, topId } = await publicThreadWithMedia('Zquokka1');
      assert.ok((await leaks(thread)).length > 0, 'the thread was public before');
      await native('alice', 'item/update', new URLSearchParams({ post_id: String(topId), body: 'Zquokka1 top', contact_allow: bob.channel_hash }));
      return { thread };
    },
  },
  {
    name: 'ext/photo/update makes a public photo private',
    async run() {
      const { thread, photoId, album } = await photoOnItsOwn('Zquokka2');
      await compat('alice', 'ext/photo/update.json', { photo_id: photoId, album, allow_cid: `<${bob.channel_hash}>` });
      return { thread };
    },
  },
  {
    name: 'an album move keeps a private photo private',
    async run() {
      const { thread, photoId, album } = await photoOnItsOwn('Zquokka3');
      await compat('alice', 'ext/photo/update.json', { photo_id: photoId, album, allow_cid: `<${bob.channel_hash}>` });
      await compat('alice', 'ext/photo/update.json', { photo_id: photoId, album, album_new: 'Elsewhere' });
      return { thread };
    },
  },
  {
    name: 'removing a member from the group a post names takes the thread and its media away from them',
    async run() {
      const list = await compat('alice', 'lists/create.json', { name: 'Close friends', mode: 'private' });
      for (const nick of ['eve', 'bob']) await compat('alice', 'lists/members/create.json', { list_id: String(list.id), screen_name: nick });
      const groups = await (await t.request('/api/z/1.0/group', { as: 'alice' })).json();
      const hash = (groups as { id: string | number; hash: string; gname: string }[]).find((g) => g.gname === 'Close friends')!.hash;
      const png = await makeImage(20, 20, 'png');
      const top = (await native('alice', 'item/update', form({ body: 'Zquokka4 top', group_allow: hash }, { media: { data: png, name: 'g.png', type: 'image/png' } }))).item;
      const comment = (await native('bob', 'item/update', new URLSearchParams({ body: 'Zquokka4 comment by bob', parent: top.id }))).item;
      const thread: Thread = { secrets: ['Zquokka4', top.mid, 'Zquokka4 comment'], ids: [Number(top.id), Number(comment.id)], media: mediaUrls(top.body) };
      const eveOnly = observers().slice(1);
      assert.ok((await leaks(thread, eveOnly)).length > 0, 'a member sees it');
      await compat('alice', 'lists/members/destroy.json', { list_id: String(list.id), screen_name: 'eve' });
      return { thread, who: eveOnly };
    },
  },
];

for (const change of CHANGES) {
  test(`${change.name}: nothing of it stays readable by those who lost access`, async () => {
    const { thread, who } = await change.run();
    assert.deepEqual(await leaks(thread, who), []);
  });
}

test('the channel it was made for still reads the private thread, its comments and its media', async () => {
  const { thread, topId } = await publicThreadWithMedia('Zquokka5');
  await native('alice', 'item/update', new URLSearchParams({ post_id: String(topId), body: 'Zquokka5 top', contact_allow: bob.channel_hash }));
  const asBob: Observer = { name: 'bob', get: (p) => t.request(p, { as: 'bob' }) };
  const seen = await leaks(thread, [asBob]);
  assert.ok(seen.some((l) => l.includes(`/api/statuses/show/${thread.ids[1]}.json`)), seen.join('\n'));
  for (const m of thread.media) assert.ok(seen.includes(`bob ${m} answers 200`), `bob reads ${m}`);
});
