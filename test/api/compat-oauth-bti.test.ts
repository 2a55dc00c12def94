import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { approve, registerApp, type OAuthApp } from '../helpers/oauth-client.js';

/**
 * Debian's bti as an OAuth 1.0a client: with only a consumer key it runs the out-of-band dance
 * (request token, the owner approves in the browser, the PIN is typed back), then it posts and
 * reads with the oauth parameters in the query string or the form body.
 */
const BTI = ['/usr/bin/bti', '/usr/local/bin/bti'].find((p) => existsSync(p));
const skip = BTI ? false : 'the bti binary is not installed (apt-get install -y bti)';

let t: TestHub;
let dir: string;
let alice: WebSession;
let app: OAuthApp;
before(async () => {
  if (skip) return;
  t = await startHub({ channels: ['alice', 'bob'] });
  dir = await mkdtemp(join(tmpdir(), 'hearth-bti-oauth-'));
  alice = await webLogin(t, 'alice');
  app = await registerApp(alice, { name: 'bti' });
});
after(async () => {
  if (skip) return;
  await t.stop();
  await rm(dir, { recursive: true, force: true });
});

const env = () => ({ PATH: process.env.PATH ?? '', HOME: dir });

/** The request token bti asked for (its prompt sits in a pipe buffer until it exits, so look in the hub). */
async function pendingRequestToken(clientId: string): Promise<string> {
  for (;;) {
    const row = t.hub.db.prepare("SELECT token FROM oauth_token WHERE kind = 'request' AND client_id = ? AND channel_id IS NULL").get(clientId) as { token: string } | undefined;
    if (row) return row.token;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs bti's dance: answers its PIN prompt with the verifier the authorize page shows. */
async function btiDance(config: string): Promise<string> {
  const child = spawn(BTI!, ['--config', config], { env: env() });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    const page = await (await approve(alice, await pendingRequestToken(app.key))).text();
    const verifier = /id="oauth_verifier"[^>]*>(\d{7})</.exec(page)?.[1];
    assert.ok(verifier, page);
    child.stdin.end(`${verifier}\n`);
  } catch (err) {
    child.kill();
    throw err;
  }
  await closed;
  return output;
}

function bti(config: string, args: string[], stdin = ''): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = execFile(BTI!, ['--config', config, ...args], { env: env(), timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, out: stdout + stderr }));
    child.stdin!.end(stdin);
  });
}

test('bti gets an access token out of band, then posts and reads its timeline', { skip }, async () => {
  const dance = join(dir, 'dance.conf');
  await writeFile(dance, `account=alice\nhost=${t.url}/api/statuses\nconsumer_key=${app.key}\nconsumer_secret=${app.secret}\n`);
  const output = await btiDance(dance);
  const key = /access_token_key=([0-9a-f]{32})/.exec(output)?.[1];
  const secret = /access_token_secret=([0-9a-f]{32})/.exec(output)?.[1];
  assert.ok(key && secret, output);

  const config = join(dir, 'bti.conf');
  await writeFile(config, `account=alice\nhost=${t.url}/api/statuses\nconsumer_key=${app.key}\nconsumer_secret=${app.secret}\naccess_token_key=${key}\naccess_token_secret=${secret}\n`);
  const post = await bti(config, [], 'posted by bti over oauth\n');
  assert.equal(post.code, 0, post.out);
  const [latest] = await (await t.request('/api/statuses/user_timeline.json?count=1', { as: 'alice' })).json();
  assert.equal(latest.text, 'posted by bti over oauth');

  const friends = await bti(config, ['--action', 'friends']);
  assert.match(friends.out, /\[alice\] posted by bti over oauth/);

  const wrong = join(dir, 'wrong.conf');
  await writeFile(wrong, `account=alice\nhost=${t.url}/api/statuses\nconsumer_key=${app.key}\nconsumer_secret=${app.secret}\naccess_token_key=${key}\naccess_token_secret=wrong\n`);
  await bti(wrong, [], 'must not appear\n');
  const [still] = await (await t.request('/api/statuses/user_timeline.json?count=1', { as: 'alice' })).json();
  assert.equal(still.text, 'posted by bti over oauth');
});
