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
});

after(async () => {
  await t?.stop();
  await rm(dataDir, { recursive: true, force: true });
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

test('a channel made with `hearth channel create` while the hub runs gets the URLs the hub uses', async () => {
  // Asynchronously: the hub runs in this process and keeps serving meanwhile.
  await promisify(execFile)(process.execPath, [BIN, 'channel', 'create', '--nick', 'carol', '--name', 'Carol', '--password', PASSWORD, '--data', dataDir], { env: withoutHubSettings() });
  const carol = await json<{ url: string; profile_image_url: string }>('/api/users/show.json?screen_name=carol', 'alice');
  assert.equal(carol.url, `${t.hub.baseUrl}/channel/carol`);
  assert.ok(carol.profile_image_url.startsWith(`${t.hub.baseUrl}/`), carol.profile_image_url);
});
