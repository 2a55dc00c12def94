import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connect } from '../../server/services/connections.js';
import { createItem, setActivity } from '../../server/services/items.js';
import { VERB } from '../../server/services/verbs.js';
import type { ChannelRow } from '../../server/store/rows.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { approveOnPage, mastodonToken, type MastodonApp } from '../helpers/mastodon.js';
import { makeImage } from '../helpers/media.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';

/**
 * Debian's libmastodon-client-perl (Mastodon::Client), unchanged, run with /usr/bin/perl
 * (test/clients/perl_mastodon_scenario.pl): it registers an app and logs in with the code from the
 * hub's authorize page; then it reads home to its end with max_id, posts with a photo, replies to
 * and favourites a public post of a stranger (carol, whom alice does not follow), follows an
 * unlocked channel (dave) and reads the notifications. Each step is a subtest judged on what the
 * library got back; a failed one shows the hub's answer. Where the library's own method for a call
 * is broken in 0.017 (authorize(), favourite_status(), follow()), the script makes the same call
 * with the library's post(), as its users must.
 */
const PERL = '/usr/bin/perl';
const SCRIPT = join(import.meta.dirname, 'perl_mastodon_scenario.pl');
const missing = (() => {
  if (!existsSync(PERL)) return 'perl is not installed';
  if (!existsSync('/usr/share/perl5/Mastodon/Client.pm')) return 'libmastodon-client-perl is not installed (apt-get install libmastodon-client-perl)';
  return false;
})();

/** Bob's notes on alice's home: more than two pages of 20. */
const BOBS_NOTES = 45;
const STRANGERS_POST = 'Anyone know a good bakery near the station?';

let t: TestHub;
let session: WebSession;
let dir: string;
let photo: string;

before(async () => {
  if (missing) return;
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave'] });
  const { alice, bob, carol } = t.channels as Record<string, ChannelRow>;
  connect(t.hub, alice!, bob!.channel_hash);
  connect(t.hub, bob!, alice!.channel_hash);
  // Alice's own post comes first, so that the last page of her home ends at the hub's first status.
  const mine = createItem(t.hub, alice!, { body: 'Tea in the garden this afternoon?' });
  for (let i = 1; i <= BOBS_NOTES; i++) createItem(t.hub, bob!, { body: `Bob's note number ${i}` });
  createItem(t.hub, bob!, { body: 'Count me in!', parentId: mine.id });
  setActivity(t.hub, bob!, mine.id, VERB.LIKE, true);
  createItem(t.hub, carol!, { body: STRANGERS_POST });
  session = await webLogin(t, 'alice');
  dir = await mkdtemp(join(tmpdir(), 'hearth-perl-'));
  photo = join(dir, 'bread.png');
  await writeFile(photo, await makeImage(64, 48, 'png', '#a63'));
});
after(async () => {
  if (missing) return;
  await t.stop();
  await rm(dir, { recursive: true, force: true });
});

interface StepLine {
  step: string;
  ok: 0 | 1;
  error?: string;
  answer?: string;
  [k: string]: unknown;
}

/** Runs the script in a mode; `onLine` sees each step as it is reported and may answer on stdin. */
function runPerl(mode: string, env: Record<string, string>, onLine: (line: StepLine, stdin: NodeJS.WritableStream) => Promise<void> | void = () => {}) {
  return new Promise<{ steps: Map<string, StepLine>; code: number; stderr: string }>((resolve, reject) => {
    const child = spawn(PERL, [SCRIPT, mode], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, HUB_URL: t.url, ...env } });
    const steps = new Map<string, StepLine>();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const handling: Promise<void>[] = [];
    createInterface({ input: child.stdout }).on('line', (text) => {
      let line: StepLine;
      try {
        line = JSON.parse(text) as StepLine;
      } catch {
        stderr += `${text}\n`;
        return;
      }
      steps.set(line.step, line);
      handling.push(Promise.resolve(onLine(line, child.stdin)).catch((err) => {
        child.kill();
        reject(err);
      }));
    });
    // A script stuck waiting (on the hub or on stdin) is stopped; its steps say the rest.
    const stuck = setTimeout(() => child.kill(), 40_000);
    child.on('error', reject);
    child.on('close', () => clearTimeout(stuck));
    child.on('close', (code) => void Promise.all(handling).then(() => resolve({ steps, code: code ?? -1, stderr })));
  });
}

/** A step's report, failing with what the library said and what the hub answered. */
function passed(steps: Map<string, StepLine>, name: string, stderr: string): StepLine {
  const line = steps.get(name);
  assert.ok(line, `the script reported no "${name}" step; perl said:\n${stderr}`);
  assert.equal(line.ok, 1, `${name}: ${line.error}\nthe hub answered: ${line.answer ?? '(nothing)'}`);
  return line;
}

let app: MastodonApp | undefined;
let token: string | undefined;

