import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { call as native } from '../helpers/native.js';
import { call as compat } from '../helpers/compat.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { connect } from '../../server/services/connections.js';
import { createItem, deleteItem, setActivity } from '../../server/services/items.js';
import { sendDirectMessage } from '../../server/services/mail.js';
import { createPhoto, setProfilePhoto } from '../../server/services/photos.js';
import { storeAttachment } from '../../server/services/attachments.js';
import { addGroupMember, insertGroup } from '../../server/store/groups.js';
import { setAbconfig } from '../../server/store/connections.js';
import { updateDefaultProfile } from '../../server/store/profile-fields.js';
import { VERB } from '../../server/services/verbs.js';
import { importChannel } from '../../server/services/channel-import/importer.js';
import type { ImportSummary } from '../../server/services/channel-import/progress.js';
import { webLogin } from '../helpers/web-session.js';

/**
 * Moving channels between two Hearth hubs over the native API: a source hub with posts, comments,
 * likes, a post for a privacy group, photos in albums and files in folders; everything arrives on
 * the second hub, the private post still only for the same people.
 */

let src: TestHub;
let dst: TestHub;
let bigHash: string;
const BIG = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));

before(async () => {
  src = await startHub({ channels: ['alice', 'bob', 'carol'] });
  const { alice, bob, carol } = src.channels;
  for (const [a, b] of [[alice, bob], [bob, alice], [alice, carol], [carol, alice]] as const) connect(src.hub, a!, b!.channel_hash);
  setAbconfig(src.hub.db, alice!.channel_id, bob!.channel_hash, 'my_perms', 'write_storage', '1');
  updateDefaultProfile(src.hub.db, alice!.channel_id, { pdesc: 'Gardener and baker' });
  await setProfilePhoto(src.hub, alice!, await tempUpload(await makeImage(400, 400), 'me.jpg'));
  const friends = insertGroup(src.hub.db, alice!.channel_id, 'friends-of-alice', 'Friends');
  addGroupMember(src.hub.db, alice!.channel_id, friends, bob!.channel_hash);
  const sea = await createPhoto(src.hub, alice!, await tempUpload(await makeImage(800, 600), 'sea.jpg'), { album: 'Holiday', title: 'The sea', description: 'blue' });
  await createPhoto(src.hub, alice!, await tempUpload(await makeImage(300, 500, 'png'), 'dune.png'), { album: 'Holiday' });
  await storeAttachment(src.hub, alice!, await tempUpload('shopping list', 'list.txt', 'text/plain'), { folder: 'Notes' });
  bigHash = (await storeAttachment(src.hub, alice!, await tempUpload(BIG, 'big.bin', 'application/octet-stream'), { folder: 'Notes' })).hash;
  const post = createItem(src.hub, alice!, {
    body: `Holidays! #sea @bob [zrl=${src.url}/photos/alice/image/${sea.attach.hash}][zmg=${src.url}/photo/${sea.attach.hash}-2.jpg]sea[/zmg][/zrl]`,
    categories: ['Travel'],
  });
  createItem(src.hub, bob!, { body: 'Lovely!', parentId: post.id });
  setActivity(src.hub, bob!, post.id, VERB.LIKE, true);
  createItem(src.hub, carol!, { body: 'What a view', parentId: sea.item.id });
  createItem(src.hub, alice!, { body: 'Only for my friends', acl: { allow_cid: '', allow_gid: '<friends-of-alice>', deny_cid: '', deny_gid: '' } });
  createItem(src.hub, alice!, { body: 'An older post', created: '2020-05-01 10:00:00' });
  const gone = createItem(src.hub, alice!, { body: 'Deleted before the move' });
  deleteItem(src.hub, alice!, gone.id);
  sendDirectMessage(src.hub, alice!, { recipient: bob!.channel_hash, body: 'Psst, a secret', title: 'Secret' });

  dst = await startHub({ channels: ['dave'] });
});
after(async () => {
  await src?.stop();
  await dst?.stop();
});

const run = (user: string, opts: Parameters<typeof importChannel>[2] = {}) => importChannel(dst.hub, { from: src.url, user, password: PASSWORD }, opts);
const skippedAs = (s: ImportSummary, reason: string) => s.skipped.find((g) => g.reason === reason)?.count ?? 0;

