import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHub, type TestHub } from '../helpers/hub.js';
import type { HubOptions } from '../../server/hub.js';
import { HOSTILE_PASSWORD, HOSTILE_USER, portable, post, startHostileSource, type HostileSource, type HostileSourceSpec } from '../helpers/hostile-source.js';
import { hugePng, tinyPng } from '../helpers/hostile.js';
import { webLogin } from '../helpers/web-session.js';
import { importChannel, type ImportOptions } from '../../server/services/channel-import/importer.js';
import type { ImportSummary } from '../../server/services/channel-import/progress.js';
import { connect } from '../../server/services/connections.js';
import { createItem } from '../../server/services/items.js';
import { insertXchanIfMissing } from '../../server/store/channel-import.js';
import { getXchan } from '../../server/store/xchans.js';

/**
 * Channel imports from a source hub under the attacker's control (test/helpers/hostile-source.ts):
 * it may lie about who wrote what and who it is, send answers without end or of any size, and
 * name files and folders as it likes. What the import brings is observed through the hub's APIs.
 */

const BIN = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function hub(channels: string[], options?: Partial<HubOptions>): Promise<TestHub> {
  const t = await startHub({ channels, options });
  cleanups.push(() => t.stop());
  return t;
}

async function source(spec: HostileSourceSpec): Promise<HostileSource> {
  const s = await startHostileSource(spec);
  cleanups.push(() => s.close());
  return s;
}

const run = (t: TestHub, s: HostileSource, opts: ImportOptions = {}) => importChannel(t.hub, { from: s.url, user: HOSTILE_USER, password: HOSTILE_PASSWORD }, opts);
const skipped = (s: ImportSummary, reason: RegExp) => s.skipped.filter((g) => reason.test(g.reason)).flatMap((g) => g.examples);

/** What anyone sees of a channel: its Mastodon account (statuses_count) and its statuses, anonymously. */
async function publicView(t: TestHub, nick: string) {
  const account = (await (await fetch(`${t.url}/api/v1/accounts/lookup?acct=${nick}`)).json()) as { id: string; acct: string; statuses_count: number };
  const statuses = (await (await fetch(`${t.url}/api/v1/accounts/${account.id}/statuses?limit=40`)).json()) as { content: string; account: { acct: string } }[];
  return { account, texts: statuses.map((s) => `${s.account.acct}: ${s.content.replace(/<[^>]+>/g, '')}`) };
}

async function native(t: TestHub, nick: string, path: string, password?: string) {
  const res = await t.request(`/api/z/1.0/${path}`, { as: nick, password });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return res.json();
}

