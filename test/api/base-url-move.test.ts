import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { basic, PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { pngOf } from '../helpers/ui.js';
import { setRemoteAvatar, upsertRemoteActor } from '../../server/store/federation.js';
import { insertConnection } from '../../server/store/connections.js';
import { remoteAvatarUrls } from '../../server/federation/avatars.js';
import { getChannelByNick } from '../../server/store/channels.js';
import { DEFAULT_CONNECTION_PERMS } from '../../server/services/connections.js';
import { nowDb } from '../../server/util/time.js';

const BIN = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));

/** The environment without settings that would name the hub's address for the CLI. */
function withoutHubSettings(): NodeJS.ProcessEnv {
  const { HEARTH_PORT: _port, HEARTH_BASE_URL: _base, HEARTH_HOST: _host, ...env } = process.env;
  return env;
}

let t: TestHub;
let dataDir: string;
let oldBase: string;

/** A request to the hub at its current address (which moves in these tests). */
function request(path: string, as: string, init: RequestInit = {}) {
  return fetch(t.hub.baseUrl + path, { ...init, headers: { authorization: basic(as), ...init.headers } });
}

async function json<T>(path: string, as: string): Promise<T> {
  const res = await request(path, as);
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return (await res.json()) as T;
}

interface Note {
  type: number;
  link: string;
  url: string;
  photo: string;
}

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'hearth-move-'));
  t = await startHub({ channels: ['alice', 'bob'], dataDir });
  oldBase = t.hub.baseUrl;
  const image = new FormData();
  image.append('image', new Blob([new Uint8Array(await pngOf({ r: 10, g: 120, b: 90 }, 120, 120))], { type: 'image/png' }), 'me.png');
  assert.equal((await request('/api/account/update_profile_image.json', 'alice', { method: 'POST', body: image })).status, 200);
  assert.equal((await request('/api/account/update_profile_image.json', 'bob', { method: 'POST', body: image })).status, 200);
  // Bob asks to connect and alice accepts (a notification each), then bob comments on alice's post.
  assert.equal((await request('/api/friendships/create.json', 'bob', { method: 'POST', body: new URLSearchParams({ screen_name: `alice@${new URL(t.hub.baseUrl).host}` }) })).status, 200);
  assert.equal((await request('/api/friendships/create.json', 'alice', { method: 'POST', body: new URLSearchParams({ screen_name: `bob@${new URL(t.hub.baseUrl).host}` }) })).status, 200);
  const post = (await (await request('/api/statuses/update.json', 'alice', { method: 'POST', body: new URLSearchParams({ status: 'Moving soon' }) })).json()) as { id: number };
  assert.equal((await request('/api/statuses/update.json', 'bob', { method: 'POST', body: new URLSearchParams({ status: 'Good luck', in_reply_to_status_id: String(post.id) }) })).status, 200);
  // A person elsewhere whom alice is connected to, shown with the hub's copy of their avatar (as
  // the federation leaves them: the URLs name the hub's address of the time).
  const db = t.hub.db;
  const alice = getChannelByNick(db, 'alice')!;
  const id = 'https://elsewhere.example/users/erin';
  upsertRemoteActor(db, { id, address: 'erin@elsewhere.example', name: 'Erin Elsewhere', url: id, icon: '', publicKeyPem: '', inbox: `${id}/inbox`, sharedInbox: 'https://elsewhere.example/inbox', followers: `${id}/followers`, keyId: `${id}#main-key`, manuallyApproves: false }, nowDb());
  setRemoteAvatar(db, id, { source: 'https://elsewhere.example/erin.png', type: 'image/png', urls: remoteAvatarUrls(t.hub.baseUrl, 'https://elsewhere.example/erin.png') }, nowDb());
  insertConnection(db, { account: alice.channel_account_id, channel: alice.channel_id, xchan: id, pending: false, unconnected: false, myPerms: DEFAULT_CONNECTION_PERMS, theirPerms: DEFAULT_CONNECTION_PERMS });
});

test('after the hub moves to another port, notification links, avatars and profile photos follow it', async () => {
  const before = await json<Note[]>('/api/ext/notifications.json', 'alice');
  assert.ok(before.length >= 2);
  for (const n of before) assert.ok(n.link.startsWith(oldBase), n.link);

  await t.hub.rebind({ host: '127.0.0.1', port: 0 });
  assert.notEqual(t.hub.baseUrl, oldBase);

  const notes = await json<Note[]>('/api/ext/notifications.json', 'alice');
  assert.equal(notes.length, before.length);
  for (const n of notes) {
    for (const url of [n.link, n.url, n.photo]) assert.ok(url.startsWith(`${t.hub.baseUrl}/`), `${url} follows the hub to ${t.hub.baseUrl}`);
    assert.equal((await request(new URL(n.photo).pathname, 'alice')).status, 200, 'the actor photo is there');
  }
  const { profiles } = await json<{ profiles: { profile_photo: string; profile_thumb: string }[] }>('/api/ext/profile/show.json', 'alice');
  for (const url of [profiles[0]!.profile_photo, profiles[0]!.profile_thumb]) {
    assert.ok(url.startsWith(`${t.hub.baseUrl}/`), url);
    assert.equal((await request(new URL(url).pathname, 'alice')).status, 200, url);
  }
});

test('after the hub moves, the avatars of people elsewhere point at its new address', async () => {
  const erin = async () => (await json<{ xchan_hash: string; xchan_photo_l: string; xchan_photo_m: string; xchan_photo_s: string }[]>('/api/z/1.0/abook', 'alice')).find((c) => c.xchan_hash.includes('erin'))!;
  const before = await erin();
  const base = t.hub.baseUrl;
  for (const url of [before.xchan_photo_l, before.xchan_photo_m, before.xchan_photo_s]) assert.ok(url.startsWith(`${base}/photo/remote/`), url);
  await t.hub.rebind({ host: '127.0.0.1', port: 0 });
  assert.notEqual(t.hub.baseUrl, base);
  const after = await erin();
  for (const [was, now] of [[before.xchan_photo_l, after.xchan_photo_l], [before.xchan_photo_m, after.xchan_photo_m], [before.xchan_photo_s, after.xchan_photo_s]] as const) {
    assert.equal(now, t.hub.baseUrl + was.slice(base.length), `${was} follows the hub to ${t.hub.baseUrl}`);
  }
});

after(async () => {
  await t?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

test('a channel made with `hearth channel create` while the hub runs gets the URLs the hub uses', async () => {
  // Asynchronously: the hub runs in this process and keeps serving meanwhile.
  await promisify(execFile)(process.execPath, [BIN, 'channel', 'create', '--nick', 'carol', '--name', 'Carol', '--password', PASSWORD, '--data', dataDir], { env: withoutHubSettings() });
  const carol = await json<{ url: string; profile_image_url: string }>('/api/users/show.json?screen_name=carol', 'alice');
  assert.equal(carol.url, `${t.hub.baseUrl}/channel/carol`);
  assert.ok(carol.profile_image_url.startsWith(`${t.hub.baseUrl}/`), carol.profile_image_url);
});