/** The channel's items as the native export lists them, with links to the source hub pointed at the target. */
async function exported(t: TestHub, nick: string) {
  const r = await native(t, nick, 'item/export_page?records=1000');
  assert.equal(r.status, 200, r.text);
  return (r.json.item ?? []) as Record<string, any>[];
}

test('an interrupted import leaves no half file and resumes where it stopped, without duplicates', async () => {
  const stop = new AbortController();
  const interrupting: typeof fetch = (input, init) => {
    const url = String(input);
    // In the middle of big.bin: its second chunk is never asked for.
    if (url.includes('filedata') && url.includes(bigHash) && !url.includes('start=0')) stop.abort(new Error('interrupted'));
    return fetch(input, init);
  };
  const first = await run('alice', { signal: stop.signal, fetch: interrupting, chunkBytes: 2000 });
  assert.equal(first.state, 'interrupted', JSON.stringify(first));
  assert.match(first.notes.join(' '), /again to resume/);
  const alice = dst.hub.db.prepare("SELECT * FROM channel WHERE channel_address = 'alice'").get() as { channel_id: number };
  const names = (dst.hub.db.prepare('SELECT filename FROM attach WHERE uid = ? AND is_dir = 0').all(alice.channel_id) as { filename: string }[]).map((r) => r.filename);
  assert.equal(names.includes('big.bin'), false, 'a file half downloaded has no record');
  assert.deepEqual(readdirSync(join(dst.dataDir, 'tmp')).filter((f) => f.startsWith('import-')), [], 'nor a temporary file left behind');

  const progress: number[] = [];
  const second = await run('alice', { pageSize: 2, chunkBytes: 2000, onProgress: (p) => p.phase === 'items' && progress.push(p.items.done) });
  assert.equal(second.state, 'done', JSON.stringify(second));
  assert.equal(second.channel!.id, alice.channel_id, 'resumed into the same channel');
  assert.ok(skippedAs(second, 'already imported') >= names.length, 'what the first run brought is skipped');
  assert.ok(progress.length > 1 && progress.at(-1)! > progress[0]!, 'items progress is reported as pages come');
  assert.deepEqual(second.skipped.find((g) => g.reason.startsWith('a direct message')), { reason: 'a direct message (direct messages are not moved)', count: 1, examples: ['Secret'] }, 'what does not come is said');
  assert.equal(dst.hub.db.prepare("SELECT count(*) AS n FROM item WHERE body = 'Deleted before the move'").pluck().get(), 0);
  const bigHere = (await native(dst, 'alice', 'files?filename=big.bin')).json.results[0].hash;
  const big = await native(dst, 'alice', `filedata?file_id=${bigHere}`);
  assert.equal(Buffer.from(big.json.attach.content, 'base64').equals(BIG), true, 'the file arrived whole, over several chunks');

  const again = await run('alice');
  assert.equal(again.state, 'done');
  assert.deepEqual([again.imported.items, again.imported.files, again.imported.photos, again.imported.connections, again.imported.groups], [0, 0, 0, 0, 0]);
  assert.ok(skippedAs(again, 'already imported') > 0);
  const mids = dst.hub.db.prepare('SELECT mid, count(*) AS n FROM item GROUP BY mid HAVING n > 1').all();
  assert.deepEqual(mids, [], 'no item twice');
});