test('items whose author claims to be a channel of this hub are not written by it, and no look-alike of it is made', async () => {
  const t = await hub(['dave']);
  createItem(t.hub, t.channels.dave!, { body: 'Dave writes this himself' });
  const dave = getXchan(t.hub.db, t.channels.dave!.channel_hash)!;
  const local = dave.xchan_addr;
  const before = await publicView(t, 'dave');
  const s = await source({
    exportBasic: {
      xchan: [{ xchan_hash: 'lookalike-hash', xchan_guid: 'lookalike-guid', xchan_addr: local, xchan_url: `${t.url}/channel/dave`, xchan_name: 'Dave', xchan_network: 'zot6' }],
      abook: [{ abook_xchan: 'lookalike-hash', abook_my_perms: 255, abook_their_perms: 255 }],
    },
    page: (page) =>
      page > 0
        ? { items_total: 6 }
        : {
            items_total: 6,
            item: [
              post(s.url, portable({ name: 'Dave', address: local, guid: dave.xchan_guid }), 'forged 1: his address and guid'),
              post(s.url, portable({ name: 'Dave', address: local, guid: 'made-up-guid' }), 'forged 2: his address'),
              post(s.url, portable({ name: 'Dave', address: 'dave@elsewhere.example', guid: dave.xchan_guid }), 'forged 3: his guid'),
              post(s.url, portable({ name: 'Dave', address: local.toUpperCase().replace(/:\d+$/, ''), url: `${t.url}/channel/dave` }), 'forged 4: his address without port'),
              post(s.url, portable({ name: 'Dave', address: 'someone@nowhere.example', guid: 'lookalike-guid' }), 'forged 5: a listed look-alike'),
              post(s.url, portable({ name: 'Mallory', address: `${HOSTILE_USER}@${s.host}`, guid: s.channel.channel_guid }), 'Mallory writes this'),
            ],
          },
  });

  const summary = await run(t, s);
  const after = await publicView(t, 'dave');
  assert.deepEqual(after.texts, before.texts, 'dave\'s public statuses are what he wrote');
  assert.equal(after.account.statuses_count, before.account.statuses_count);
  assert.equal(summary.state, 'done', JSON.stringify(summary));
  assert.equal(summary.imported.items, 1, 'only the channel\'s own post');
  assert.equal(skipped(summary, /claims to be another channel of this hub/).length, 5, JSON.stringify(summary.skipped));
  const mallory = await publicView(t, summary.channel!.nick);
  assert.ok(mallory.texts.some((x) => x.endsWith('Mallory writes this')), mallory.texts.join('\n'));

  const connections = (await native(t, summary.channel!.nick, 'abook')) as { xchan_addr: string; abook_xchan: string }[];
  for (const c of connections.filter((c) => c.xchan_addr.toLowerCase() === local.toLowerCase())) assert.equal(c.abook_xchan, dave.xchan_hash, 'no connection to a look-alike of dave');
  assert.equal(getXchan(t.hub.db, 'lookalike-hash'), undefined, 'no identity with dave\'s address was added');
});

test('a source that claims a channel\'s identity of this hub leaves its posts and connections alone; nor can it take over another source\'s channel', async () => {
  const t = await hub(['dave', 'carol']);
  const { dave, carol } = t.channels;
  connect(t.hub, dave!, carol!.channel_hash);
  const { xchan_id: _id, ...carolX } = getXchan(t.hub.db, carol!.channel_hash)!;
  insertXchanIfMissing(t.hub.db, {
    ...carolX, xchan_hash: 'eve-hash', xchan_guid: 'eve-guid', xchan_addr: 'eve@elsewhere.example', xchan_url: 'https://elsewhere.example/channel/eve', xchan_name: 'Eve', xchan_pubkey: '',
  });
  connect(t.hub, dave!, 'eve-hash');
  createItem(t.hub, dave!, { body: 'Dave was here first' });
  const daveGuid = getXchan(t.hub.db, dave!.channel_hash)!.xchan_guid;
  const abook = async () => ((await native(t, 'dave', 'abook')) as { abook_xchan: string; xchan_addr: string }[]).map((a) => `${a.abook_xchan} ${a.xchan_addr}`).sort();
  const daveBefore = await publicView(t, 'dave');
  const abookBefore = await abook();
  assert.equal(abookBefore.length, 3);

  // dave's guid with a hash of its own
  const claimsGuid = await source({ channel: { channel_address: 'notdave', channel_guid: daveGuid } });
  const s1 = await run(t, claimsGuid);
  // eve's identity (another hub's channel, which dave is connected to)
  const claimsEve = await source({ channel: { channel_address: 'eve', channel_hash: 'eve-hash', channel_guid: 'eve-guid' } });
  const s2 = await run(t, claimsEve);

  assert.deepEqual(await publicView(t, 'dave'), daveBefore, 'dave\'s posts are still his');
  assert.deepEqual(await abook(), abookBefore, 'dave\'s connections, to carol and eve, are still theirs');
  assert.equal((await native(t, 'dave', 'verify')).channel_guid, daveGuid);
  assert.equal(s1.state, 'failed', JSON.stringify(s1));
  assert.match(s1.error!, /channel of this hub/);
  assert.equal(s2.state, 'done', JSON.stringify(s2));

  // A channel moved here from one hub; another hub claims to be that channel, to go on with it.
  const honest = await source({ channel: { channel_address: 'bob', channel_name: 'Bob' } });
  const moved = await run(t, honest);
  assert.equal(moved.state, 'done', JSON.stringify(moved));
  const bobBefore = await publicView(t, 'bob');
  const hijack = await source({
    channel: { channel_address: 'bob', channel_name: 'Bob (hijacked)', channel_hash: honest.channel.channel_hash, channel_guid: honest.channel.channel_guid },
    page: (page) => (page ? { items_total: 1 } : { items_total: 1, item: [post(hijack.url, portable({ name: 'Bob', address: `bob@${hijack.host}`, guid: honest.channel.channel_guid }), 'forged by another hub')] }),
  });
  const s3 = await run(t, hijack);
  assert.deepEqual(await publicView(t, 'bob'), bobBefore, 'bob\'s channel is as it was');
  assert.equal((await native(t, 'bob', 'verify')).channel_name, 'Bob');
  assert.equal(s3.state, 'failed', JSON.stringify(s3));
  assert.match(s3.error!, /only that hub can go on/);
});

