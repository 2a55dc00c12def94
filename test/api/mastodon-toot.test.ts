import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub, PASSWORD, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { approveOnPage } from '../helpers/mastodon.js';
import { makeImage } from '../helpers/media.js';
import { getJson } from '../helpers/media.js';

/**
 * Debian's toot (the Mastodon command-line client), unchanged: alice logs in through the OAuth
 * page (toot login, the code pasted back), bob with the password grant (toot login_cli); then
 * post, reply, timeline, notifications, upload, search, follow. Each user has its own HOME.
 */
const TOOT = '/usr/bin/toot';
const skip = existsSync(TOOT) ? false : 'toot is not installed (apt-get install toot)';
let t: TestHub;
let session: WebSession;
let instance: string;
const homes: Record<string, string> = {};

before(async () => {
  if (skip) return;
  t = await startHub({ channels: ['alice'] });
  await t.addChannel('bob');
  session = await webLogin(t, 'alice');
  instance = new URL(t.url).host;
  for (const nick of ['alice', 'bob']) homes[nick] = await mkdtemp(join(tmpdir(), `hearth-toot-${nick}-`));
});
after(async () => {
  if (skip) return;
  await t.stop();
  for (const dir of Object.values(homes)) await rm(dir, { recursive: true, force: true });
});

function env(home: string) {
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), NO_COLOR: '1', TERM: 'dumb' };
}

/** Runs toot without a terminal; the hub answers in this process meanwhile, so it runs asynchronously. */
function toot(nick: string, args: string[], input = ''): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(TOOT, [...args], { env: env(homes[nick]!) });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
    child.stdin.end(input);
  });
}

async function ok(nick: string, args: string[], input = ''): Promise<string> {
  const r = await toot(nick, args, input);
  assert.equal(r.code, 0, `toot ${args.join(' ')}:\n${r.out}`);
  return r.out;
}

test('toot login: the browser flow through the authorize page, the code typed back', { skip, timeout: 120_000 }, async () => {
  const child = spawn(TOOT, ['login', '--instance', instance, '--disable-https'], { env: env(homes.alice!) });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /(http:\/\/\S+\/oauth\/authorize\/?\?\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('close', () => reject(new Error(`toot login ended early:\n${out}`)));
  });
  const q = new URL(url).searchParams;
  assert.equal(q.get('redirect_uri'), 'urn:ietf:wg:oauth:2.0:oob');
  const code = await approveOnPage(session, { client_id: q.get('client_id')!, client_secret: '' }, { channel: 'alice', scope: q.get('scope')! });
  const done = new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  child.stdin.end(`n\n${code}\n`);
  assert.equal(await done, 0, out);
  assert.match(await ok('alice', ['whoami']), /@alice/);
});

test('toot login_cli: the password grant', { skip, timeout: 60_000 }, async () => {
  await ok('bob', ['login_cli', '--instance', instance, '--disable-https', '--email', 'bob'], `${PASSWORD}\n`);
  assert.match(await ok('bob', ['whoami']), /@bob/);
  const wrong = await toot('bob', ['login_cli', '--instance', instance, '--disable-https', '--email', 'bob'], 'wrong password\n');
  assert.notEqual(wrong.code, 0);
});

test('toot: follow, post, reply, timeline, notifications, upload, search', { skip, timeout: 120_000 }, async () => {
  await ok('bob', ['follow', 'alice']);
  // Following back accepts bob's request: they are connected, and bob may answer alice's posts.
  await ok('alice', ['follow', 'bob']);
  const posted = await ok('alice', ['post', 'Hello from toot #tooting']);
  assert.match(posted, /Toot posted: http/);
  const mine = await getJson(t, '/api/statuses/user_timeline.json?screen_name=alice', { as: 'alice' });
  const id = String(mine.body[0].id);
  assert.match(mine.body[0].text, /Hello from toot/);
  await ok('bob', ['post', '--reply-to', id!, '@alice nice one']);
  const timeline = await ok('alice', ['timeline', '--once']);
  assert.match(timeline, /Hello from toot/);
  const notes = await ok('alice', ['notifications']);
  assert.match(notes, /nice one/);
  const dir = homes.bob!;
  const picture = join(dir, 'picture.png');
  await writeFile(picture, await makeImage(64, 48, 'png'));
  const upload = await ok('bob', ['upload', picture, '--description', 'A tiny picture']);
  assert.match(upload, /Successfully uploaded media ID \d+/);
  await ok('bob', ['post', '--media', picture, '--description', 'alt text', 'with a picture']);
  const bobsOwn = await getJson(t, '/api/statuses/user_timeline.json?screen_name=bob', { as: 'bob' });
  assert.ok(bobsOwn.body.some((s: { text: string; attachments: unknown[] | null }) => /with a picture/.test(s.text) && s.attachments?.length), 'the microblog API sees the post with its picture');
  const found = await ok('bob', ['search', 'tooting']);
  assert.match(found, /#tooting/);
  const people = await ok('bob', ['search', 'alice']);
  assert.match(people, /@alice/);
});

test('toot is on the CI machine list', { skip }, () => {
  const r = spawnSync(TOOT, ['--help'], { env: env(homes.alice!) });
  assert.equal(r.status, 0);
});
