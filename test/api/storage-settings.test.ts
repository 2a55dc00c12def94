import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { sessionCsrf } from '../helpers/oauth-client.js';
import { addForeignAccount, EVE_PASSWORD } from '../helpers/seed.js';
import { apiCall, postStatus } from '../helpers/ui-fixtures.js';
import { pngOf } from '../helpers/ui.js';
import { remoteAvatarFolder, remoteAvatarUrls } from '../../server/federation/avatars.js';
import { setRemoteAvatar, upsertRemoteActor } from '../../server/store/federation.js';
import { getXchan } from '../../server/store/xchans.js';
import { nowDb, toDbDate } from '../../server/util/time.js';

// Settings → Storage: the owner sees how big the database and the store are, by channel and by
// kind, removes old seen notifications and the remote avatar cache, and compacts the database.
// Nobody else may read or change any of it. (All of these endpoints are new: before the feature
// every request here got a 404, so each test failed.)

const BASE = '/settings/storage/';

interface Report {
  countedAt: string;
  database: { bytes: number; freeBytes: number; unusedBytes: number | null; pageSize: number; measured: boolean };
  kinds: { kind: string; rows: number; bytes: number }[];
  store: { bytes: number; photos: { count: number; bytes: number }; files: { count: number; bytes: number } };
  remoteMedia: { files: number; bytes: number; estimated: boolean };
  channels: { id: number; nick: string; rows: Record<string, number>; dbBytes: number; seenNotifications: number; photos: { count: number; bytes: number }; files: { count: number; bytes: number } }[];
  vacuum: { freeBytes: number; unusedBytes: number | null; seconds: number };
}

async function post(t: TestHub, s: WebSession, path: string, body: unknown = {}): Promise<Response> {
  return fetch(t.url + BASE + path, {
    method: 'POST',
    headers: { cookie: s.cookie, 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': await sessionCsrf(s), origin: t.url },
    body: JSON.stringify(body),
  });
}

async function report(s: WebSession): Promise<Report> {
  const res = await s.get(`${BASE}state`);
  assert.equal(res.status, 200);
  return (await res.json()) as Report;
}

async function uploadPhoto(t: TestHub, as: string, album: string, color: { r: number; g: number; b: number }): Promise<number> {
  const png = await pngOf(color, 200, 150);
  const form = new FormData();
  form.append('album', album);
  form.append('media', new Blob([new Uint8Array(png)], { type: 'image/png' }), `${album}.png`);
  const res = await t.request('/api/ext/photo/create', { as, method: 'POST', body: form });
  assert.equal(res.status, 200, await res.clone().text());
  return png.length;
}

/** Notifications for `nick`, `days` old, seen or not (the hub makes them as things happen; here they are aged too). */
function addNotifications(t: TestHub, nick: string, n: number, days: number, seen: boolean, msg = 'liked your post'): void {
  const created = toDbDate(new Date(Date.now() - days * 86_400_000));
  const insert = t.hub.db.prepare('INSERT INTO notify (uid, created, seen, msg, xname) VALUES (?, ?, ?, ?, ?)');
  t.hub.db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(t.channels[nick]!.channel_id, created, seen ? 1 : 0, msg, 'Someone');
  })();
}

const onDisk = async (t: TestHub) => {
  const size = async (f: string) => (await stat(join(t.dataDir, f)).catch(() => undefined))?.size ?? 0;
  return (await size('hearth.db')) + (await size('hearth.db-wal'));
};