test('the round trip: identity, profile, connections, groups, posts, comments, likes, photos and files are all there', async () => {
  const bobRun = await run('bob');
  assert.equal(bobRun.state, 'done', JSON.stringify(bobRun));
  assert.match(bobRun.notes[0]!, /Keys are not moved/);

  const v = (await native(dst, 'alice', 'verify')).json;
  assert.equal(v.channel_name, 'Alice');
  assert.notEqual(v.channel_hash, src.channels.alice!.channel_hash, 'a new identity: keys are not moved');
  assert.equal(v.xchan_addr, `alice@${new URL(dst.url).host}`);
  const profile = (await native(dst, 'alice', 'channel/export/basic?sections=channel')).json.profile[0];
  assert.equal(profile.pdesc, 'Gardener and baker');
  const photoRes = await fetch(`${dst.url}/photo/profile/l/${v.channel_id}`);
  assert.equal(photoRes.headers.get('content-type'), 'image/jpeg', 'the profile photo came along');

  const bobHere = (await native(dst, 'bob', 'verify')).json.channel_hash;
  const connections = (await native(dst, 'alice', 'abook')).json.filter((a: { abook_self: string }) => a.abook_self === '0');
  assert.deepEqual(connections.map((a: { xchan_addr: string }) => a.xchan_addr.split('@')[0]).sort(), ['bob', 'carol']);
  assert.equal(connections.find((a: { xchan_name: string }) => a.xchan_name === 'Bob').abook_xchan, bobHere, 'bob, moved too, is the bob of this hub');
  const bobAbook = connections.find((a: { abook_xchan: string }) => a.abook_xchan === bobHere).abook_id;
  const perms = (await native(dst, 'alice', `perm_allowed?abook_id=${bobAbook}&perm=write_storage`)).json;
  assert.deepEqual(perms, [{ perm: 'write_storage', allowed: true }], 'permissions granted there hold here');
  const members = (await native(dst, 'alice', 'group_members?group_name=Friends')).json;
  assert.deepEqual(members.map((m: { xchan_hash: string }) => m.xchan_hash), [bobHere]);

  const before = await exported(src, 'alice');
  const after = await exported(dst, 'alice');
  assert.equal(after.length, before.length);
  const rewrite = (s: string) => s.replaceAll(src.url, dst.url);
  for (const a of before) {
    const b = after.find((x) => x.message_id === a.message_id);
    assert.ok(b, `item ${a.message_id} (${a.body}) is there`);
    for (const k of ['message_top', 'message_parent', 'created', 'edited', 'verb', 'title', 'object_type', 'item_thread_top', 'comment_scope']) assert.equal(b[k], a[k], `${a.body}: ${k}`);
    assert.equal(b.author.name, a.author.name);
    assert.deepEqual((b.tags ?? []).map((t: { type: string; tag: string }) => `${t.type}:${t.tag}`), (a.tags ?? []).map((t: { type: string; tag: string }) => `${t.type}:${t.tag}`));
    if (!a.body.includes('/photo')) assert.equal(b.body, a.body);
  }
  const holiday = after.find((i) => i.body.startsWith('Holidays!'))!;
  const fileHashes = new Map((await native(src, 'alice', 'files')).json.results.map((f: any) => [f.hash, f.filename]));
  assert.equal(holiday.body.includes(src.url), false, 'links to the photos point at this hub');
  const shown = /\[zmg=([^\]]+)\]/.exec(holiday.body)![1]!;
  assert.equal((await fetch(shown)).status, 200, 'and the picture in the post shows');
  assert.ok(after.some((i) => i.verb === VERB.LIKE && i.author.name === 'Bob'), 'the like');
  assert.ok(after.some((i) => i.body === 'Lovely!' && i.author.name === 'Bob'), 'the comment');
  assert.ok(fileHashes.size > 0);

  // The profile photo became the channel's photo here (under another file name).
  const files = async (t: TestHub) =>
    (await native(t, 'alice', 'files')).json.results
      .filter((f: { is_dir: string; filename: string }) => f.is_dir === '0' && !/^(me\.jpg|profile-photo\.)/.test(f.filename))
      .map((f: any) => `${f.filename}:${f.filesize}:${f.is_photo}`)
      .sort();
  assert.deepEqual(await files(dst), await files(src), 'every file and photo');
  const albums = async (t: TestHub) => (await native(t, 'alice', 'albums')).json.albums.map((a: any) => `${a.text}:${a.total}`).sort();
  assert.deepEqual((await albums(dst)).filter((a: string) => !a.startsWith('Profile')), (await albums(src)).filter((a: string) => !a.startsWith('Profile')));
  const photos = (await native(dst, 'alice', 'photos?album=Holiday')).json.photos;
  const sea = photos.filter((p: any) => p.filename === 'sea.jpg');
  assert.deepEqual(sea.map((p: any) => p.imgscale).sort(), ['0', '1', '2', '3'], 'photo scales made here');
  assert.equal(sea[0].title, 'The sea');
  const thread = (await native(dst, 'alice', `photo?photo_id=${sea[0].resource_id}&scale=3`)).json.item;
  assert.deepEqual(thread.map((i: any) => i.body).slice(1), ['What a view'], 'the photo\'s comment found its photo');
  const notes = (await native(dst, 'alice', 'files?filename=list.txt')).json.results[0];
  const folder = (await native(dst, 'alice', `filemeta?file_id=${notes.hash}`)).json.attach;
  assert.equal(folder.display_path, 'Notes/list.txt', 'files keep their folders');
});

