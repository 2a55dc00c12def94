import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPhoto } from '../../server/services/photos.js';
import { storeAttachment } from '../../server/services/attachments.js';
import { getItem } from '../../server/store/items.js';
import { getPhotoScales } from '../../server/store/photos.js';
import { getAttachByHash } from '../../server/store/attachments.js';
import { toAclString } from '../../server/util/ids.js';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { tinyPng } from '../helpers/hostile.js';
import { acceptedMethods, routeUrls, type RouteUrl } from '../helpers/routes.js';
import { EVE_PASSWORD, seed, type Seeded } from '../helpers/seed.js';

// Private items, photos and files never reach a channel or client outside their access lists,
// through any route of either API (asked with the private record's ids in every parameter that
// could name it), any feed format, or the photo and file URLs. Other channels' records are 404 and
// cannot be changed.

let t: TestHub;
let s: Seeded;
let secretPhoto: string;
let secretFile: { hash: string; id: number };
let bobPhoto: string;
const counts = { requests: 0, observers: 0, routes: 0 };

/** What each secret looks like in a response, and who may see it. */
let secrets: { name: string; patterns: string[]; allowed: string[] }[];

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'], options: { throttle: { maxFailures: 1_000_000 } } });
  s = await seed(t);
  const dir = await mkdtemp(join(tmpdir(), 'hearth-acl-'));
  const onlyAlice = { allow_cid: toAclString([s.alice.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' };
  const onlyBob = { allow_cid: toAclString([s.bob.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' };
  await writeFile(join(dir, 'p.png'), tinyPng());
  const photo = await createPhoto(t.hub, s.alice, { filepath: join(dir, 'p.png'), originalFilename: 'secretphotofile.png', mimetype: 'image/png' }, { album: 'secretalbum', title: 'secretphototitle', description: 'secretphotodesc', acl: onlyAlice });
  secretPhoto = photo.attach.hash;
  await writeFile(join(dir, 'b.png'), tinyPng());
  bobPhoto = (await createPhoto(t.hub, s.alice, { filepath: join(dir, 'b.png'), originalFilename: 'bobsphoto.png', mimetype: 'image/png' }, { album: 'bobsalbum', title: 'bobsphototitle', acl: onlyBob })).attach.hash;
  await writeFile(join(dir, 'f.txt'), 'secretfilecontent');
  const file = await storeAttachment(t.hub, s.alice, { filepath: join(dir, 'f.txt'), originalFilename: 'secretfilename.txt', mimetype: 'text/plain' }, { acl: onlyAlice });
  secretFile = { hash: file.hash, id: file.id };
  secrets = [
    { name: 'alice-only post', patterns: ['secret for me', s.onlyMe.mid, s.onlyMe.uuid], allowed: ['alice'] },
    { name: 'post for bob', patterns: ['secret for bob', s.forBob.mid, s.forBob.uuid], allowed: ['alice', 'bob'] },
    { name: 'alice-only photo', patterns: [secretPhoto, 'secretphototitle', 'secretphotodesc', 'secretphotofile', 'secretalbum'], allowed: ['alice'] },
    { name: 'photo for bob', patterns: [bobPhoto, 'bobsphototitle', 'bobsalbum'], allowed: ['alice', 'bob'] },
    { name: 'alice-only file', patterns: [secretFile.hash, 'secretfilename', 'secretfilecontent', Buffer.from('secretfilecontent').toString('base64')], allowed: ['alice'] },
  ];
});
after(async () => {
  console.log(`access control: ${counts.requests} requests by ${counts.observers} observers over ${counts.routes} route×method pairs`);
  await t.stop();
});

const OBSERVERS: Record<string, () => Record<string, string>> = {
  anonymous: () => ({}),
  eve: () => ({ authorization: basic('eve', EVE_PASSWORD) }),
  bob: () => ({ authorization: basic('bob') }),
};

/** Parameter sets naming each private record in every way a route might take it. */
function targets(): Record<string, string>[] {
  const item = (i: { id: number; mid: string; uuid: string }) => ({ id: String(i.id), item_id: String(i.id), post_id: String(i.id), status_id: String(i.id), mid: i.mid, message_id: i.mid, uuid: i.uuid, parent: String(i.id), parent_mid: i.mid, in_reply_to_status_id: String(i.id), since_id: String(i.id - 1), max_id: String(i.id) });
  const photo = (r: string) => ({ id: r, photo_id: r, resource_id: r, resource: r, album: 'secretalbum', scale: '0' });
  return [
    {},
    item(s.onlyMe),
    item(s.forBob),
    photo(secretPhoto),
    photo(bobPhoto),
    { album: 'bobsalbum' },
    { file_id: secretFile.hash, filehash: secretFile.hash, hash: secretFile.hash, id: String(secretFile.id), filename: 'secret' },
    { file_id: secretFile.hash.slice(0, 4), filename: 'secretfile', filetype: 'text' },
    { screen_name: 'alice', user_id: String(s.alice.channel_id), q: 'secret', channel_id: String(s.alice.channel_id), nick: 'alice' },
  ];
}

/** Secrets in a response; ids the observer itself sent (echoed in links and messages) do not count. */
function leaks(observer: string, text: string, sent: string): string[] {
  return secrets.filter((x) => !x.allowed.includes(observer) && x.patterns.some((p) => text.includes(p) && !sent.includes(p))).map((x) => x.name);
}

async function scan(observer: string, r: RouteUrl, method: string): Promise<string[]> {
  const found: string[] = [];
  const formats = ['', ...(r.route.formats ?? r.api.defaultFormats).filter((f) => f !== 'json').map((f) => `.${f}`)];
  for (const params of targets()) {
    const qs = new URLSearchParams(params).toString();
    const paths = [r.path];
    if (r.route.idParam && params.id) paths.push(`${r.path}/${params.id}`);
    for (const path of paths) {
      for (const suffix of params === targets()[0] || params.id ? formats : ['']) {
        const url = `${t.url}${path}${suffix}`;
        const res = method === 'GET'
          ? await fetch(`${url}?${qs}`, { headers: OBSERVERS[observer]!() })
          : await fetch(url, { method, headers: { ...OBSERVERS[observer]!(), 'content-type': 'application/x-www-form-urlencoded' }, body: qs });
        counts.requests++;
        // Compat error bodies echo the requested path and query, which the observer wrote itself.
        const text = (await res.text()).replace(/"request":\s*"[^"]*"/g, '').replace(/<request>[^<]*<\/request>/g, '');
        for (const l of leaks(observer, text, `${path} ${Object.values(params).join(' ')}`)) found.push(`${observer}: ${method} ${path}${suffix}?${qs.slice(0, 80)} → ${res.status} leaks the ${l}`);
      }
    }
  }
  return found;
}

test('no route of either API shows a private record to a channel or client outside its access lists', async () => {
  const found: string[] = [];
  // Read routes only: writes are checked below, and must not run as alice's data by mistake.
  const reads = routeUrls({ allPrefixes: false }).filter((r) => !r.route.path.startsWith('oauth/'));
  for (const observer of Object.keys(OBSERVERS)) {
    counts.observers++;
    for (const r of reads) {
      for (const method of acceptedMethods(r.route)) {
        if (method !== 'GET' && r.route.methods !== '*' && (r.route.methods as string[]).includes('GET')) continue;
        if (method !== 'GET' && !isRead(r)) continue;
        counts.routes++;
        found.push(...(await scan(observer, r, method)));
      }
    }
  }
  assert.deepEqual(found, []);
});

/** Routes whose only method is a write are exercised by the ownership test instead. */
function isRead(r: RouteUrl): boolean {
  return r.route.methods === '*' || (r.route.methods as string[]).some((m) => m === 'GET');
}

test('the owner does see every secret through some route (the scan above looks in the right places)', async () => {
  const seen = new Set<string>();
  for (const r of routeUrls({ allPrefixes: false }).filter((u) => isRead(u) && !u.route.path.startsWith('oauth/'))) {
    for (const params of targets()) {
      const res = await fetch(`${t.url}${r.path}?${new URLSearchParams(params)}`, { headers: { authorization: basic('alice') } });
      counts.requests++;
      const text = await res.text();
      if (res.status < 400) for (const x of secrets) if (x.patterns.some((p) => text.includes(p) && !Object.values(params).includes(p))) seen.add(x.name);
    }
  }
  assert.deepEqual([...seen].sort(), secrets.map((x) => x.name).sort());
});

test('the photo and file URLs serve private records only to those allowed', async () => {
  const urls = (hash: string) => [0, 1, 2, 3].flatMap((scale) => [`/photo/${hash}-${scale}`, `/photo/${hash}-${scale}.png`]).concat([`/photo/${hash}`]);
  const cases: [string, string[], string[]][] = [
    ['alice-only photo', urls(secretPhoto), ['alice']],
    ['photo for bob', urls(bobPhoto), ['alice', 'bob']],
    ['alice-only file', [`/attach/${secretFile.hash}`, `/attach/${secretFile.hash}?download=1`], ['alice']],
  ];
  const failures: string[] = [];
  for (const [what, paths, allowed] of cases) {
    for (const path of paths) {
      for (const observer of ['anonymous', 'eve', 'bob', 'alice']) {
        const headers = observer === 'alice' ? { authorization: basic('alice') } : OBSERVERS[observer]!();
        const res = await fetch(t.url + path, { headers });
        counts.requests++;
        await res.arrayBuffer();
        const ok = res.status === 200;
        if (allowed.includes(observer) ? !ok && path.endsWith('-3') === false && !path.endsWith('-3.png') : res.status !== 404) {
          failures.push(`${observer} GET ${path} (${what}): ${res.status}`);
        }
      }
    }
  }
  assert.deepEqual(failures, []);
});

test('ids of records the caller may not see answer 404 (as their API says for unknown ids), exactly like ids that do not exist', async () => {
  const cases: [string, string, string][] = [
    ['GET', '/api/z/1.0/item/full', `item_id=${s.onlyMe.id}`],
    ['GET', '/api/z/1.0/item/full', `mid=${encodeURIComponent(s.onlyMe.mid)}`],
    ['GET', '/api/z/1.0/photo', `photo_id=${secretPhoto}`],
    ['GET', '/api/z/1.0/filedata', `file_id=${secretFile.hash}`],
    ['GET', '/api/z/1.0/filemeta', `file_id=${secretFile.hash}`],
    ['GET', '/api/z/1.0/file', `file_id=${secretFile.hash}`],
    ['GET', '/api/statuses/show.json', `id=${s.onlyMe.id}`],
    ['GET', `/api/statuses/show/${s.onlyMe.id}.json`, ''],
    ['GET', '/api/ext/photo.json', `photo_id=${secretPhoto}`],
    ['POST', '/api/statuses/destroy.json', `id=${s.onlyMe.id}`],
    ['DELETE', '/api/ext/photo/delete.json', `photo_id=${secretPhoto}`],
  ];
  // Friendica answers 400 for an unknown photo here, and clients expect it; what matters is that a
  // hidden photo looks exactly like a missing one.
  const expected = (path: string) => (path.includes('ext/photo/delete') ? 400 : 404);
  const failures: string[] = [];
  for (const observer of ['eve', 'bob']) {
    for (const [method, path, query] of cases) {
      const headers = OBSERVERS[observer]!();
      const res = method === 'GET' ? await fetch(`${t.url}${path}?${query}`, { headers }) : await fetch(`${t.url}${path}?${query}`, { method, headers });
      counts.requests++;
      const text = await res.text();
      if (res.status !== expected(path)) failures.push(`${observer} ${method} ${path}?${query}: ${res.status} ${text.slice(0, 100)}`);
      // The same request for a record that does not exist must look the same.
      const missing = query.replace(/=\d+$/, '=999999').replace(/=[0-9a-f]{64}$/, `=${'0'.repeat(64)}`).replace(/mid=.*$/, 'mid=nothing%40nowhere');
      const path2 = path.replace(/\/\d+\.json$/, '/999999.json');
      const other = method === 'GET' ? await fetch(`${t.url}${path2}?${missing}`, { headers }) : await fetch(`${t.url}${path2}?${missing}`, { method, headers });
      counts.requests++;
      await other.arrayBuffer();
      if (other.status !== res.status) failures.push(`${observer} ${method} ${path}: ${res.status} for a hidden record but ${other.status} for a missing one`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(getItem(t.hub.db, s.onlyMe.id) && !getItem(t.hub.db, s.onlyMe.id)!.item_deleted);
  assert.equal(getPhotoScales(t.hub.db, secretPhoto).length > 0, true);
});

test('another account\'s credentials cannot change alice\'s records, and her ids are 404 to it', async () => {
  const snapshot = () => JSON.stringify([getItem(t.hub.db, s.onlyMe.id), getItem(t.hub.db, s.forBob.id), getItem(t.hub.db, s.publicPost.id)?.body, getPhotoScales(t.hub.db, secretPhoto), getPhotoScales(t.hub.db, bobPhoto), getAttachByHash(t.hub.db, secretFile.hash)]);
  const before = snapshot();
  const writes = routeUrls({ allPrefixes: false }).filter((r) => !r.route.path.startsWith('oauth/'));
  const failures: string[] = [];
  for (const r of writes) {
    for (const method of acceptedMethods(r.route).filter((m) => m !== 'GET')) {
      for (const params of targets().slice(1)) {
        const body = new URLSearchParams({ ...params, body: 'eve was here', status: 'eve was here', title: 'eve was here', album_new: 'eve was here', desc: 'eve was here', name: 'eve was here' });
        const res = await fetch(t.url + r.path, { method, headers: { authorization: basic('eve', EVE_PASSWORD), 'content-type': 'application/x-www-form-urlencoded' }, body });
        counts.requests++;
        const text = await res.text();
        if (res.status >= 500) failures.push(`eve ${method} ${r.path}: ${res.status} ${text.slice(0, 120)}`);
      }
    }
  }
  assert.deepEqual(failures, []);
  assert.equal(snapshot(), before, 'eve changed alice\'s records');
});