test('only the owner, from the hub\'s own page, sees the sizes or cleans up', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    await addForeignAccount(t.hub, 'eve', EVE_PASSWORD);
    const owner = await webLogin(t, 'alice');
    const eve = await webLogin(t, 'eve', EVE_PASSWORD);
    addNotifications(t, 'alice', 3, 100, true);

    assert.equal((await fetch(`${t.url}${BASE}state`)).status, 401, 'anonymous read');
    assert.equal((await eve.get(`${BASE}state`)).status, 403, "another account's read");
    assert.equal((await t.request(`${BASE}state`, { as: 'alice' })).status, 401, 'the password over Basic (an app) reads nothing');

    for (const path of ['notifications', 'remote-media', 'vacuum']) {
      const body = JSON.stringify({ days: 30 });
      const attempts = [
        { who: 'anonymous', status: 401, res: await fetch(t.url + BASE + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body }) },
        { who: "another account's session with its own CSRF token", status: 403, res: await post(t, eve, path, { days: 30 }) },
        { who: "the owner's cookie without the CSRF token", status: 403, res: await fetch(t.url + BASE + path, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/json' }, body }) },
        { who: 'another site with the CSRF token', status: 403, res: await fetch(t.url + BASE + path, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/json', 'x-csrf-token': await sessionCsrf(owner), origin: 'https://evil.example' }, body }) },
      ];
      for (const a of attempts) assert.equal(a.res.status, a.status, `${path}, ${a.who}: ${await a.res.text()}`);
    }
    assert.equal((t.hub.db.prepare('SELECT count(*) AS n FROM notify').get() as { n: number }).n, 3, 'no notification was removed');

    for (const days of [0, -1, 3651, 1.5, 'ten', '', null, [30], { days: 30 }]) {
      const res = await post(t, owner, 'notifications', { days });
      assert.equal(res.status, 400, `days ${JSON.stringify(days)}: ${await res.text()}`);
    }
    assert.equal((await post(t, owner, 'notifications', {})).status, 400, 'days missing');
    assert.equal((await post(t, owner, 'notifications', { days: '30' })).status, 200, 'days as text, as a form sends it');
  } finally {
    await t.stop();
  }
});

test('the sizes split by channel and by kind match what each channel made', async () => {
  const t = await startHub({ channels: ['alice', 'bob'] });
  try {
    const owner = await webLogin(t, 'alice');
    const first = await postStatus(t, 'alice', 'First post');
    await postStatus(t, 'alice', 'Second post');
    await postStatus(t, 'alice', 'Third post');
    await postStatus(t, 'bob', 'A reply from Bob', { in_reply_to_status_id: String(first.id) });
    await apiCall(t, 'bob', '/api/ext/activity/like', { id: String(first.id) });
    const alicePhotos = (await uploadPhoto(t, 'alice', 'Sea', { r: 10, g: 90, b: 200 })) + (await uploadPhoto(t, 'alice', 'Sea', { r: 200, g: 90, b: 10 }));
    await uploadPhoto(t, 'bob', 'Bikes', { r: 50, g: 50, b: 50 });

    const r = await report(owner);
    const alice = r.channels.find((c) => c.nick === 'alice')!;
    const bob = r.channels.find((c) => c.nick === 'bob')!;
    // A photo's upload is a post of its own (hidden, as in Hubzilla): alice wrote 3 and 2 photos.
    assert.equal(alice.photos.count, 2);
    assert.equal(bob.photos.count, 1);
    assert.ok(alice.photos.bytes >= alicePhotos, 'the originals and their smaller scales');
    assert.ok(bob.photos.bytes > 0 && bob.photos.bytes < alice.photos.bytes);
    assert.equal(r.store.photos.count, 3);
    assert.equal(r.store.photos.bytes, alice.photos.bytes + bob.photos.bytes, 'no photo is counted twice');
    assert.equal(r.store.bytes, r.store.photos.bytes + r.store.files.bytes);
    // A channel holds its threads: bob's reply and like on alice's post are rows of alice's channel.
    // A photo's upload is a (hidden) post of its own, as in Hubzilla.
    assert.deepEqual([alice.rows.posts, alice.rows.comments, alice.rows.likes], [3 + 2, 1, 1], `alice: ${JSON.stringify(alice.rows)}`);
    assert.deepEqual([bob.rows.posts, bob.rows.comments, bob.rows.likes], [1, undefined, undefined], `bob: ${JSON.stringify(bob.rows)}`);
    assert.ok(alice.dbBytes > 0 && bob.dbBytes > 0);

    assert.equal(r.database.measured, true, 'this SQLite has dbstat');
    assert.ok(typeof r.database.unusedBytes === 'number' && r.database.unusedBytes > 0, 'room unused inside pages, measured');
    assert.equal(r.database.bytes % r.database.pageSize, 0);
    const kinds = Object.fromEntries(r.kinds.map((k) => [k.kind, k]));
    for (const kind of ['posts', 'comments', 'likes', 'photos']) assert.ok(kinds[kind]!.rows > 0 && kinds[kind]!.bytes > 0, kind);
    const counted = r.kinds.reduce((a, k) => a + k.bytes, 0);
    assert.ok(counted <= r.database.bytes && counted >= r.database.bytes - r.database.freeBytes - 2 * r.database.pageSize, `kinds add up to the database (${counted} of ${r.database.bytes})`);
  } finally {
    await t.stop();
  }
});

test('cleaning notifications removes only the old seen ones, on every channel, and says how many', async () => {
  const t = await startHub({ channels: ['alice', 'bob'] });
  try {
    const owner = await webLogin(t, 'alice');
    addNotifications(t, 'alice', 4, 100, true);
    addNotifications(t, 'alice', 2, 100, false);
    addNotifications(t, 'alice', 3, 5, true);
    addNotifications(t, 'bob', 5, 40, true);
    addNotifications(t, 'bob', 1, 20, true);
    const before = await report(owner);
    assert.equal(before.channels.find((c) => c.nick === 'alice')!.rows.notifications, 9);
    assert.equal(before.channels.find((c) => c.nick === 'alice')!.seenNotifications, 7);

    const res = await post(t, owner, 'notifications', { days: 30 });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { removed: 9 });
    const after = await report(owner);
    const alice = after.channels.find((c) => c.nick === 'alice')!;
    const bob = after.channels.find((c) => c.nick === 'bob')!;
    assert.deepEqual([alice.rows.notifications, alice.seenNotifications], [5, 3], 'the unseen old ones and the recent ones stay');
    assert.deepEqual([bob.rows.notifications, bob.seenNotifications], [1, 1]);
    assert.deepEqual(await (await post(t, owner, 'notifications', { days: 30 })).json(), { removed: 0 }, 'nothing more to remove');
  } finally {
    await t.stop();
  }
});