test('files over the hub\'s file limit, or over its room for files in transit, are neither fetched nor stored', async () => {
  const t = await hub(['dave'], { limits: { maxUploadBytes: 64 * 1024, maxTmpBytes: 48 * 1024 } });
  const bytes = { huge: Buffer.alloc(100 * 1024, 1), roomy: Buffer.alloc(56 * 1024, 2), small: Buffer.from('small and fine') };
  const file = (hash: string, filename: string, size: number) => ({ hash, filename, filesize: size, is_dir: 0, is_photo: 0, folder: '', filetype: 'application/octet-stream' });
  const s = await source({
    files: [file('huge', 'huge.bin', bytes.huge.length), file('roomy', 'roomy.bin', bytes.roomy.length), file('small', 'small.txt', bytes.small.length)],
    fileBytes: bytes,
  });
  const summary = await run(t, s, { chunkBytes: 16 * 1024 });
  assert.equal(summary.state, 'done', JSON.stringify(summary));
  assert.deepEqual(skipped(summary, /larger than this hub takes for a file/), ['huge.bin']);
  assert.deepEqual(skipped(summary, /no room for it/), ['roomy.bin']);
  assert.equal(summary.imported.files, 1);
  assert.deepEqual(s.requests.filter((r) => /file_id=(huge|roomy)/.test(r)), [], 'not even fetched');
  const files = ((await native(t, summary.channel!.nick, 'files')).results as { filename: string; is_dir: string }[]).filter((f) => f.is_dir === '0');
  assert.deepEqual(files.map((f) => f.filename), ['small.txt']);
  assert.deepEqual(readdirSync(join(t.dataDir, 'tmp')).filter((f) => f.startsWith('import-')), []);
});