test('the post for a privacy group is still only for its members', async () => {
  const post = dst.hub.db.prepare("SELECT id FROM item WHERE body = 'Only for my friends'").get() as { id: number };
  assert.ok(post);
  const asBob = await compat(dst, `/api/statuses/show/${post.id}.json`, { as: 'bob' });
  assert.equal(asBob.status, 200, asBob.text);
  assert.equal(asBob.body.text, 'Only for my friends');
  assert.equal((await compat(dst, `/api/statuses/show/${post.id}.json`, { as: 'dave' })).status, 404, 'an outsider does not see it');
  const anonymous = await compat(dst, `/api/statuses/show/${post.id}.json`);
  assert.ok(anonymous.status === 401 || anonymous.status === 404, 'nor does the public');
  assert.equal(anonymous.text.includes('Only for my friends'), false);
  const timeline = async (as?: string) => ((await compat(dst, '/api/statuses/user_timeline.json?screen_name=alice&count=50', { as })).body ?? []).map((s: { text: string }) => s.text);
  assert.ok((await timeline('bob')).includes('Only for my friends'));
  assert.equal((await timeline('dave')).includes('Only for my friends'), false);
  assert.ok((await timeline('dave')).includes('An older post'), 'public posts stay public');
});

test('a taken nickname is replaced, and said; a wrong password or an unreachable hub fails clearly without a channel', async () => {
  const carolHere = await dst.addChannel('carol');
  const s = await run('carol');
  assert.equal(s.state, 'done', JSON.stringify(s));
  assert.equal(s.channel!.nick, 'carol-2');
  assert.equal(s.renamedFrom, 'carol');
  assert.match(s.notes.join(' '), /carol is taken on this hub: the channel was imported as carol-2/);
  assert.notEqual(s.channel!.id, carolHere.channel_id);

  const channels = () => (dst.hub.db.prepare('SELECT count(*) AS n FROM channel').get() as { n: number }).n;
  const before = channels();
  const wrong = await importChannel(dst.hub, { from: src.url, user: 'alice', password: 'not it' });
  assert.equal(wrong.state, 'failed');
  assert.match(wrong.error!, /refused the nickname and password/);
  const nowhere = await importChannel(dst.hub, { from: 'http://127.0.0.1:1', user: 'alice', password: PASSWORD });
  assert.equal(nowhere.state, 'failed');
  assert.match(nowhere.error!, /cannot reach/);
  assert.equal(channels(), before);
});

test('the UI\'s /channel-import: the owner\'s session only, every field needed, one import at a time', async () => {
  const session = await webLogin(dst, 'dave');
  const csrf = ((await (await session.get('/session')).json()) as { csrf: string }).csrf;
  const headers = { 'x-csrf-token': csrf, accept: 'application/json', origin: dst.url };
  assert.equal((await fetch(`${dst.url}/channel-import`, { headers: { accept: 'application/json' } })).status, 401);
  assert.equal((await session.post('/channel-import', { from: src.url, user: 'alice', password: PASSWORD }, { accept: 'application/json', origin: dst.url })).status, 401, 'not without the CSRF token');
  const missing = await session.post('/channel-import', { from: src.url, user: 'alice' }, headers);
  assert.equal(missing.status, 400);
  assert.match(((await missing.json()) as { message: string }).message, /password/);
  const idle = (await (await fetch(`${dst.url}/channel-import`, { headers: { ...headers, cookie: session.cookie } })).json()) as { running: boolean };
  assert.equal(idle.running, false);

  const started = await session.post('/channel-import', { from: src.url, user: 'alice', password: PASSWORD }, headers);
  assert.equal(started.status, 202);
  assert.equal(((await started.json()) as { running: boolean }).running, true);
  assert.equal((await session.post('/channel-import', { from: src.url, user: 'bob', password: PASSWORD }, headers)).status, 409);
  let status: { running: boolean; summary?: ImportSummary };
  for (;;) {
    status = (await (await fetch(`${dst.url}/channel-import`, { headers: { ...headers, cookie: session.cookie } })).json()) as typeof status;
    if (!status.running) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(status.summary?.state, 'done', JSON.stringify(status.summary));
  assert.equal(status.summary?.imported.items, 0, 'alice was moved already: nothing new');
});