test('cleaning the remote media cache removes the avatar copies, says what it freed, and the avatars fall back to defaults', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const owner = await webLogin(t, 'alice');
    const id = 'https://social.example/users/rosa';
    upsertRemoteActor(t.hub.db, { id, address: 'rosa@social.example', name: 'Rosa', url: 'https://social.example/@rosa', icon: 'https://social.example/rosa.png', publicKeyPem: '', inbox: `${id}/inbox`, sharedInbox: '', followers: `${id}/followers`, keyId: '', manuallyApproves: false }, nowDb());
    setRemoteAvatar(t.hub.db, id, { source: 'https://social.example/rosa.png', type: 'image/png', urls: remoteAvatarUrls(t.hub.baseUrl, 'https://social.example/rosa.png') }, nowDb());
    // The copies as avatars.ts writes them: one file per size.
    const folder = remoteAvatarFolder(t.dataDir);
    await mkdir(folder, { recursive: true });
    const { createHash } = await import('node:crypto');
    const stem = createHash('sha256').update(id).digest('hex').slice(0, 40);
    const pictures = { l: await pngOf({ r: 250, g: 0, b: 0 }, 300, 300), m: await pngOf({ r: 250, g: 0, b: 0 }, 80, 80), s: await pngOf({ r: 250, g: 0, b: 0 }, 48, 48) };
    for (const [size, bytes] of Object.entries(pictures)) await writeFile(join(folder, `${stem}-${size}`), bytes);
    const total = pictures.l.length + pictures.m.length + pictures.s.length;
    const xchanId = getXchan(t.hub.db, id)!.xchan_id;
    const served = async () => Buffer.from(await (await fetch(`${t.url}/photo/remote/l/${xchanId}`)).arrayBuffer());
    assert.deepEqual(await served(), pictures.l, 'the copy is served');

    assert.deepEqual((await report(owner)).remoteMedia, { files: 3, bytes: total, estimated: false });
    const res = await post(t, owner, 'remote-media');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { files: 3, bytes: total });
    assert.deepEqual(await readdir(folder), []);
    assert.deepEqual((await report(owner)).remoteMedia, { files: 0, bytes: 0, estimated: false });
    assert.notDeepEqual(await served(), pictures.l, 'a default avatar now');
    assert.match(getXchan(t.hub.db, id)!.xchan_photo_l, /\?v=default$/, 'at a new address, so that apps fetch it again');
  } finally {
    await t.stop();
  }
});

test('VACUUM shrinks the file after deletes, and waits for a running backup', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const owner = await webLogin(t, 'alice');
    addNotifications(t, 'alice', 3000, 400, true, 'x'.repeat(2000));
    assert.deepEqual(await (await post(t, owner, 'notifications', { days: 365 })).json(), { removed: 3000 });
    const estimate = (await report(owner)).vacuum;
    assert.ok(estimate.freeBytes > 4_000_000, `the freed pages are free space: ${estimate.freeBytes}`);
    assert.ok(estimate.seconds >= 1);

    // A backup running (its lock names a live process: this one).
    await writeFile(join(t.dataDir, 'backup.lock'), `${process.pid}\n`);
    const busy = await post(t, owner, 'vacuum');
    assert.equal(busy.status, 409, await busy.clone().text());
    assert.match(((await busy.json()) as { message: string }).message, /backup is running/);
    const { rm } = await import('node:fs/promises');
    await rm(join(t.dataDir, 'backup.lock'));

    const sizeBefore = await onDisk(t);
    const res = await post(t, owner, 'vacuum');
    assert.equal(res.status, 200, await res.clone().text());
    const done = (await res.json()) as { freedBytes: number; bytes: number };
    assert.ok(done.freedBytes >= estimate.freeBytes * 0.9, `freed ${done.freedBytes} of ${estimate.freeBytes}`);
    // The WAL is truncated at once, or soon when the hub's checkpoint worker was copying it back.
    let sizeAfter = await onDisk(t);
    for (let i = 0; i < 50 && sizeAfter >= sizeBefore - 4_000_000; i++) {
      await new Promise((r) => setTimeout(r, 100));
      sizeAfter = await onDisk(t);
    }
    assert.ok(sizeAfter < sizeBefore - 4_000_000, `the files shrank: ${sizeBefore} → ${sizeAfter}`);
    assert.equal((await report(owner)).vacuum.freeBytes, 0);
    assert.equal((await t.request('/api/account/verify_credentials.json', { as: 'alice' })).status, 200, 'the hub answers as before');
  } finally {
    await t.stop();
  }
});