test('an oversized answer is refused as it streams in: the hub\'s memory stays bounded and it answers others meanwhile', async () => {
  const t = await hub(['dave']);
  const record = Buffer.from('{"hash":"x","filename":"f","filesize":0,"is_dir":1,"folder":""},');
  const block = Buffer.concat(Array.from({ length: Math.ceil(1048576 / record.length) }, () => record));
  const TOTAL = 120 * 1048576;
  let sent = 0;
  const s = await source({
    answers: {
      files: async (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"success":true,"results":[');
        while (sent < TOTAL && !res.destroyed) {
          sent += block.length;
          if (!res.write(block)) await new Promise((r) => { res.once('drain', r); res.once('close', r); });
        }
        res.end('{"hash":"y","filename":"g","filesize":0,"is_dir":1}]}');
        return undefined;
      },
    },
  });

  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const latencies: number[] = [];
  let importing = true;
  const prober = (async () => {
    while (importing) {
      const started = performance.now();
      const res = await fetch(`${t.url}/api/z/1.0/version`);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const summary = await run(t, s, { maxAnswerBytes: 1048576 });
  importing = false;
  await prober;
  clearInterval(sampler);

  assert.ok(latencies.length > 0);
  assert.ok(Math.max(...latencies) < 2000, `the hub answered within ${Math.round(Math.max(...latencies))} ms meanwhile`);
  assert.ok(peak - baseline < 150 * 1048576, `memory grew by ${Math.round((peak - baseline) / 1048576)} MB`);
  assert.ok(sent < TOTAL, `the source was cut off (${sent} bytes sent)`);
  assert.equal(summary.state, 'failed', JSON.stringify(summary));
  assert.match(summary.error!, /answered files with more than 1 MB/);
});

test('a source that never finishes its answer is given up on within the time allowed', { timeout: 20_000 }, async () => {
  const t = await hub(['dave']);
  const timers: NodeJS.Timeout[] = [];
  cleanups.push(async () => timers.forEach(clearInterval));
  const s = await source({
    answers: {
      verify: (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        timers.push(setInterval(() => !res.destroyed && res.write(' '), 50));
        return undefined;
      },
    },
  });
  const summary = await run(t, s, { timeoutMs: 300 });
  assert.equal(summary.state, 'failed');
  assert.match(summary.error!, /did not answer verify within 0\.3 s/);
  assert.equal(s.requests.length, 3, 'tried three times');
});

test('endless pagination stops at what the source announced, and at the maximum whatever it announces', async () => {
  const t = await hub(['dave']);
  const endless = (announced: number) => {
    let made = 0;
    const item = () => post('http://endless.example', portable({ name: 'Someone', address: 'someone@endless.example', guid: 'someone' }), `item ${made++}`);
    // Fresh items on every page (up to 300 pages, so that an import without bounds ends too).
    return source({
      channel: { channel_address: `endless${announced}`.replace(/\W/g, '') },
      page: (page, records) => (page >= 300 ? { items_total: announced } : { items_total: announced, item: Array.from({ length: records }, item) }),
    });
  };
  const huge = await endless(1e12);
  const a = await run(t, huge, { pageSize: 10, maxItems: 50 });
  assert.equal(a.state, 'done', JSON.stringify(a));
  assert.ok(a.imported.items <= 50, `${a.imported.items} items`);
  assert.ok(huge.requests.filter((r) => r.includes('export_page')).length <= 7);
  assert.match(a.notes.join(' '), /announced 1000000000000 posts, comments and likes; the import stopped after 50/);

  const twenty = await endless(20);
  const b = await run(t, twenty, { pageSize: 10 });
  assert.equal(b.state, 'done', JSON.stringify(b));
  assert.ok(b.imported.items <= 30, `${b.imported.items} items`);
  assert.ok(twenty.requests.filter((r) => r.includes('export_page')).length <= 4);
});

test('a photo too large to process is skipped and listed; the rest arrives', async () => {
  const t = await hub(['dave']);
  const big = Buffer.from(hugePng(40000, 40000));
  const ok = Buffer.from(tinyPng());
  const photoFile = (hash: string, filename: string, size: number) => ({ hash, filename, filesize: size, is_dir: 0, is_photo: 1, folder: 'pics', filetype: 'image/png' });
  const s = await source({
    files: [
      { hash: 'pics', filename: 'Pictures', filesize: 0, is_dir: 1, is_photo: 0, folder: '' },
      photoFile('big', 'big.png', big.length),
      photoFile('ok', 'ok.png', ok.length),
    ],
    photos: [
      { resource_id: 'big', imgscale: 0, album: 'Pictures', title: '', description: '', photo_usage: 0 },
      { resource_id: 'ok', imgscale: 0, album: 'Pictures', title: '', description: '', photo_usage: 0 },
    ],
    fileBytes: { big, ok },
    page: (page) => (page ? { items_total: 1 } : { items_total: 1, item: [post(s.url, portable({ name: 'Mallory', address: `${HOSTILE_USER}@${s.host}`, guid: s.channel.channel_guid }), 'A post after the photos')] }),
  });
  const summary = await run(t, s);
  assert.equal(summary.state, 'done', JSON.stringify(summary));
  assert.deepEqual(skipped(summary, /too large to process/), ['big.png']);
  assert.equal(summary.imported.photos, 1);
  assert.equal(summary.imported.items, 1);
  const photos = (await native(t, summary.channel!.nick, 'photos')).photos as { filename: string }[];
  assert.deepEqual([...new Set(photos.map((p) => p.filename))], ['ok.png']);
});

test('a from address that is not http(s) is refused with 400 by the UI\'s route and by the CLI', async () => {
  const t = await hub(['dave']);
  const session = await webLogin(t, 'dave');
  const csrf = ((await (await session.get('/session')).json()) as { csrf: string }).csrf;
  const headers = { 'x-csrf-token': csrf, accept: 'application/json', origin: t.url };
  for (const from of ['file:///etc/passwd', 'gopher://127.0.0.1:70/1', 'ftp://127.0.0.1/pub']) {
    const res = await session.post('/channel-import', { from, user: 'alice', password: 'whatever-pw' }, headers);
    assert.equal(res.status, 400, from);
    assert.match(((await res.json()) as { message: string }).message, /http:\/\/ or https:\/\//, from);
  }
  const status = (await (await fetch(`${t.url}/channel-import`, { headers: { ...headers, cookie: session.cookie } })).json()) as { running: boolean; summary?: unknown };
  assert.deepEqual(status, { running: false });

  const direct = await importChannel(t.hub, { from: 'gopher://127.0.0.1:70/', user: 'alice', password: 'whatever-pw' });
  assert.equal(direct.state, 'failed');
  assert.match(direct.error!, /http:\/\/ or https:\/\//);

  const data = mkdtempSync(join(tmpdir(), 'hearth-import-from-'));
  const cli = await hearth(['channel', 'import', '--from', 'ftp://127.0.0.1/pub', '--user', 'alice', '--password', 'whatever-pw', '--data', data]);
  assert.equal(cli.code, 2, cli.err);
  assert.match(cli.err, /--from: the hub's address must start with http:\/\/ or https:\/\//);
});

test('folder and file names from the source never become ".", "..", paths or control characters', async () => {
  const t = await hub(['dave']);
  const png = Buffer.from(tinyPng());
  const s = await source({
    files: [
      { hash: 'up', filename: '..', filesize: 0, is_dir: 1, is_photo: 0, folder: '' },
      { hash: 'here', filename: '.', filesize: 0, is_dir: 1, is_photo: 0, folder: 'up' },
      { hash: 'path', filename: 'a/../../b', filesize: 0, is_dir: 1, is_photo: 0, folder: '' },
      { hash: 'ctl', filename: 'bell\u0007\u009bname', filesize: 0, is_dir: 1, is_photo: 0, folder: 'path' },
      { hash: 'f1', filename: '..', filesize: 3, is_dir: 0, is_photo: 0, folder: 'here', filetype: 'text/plain' },
      { hash: 'f2', filename: '../../etc/x\u0000y.txt', filesize: 3, is_dir: 0, is_photo: 0, folder: 'ctl', filetype: 'text/plain' },
      { hash: 'f3', filename: 'p.png', filesize: png.length, is_dir: 0, is_photo: 1, folder: 'up', filetype: 'image/png' },
    ],
    photos: [{ resource_id: 'f3', imgscale: 0, album: '..', title: '', description: '', photo_usage: 0 }],
    fileBytes: { f1: Buffer.from('one'), f2: Buffer.from('two'), f3: png },
  });
  const summary = await run(t, s);
  assert.equal(summary.state, 'done', JSON.stringify(summary));
  assert.equal(summary.imported.files + summary.imported.photos, 3, JSON.stringify(summary));
  const files = (await native(t, summary.channel!.nick, 'files')).results as { hash: string; filename: string; is_dir: string }[];
  assert.equal(files.filter((f) => f.is_dir === '0').length, 3);
  for (const f of files) {
    assert.ok(!['.', '..', ''].includes(f.filename), `name ${JSON.stringify(f.filename)}`);
    assert.ok(!/[/\\\u0000-\u001f\u007f-\u009f]/.test(f.filename), `name ${JSON.stringify(f.filename)}`);
    const path = (await native(t, summary.channel!.nick, `filemeta?file_id=${f.hash}`)).attach.display_path as string;
    assert.ok(path.split('/').every((seg) => !['.', '..', ''].includes(seg)), `path ${JSON.stringify(path)}`);
  }
  const albums = (await native(t, summary.channel!.nick, 'albums')).albums as { text: string }[];
  assert.ok(albums.every((a) => a.text !== '..' && a.text !== '.'), JSON.stringify(albums));
});

function hearth(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HEARTH_IMPORT_PASSWORD: '', ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

test('hearth channel import takes the password from HEARTH_IMPORT_PASSWORD, says when there is none to take, and warns of plain http', async () => {
  const s = await source({ channel: { channel_address: HOSTILE_USER } });
  const data = mkdtempSync(join(tmpdir(), 'hearth-import-pw-'));
  const none = await hearth(['channel', 'import', '--from', s.url, '--user', HOSTILE_USER, '--data', data]);
  assert.equal(none.code, 2, none.err);
  assert.match(none.err, /type it when asked \(on a terminal\), or set HEARTH_IMPORT_PASSWORD/);
  assert.equal(s.requests.length, 0, 'nothing was sent');

  const fromEnv = await hearth(['channel', 'import', '--from', s.url, '--user', HOSTILE_USER, '--data', data], { HEARTH_IMPORT_PASSWORD: HOSTILE_PASSWORD });
  assert.equal(fromEnv.code, 0, fromEnv.err + fromEnv.out);
  assert.match(fromEnv.out, /Imported mallory from/);
  assert.match(fromEnv.err, new RegExp(`Warning: ${s.url} is not https: the password goes there unencrypted`));
  assert.ok(fromEnv.err.indexOf('Warning') < fromEnv.err.indexOf('Connecting') || !fromEnv.err.includes('Connecting'), 'warned before anything was sent');
});

const hasScript = spawnSync('script', ['--version']).status === 0;

test('hearth channel import asks for the password on a terminal without echoing it', { skip: !hasScript && 'needs util-linux script for a terminal', timeout: 30_000 }, async () => {
  const s = await source({ channel: { channel_address: HOSTILE_USER } });
  const data = mkdtempSync(join(tmpdir(), 'hearth-import-tty-'));
  const command = [process.execPath, BIN, 'channel', 'import', '--from', s.url, '--user', HOSTILE_USER, '--data', data].map((a) => `'${a}'`).join(' ');
  // script(1) runs the command on a terminal of its own and passes our input to it.
  const child = spawn('script', ['-qefc', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, HEARTH_IMPORT_PASSWORD: '' } });
  let out = '';
  let typed = false;
  child.stdout.on('data', (c) => {
    out += c;
    if (!typed && out.includes(`Password of ${HOSTILE_USER} on ${s.url}: `)) {
      typed = true;
      child.stdin.write(`${HOSTILE_PASSWORD}\r`);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, out);
  assert.ok(typed, out);
  assert.match(out, /Imported mallory from/);
  assert.equal(out.includes(HOSTILE_PASSWORD), false, 'the password never showed');
  assert.ok(out.indexOf('is not https') < out.indexOf('Password of'), 'warned before it was asked for');
});
