import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call as native } from '../helpers/native.js';
import { HUBZILLA_PASSWORD, HUBZILLA_USER, startFakeHubzilla, type FakeHubzilla } from '../helpers/fake-hubzilla.js';
import { importChannel } from '../../server/services/channel-import/importer.js';
import { RECORDED_CHUNK_BYTES, RECORDED_PAGE_SIZE } from '../fixtures/hubzilla/record-import.js';

/**
 * Importing a channel from a real Hubzilla 8.8.7, without Hubzilla: a fake hub answers with what
 * Hubzilla answered (test/fixtures/hubzilla/import-alice.json). The channel: posts (one for the
 * Friends group, one with a category and a hashtag, one with a picture), bob's comment and like,
 * a comment on a photo, two photos in two albums, two files in nested folders.
 */

const BIN = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));
const HUBZILLA = 'http://127.0.0.1:8480';

let fake: FakeHubzilla;
let t: TestHub;

before(async () => {
  fake = await startFakeHubzilla();
  t = await startHub();
});
after(async () => {
  await t?.stop();
  await fake?.close();
});

const recordedItems = () => fake.recording.exchanges.filter((e) => e.path.includes('item/export_page')).flatMap((e) => e.body.item ?? []);
const recordedFile = (name: string) => fake.recording.exchanges.find((e) => e.path.includes('/files?'))!.body.results.find((f: { filename: string }) => f.filename === name);

test('a Hubzilla channel arrives whole: what came over is what Hubzilla answered', async () => {
  const summary = await importChannel(t.hub, { from: fake.url, user: HUBZILLA_USER, password: HUBZILLA_PASSWORD }, { chunkBytes: RECORDED_CHUNK_BYTES, pageSize: RECORDED_PAGE_SIZE });
  assert.equal(summary.state, 'done', JSON.stringify(summary));
  assert.deepEqual(summary.imported, fake.recording.summary.imported, 'the same as when it was recorded from the real Hubzilla');
  assert.deepEqual(summary.skipped, []);
  assert.deepEqual(summary.source, { url: HUBZILLA, nick: 'alice', address: 'alice@127.0.0.1:8480' });

  // This hub had no account: the channel brought one, with the password it had there.
  const v = await native(t, 'alice', 'verify', {});
  const login = await t.request('/api/z/1.0/verify', { as: 'alice', password: HUBZILLA_PASSWORD });
  assert.equal(login.status, 200);
  const me = await login.json();
  assert.equal(me.channel_name, 'Alice Tester');
  assert.equal(me.xchan_addr, `alice@${new URL(t.url).host}`);
  assert.equal(v.status, 401, 'the test password is not this account\'s');
  const as = { as: 'alice', password: HUBZILLA_PASSWORD };
  const get = async (path: string) => (await t.request(`/api/z/1.0/${path}`, as)).json();

  const exported = (await get('item/export_page?records=100')).item as Record<string, any>[];
  const mids = new Set(exported.map((i) => i.message_id));
  for (const i of recordedItems()) assert.ok(mids.has(i.message_id), `${i.body.slice(0, 30)} (${i.message_id})`);
  const byBody = (s: string) => exported.find((i) => i.body.startsWith(s))!;
  const friendsOnly = byBody('Only for my friends on Hubzilla');
  const groups = await get('group');
  assert.deepEqual(groups.map((g: { gname: string }) => g.gname), ['Friends']);
  assert.equal(friendsOnly.allow_gid, `<${groups[0].hash}>`, 'still for the Friends group');
  const members = await get('group_members?group_name=Friends');
  assert.deepEqual(members.map((m: { xchan_name: string }) => m.xchan_name).sort(), ['Alice Tester', 'Bob Peer']);
  const first = byBody('Hello from Hubzilla');
  assert.deepEqual(first.tags.map((x: { type: string; tag: string }) => `${x.type}:${x.tag}`).sort(), ['category:News', 'hashtag:firstpost']);
  assert.equal(first.title, 'First');
  const pub = byBody('A public post for everyone');
  const thread = exported.filter((i) => i.message_top === pub.message_id && i.message_id !== pub.message_id);
  assert.deepEqual(thread.map((i) => `${i.author.name}:${i.verb.split('/').pop()}:${i.body}`).sort(), [
    'Alice Tester:post:Thanks, Bob!',
    'Bob Peer:like:',
    'Bob Peer:post:Nice to see you here, Alice',
  ]);

  // The picture of the red square: its file hash is a Hearth one, and the post shows it from here.
  const red = byBody('A picture of a red square');
  assert.equal(red.body.includes(HUBZILLA), false);
  const src = /\[zmg=([^\]]+)\]/.exec(red.body)![1]!;
  assert.match(src, new RegExp(`^${t.url}/photo/[0-9a-f]{64}-2\\.png$`));
  const picture = await t.request(new URL(src).pathname, as);
  assert.equal(picture.status, 200);
  assert.equal(picture.headers.get('content-type'), 'image/png');

  const photos = (await get('photos')).photos as Record<string, string>[];
  const albumOf = (name: string) => [...new Set(photos.filter((p) => p.filename === name).map((p) => p.album))];
  assert.deepEqual(albumOf('blue24.png'), ['Holiday']);
  assert.deepEqual(albumOf('red16.png'), ['2026-11']);
  assert.deepEqual(photos.filter((p) => p.filename === 'blue24.png').map((p) => p.imgscale).sort(), ['0', '1', '2', '3'], 'scales made here');
  const blue = photos.find((p) => p.filename === 'blue24.png')!;
  const photoThread = (await get(`photo?photo_id=${blue.resource_id}&scale=3`)).item;
  assert.deepEqual(photoThread.map((i: { body: string }) => i.body).slice(1), ['Lovely blue!'], 'the photo\'s comment came with it');

  const files = (await get('files')).results as { filename: string; hash: string }[];
  const old = files.find((f) => f.filename === 'old.bin')!;
  assert.match(old.hash, /^[0-9a-f]{64}$/, 'Hubzilla\'s file ids become Hearth hashes');
  const meta = (await get(`filemeta?file_id=${old.hash}`)).attach;
  assert.equal(meta.display_path, 'Docs/Old/old.bin', 'in its nested folders');
  const data = (await get(`filedata?file_id=${old.hash}`)).attach;
  assert.ok(Buffer.from(data.content, 'base64').equals(fake.fileBytes(recordedFile('old.bin').hash)), 'the bytes of three chunks, in order');
  assert.equal(Buffer.from((await get(`filedata?file_id=${files.find((f) => f.filename === 'notes.txt')!.hash}`)).attach.content, 'base64').toString(), 'Hubzilla notes\nline two\n');
});