test('Mastodon::Client registers, and logs in with the code from the authorize page', { skip: missing, timeout: 60_000 }, async (tc) => {
  const run = await runPerl('login', {}, async (line, stdin) => {
    if (line.step === 'register' && line.ok) app = { client_id: String(line.client_id), client_secret: String(line.client_secret) };
    if (line.step !== 'authorization_url') return;
    if (!line.ok) return void stdin.end('\n');
    // The owner opens the URL the library made, logs in and approves; the code is typed back.
    const url = new URL(String(line.url));
    assert.equal(url.origin + url.pathname, `${t.url}/oauth/authorize`);
    assert.equal(url.searchParams.get('client_id'), app?.client_id);
    const code = await approveOnPage(session, app!, { channel: 'alice', scope: url.searchParams.get('scope')!, redirect: url.searchParams.get('redirect_uri')! });
    stdin.end(`${code}\n`);
  });
  for (const line of run.steps.values()) tc.diagnostic(JSON.stringify({ ...line, access_token: line.access_token ? '…' : undefined }));
  passed(run.steps, 'register', run.stderr);
  passed(run.steps, 'authorization_url', run.stderr);
  const got = passed(run.steps, 'token', run.stderr);
  assert.equal(got.token_type, 'Bearer');
  assert.deepEqual(String(got.scope).split(' ').sort(), ['follow', 'read', 'write']);
  token = String(got.access_token);
  assert.equal(passed(run.steps, 'verify_credentials', run.stderr).acct, 'alice');
});

test('Mastodon::Client reads, posts, replies, favourites, follows and reads notifications', { skip: missing, timeout: 60_000 }, async (tc) => {
  // Without a token from the library's own login (failed above), the steps still run with one
  // approved on the page for the app it registered, so that each says what it finds.
  if (!token) tc.diagnostic('the login failed: the scenario runs with a token from the authorize page');
  const scenarioToken = token ?? (await mastodonToken(t, session, { channel: 'alice', app, scope: 'read write follow' }));
  const { steps, stderr } = await runPerl('scenario', {
    CLIENT_ID: app?.client_id ?? 'none',
    CLIENT_SECRET: app?.client_secret ?? 'none',
    ACCESS_TOKEN: scenarioToken,
    PHOTO: photo,
    STRANGERS_POST,
    FOLLOW: 'dave',
  });
  const step = (name: string, check: (line: StepLine) => Promise<void> | void) =>
    tc.test(name, async (st) => {
      const line = steps.get(name);
      if (line) st.diagnostic(JSON.stringify(line).slice(0, 2000));
      await check(passed(steps, name, stderr));
    });

  await step('account', (line) => assert.equal(line.acct, 'alice'));

  await step('home', (line) => {
    const pages = line.pages as { id: string; text: string }[][];
    const ids = pages.flat().map((s) => s.id);
    const twice = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    assert.deepEqual(twice, [], `no status comes twice (pages: ${pages.map((p) => `${p[0]?.id}…${p.at(-1)?.id}`).join(', ')})`);
    assert.equal(line.ended, 1, 'paging with max_id reaches an empty page');
    const notes = pages.flat().map((s) => /^Bob's note number (\d+)$/.exec(s.text)?.[1]).filter((n) => n !== undefined);
    assert.deepEqual(notes.map(Number).sort((a, b) => a - b), Array.from({ length: BOBS_NOTES }, (_, i) => i + 1), "every one of bob's notes is on home");
    assert.ok(pages.flat().some((s) => s.text === 'Tea in the garden this afternoon?'), "alice's own first post is on home");
  });

  await step('upload_media', (line) => {
    assert.equal(line.type, 'image');
    assert.equal(line.description, 'A loaf of rye, still warm');
  });

  await step('post_with_photo', async (line) => {
    assert.equal(line.text, 'Fresh bread from the bakery');
    const media = line.media as { id: string; type: string; url: string; description: string }[];
    assert.equal(media.length, 1);
    assert.equal(media[0]!.id, steps.get('upload_media')?.id);
    assert.equal(media[0]!.description, 'A loaf of rye, still warm');
    const image = await fetch(media[0]!.url);
    assert.equal(image.status, 200);
    assert.match(image.headers.get('content-type') ?? '', /^image\//);
  });

  await step('find_strangers_post', (line) => assert.equal(line.acct, 'carol'));

  await step('reply_to_stranger', async (line) => {
    assert.equal(line.in_reply_to_id, steps.get('find_strangers_post')?.id);
    assert.equal(line.text, '@carol The one on Mill Lane is lovely');
    // Carol sees the reply under her post.
    const ctx = await fetch(`${t.url}/api/v1/statuses/${line.in_reply_to_id}/context`);
    const descendants = ((await ctx.json()) as { descendants?: { id: string }[] }).descendants ?? [];
    assert.ok(descendants.some((s) => s.id === line.id), 'the reply is in the thread');
  });

  await step('favourite_stranger', (line) => {
    assert.equal(line.favourited, true);
    assert.equal(line.favourites_count, 1);
    assert.equal(line.favourited_on_reading, true);
  });

  await step('follow', (line) => {
    assert.equal(line.locked, false, 'dave approves no one by hand');
    assert.equal(line.following, true, 'following an unlocked account is at once');
    assert.equal(line.requested, false);
    assert.deepEqual(line.later, { following: true, requested: false });
  });

  await step('notifications', (line) => {
    const notes = line.notifications as { type: string; acct: string; text: string }[];
    assert.ok(notes.some((n) => n.acct === 'bob' && n.type === 'favourite' && n.text === 'Tea in the garden this afternoon?'), "bob's like of alice's post");
    assert.ok(notes.some((n) => n.acct === 'bob' && n.type === 'mention' && n.text === 'Count me in!'), "bob's reply to alice's post");
  });
});