test('importing it again finds everything there: nothing new, nothing twice', async () => {
  const again = await importChannel(t.hub, { from: fake.url, user: HUBZILLA_USER, password: HUBZILLA_PASSWORD });
  assert.equal(again.state, 'done');
  assert.deepEqual([again.imported.items, again.imported.files, again.imported.photos, again.imported.connections], [0, 0, 0, 0]);
  assert.equal(again.skipped.find((g) => g.reason === 'already imported')?.count, recordedItems().length + 4);
  assert.deepEqual(t.hub.db.prepare('SELECT mid FROM item GROUP BY uid, mid HAVING count(*) > 1').all(), []);
});

function hearth(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
  return { child, done };
}

test('hearth channel import: progress, Ctrl-C interrupts it, the same command resumes it, and a summary', async () => {
  const data = mkdtempSync(join(tmpdir(), 'hearth-cli-import-'));
  const args = ['channel', 'import', '--from', fake.url, '--user', HUBZILLA_USER, '--password', HUBZILLA_PASSWORD, '--data', data];
  let release!: () => void;
  fake.holdFiledata(new Promise<void>((resolve) => (release = resolve)));
  const asked = fake.requests.length;
  const first = hearth(args);
  while (!fake.requests.slice(asked).some((r) => r.includes('filedata'))) await new Promise((r) => setTimeout(r, 50));
  first.child.kill('SIGINT');
  const interrupted = await first.done;
  release();
  fake.holdFiledata(undefined);
  assert.equal(interrupted.code, 130, interrupted.err + interrupted.out);
  assert.match(interrupted.out, /Keys are not moved/);
  assert.match(interrupted.out, /Interrupted while importing alice/);
  assert.match(interrupted.out, /Run the same import again to resume/);
  assert.match(interrupted.err, /Files /, 'progress was shown (on stderr)');
  assert.match(interrupted.err, /Interrupting/);

  const second = hearth(args);
  const resumed = await second.done;
  assert.equal(resumed.code, 0, resumed.err + resumed.out);
  assert.match(resumed.out, new RegExp(`Imported alice from ${HUBZILLA} as alice`));
  assert.match(resumed.out, /Imported: 8 posts, comments and likes; 2 files and 2 photos/);
  assert.match(resumed.err, /Posts  \[#+\] 100% 7\/7 posts, comments and likes/);
  const db = new Database(join(data, 'hearth.db'), { readonly: true });
  try {
    assert.equal((db.prepare('SELECT count(*) AS n FROM item').get() as { n: number }).n, 10, '8 posts, comments and likes and the 2 photos\' items, once each');
    assert.equal((db.prepare('SELECT count(*) AS n FROM attach WHERE is_dir = 0').get() as { n: number }).n, 4);
    assert.equal((db.prepare("SELECT state FROM channel_import").get() as { state: string }).state, 'done');
  } finally {
    db.close();
  }

});
