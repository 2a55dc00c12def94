import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basic, PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { sessionCsrf } from '../helpers/oauth-client.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';

// Settings → Backups from the attacker's side. Where backups go decides who gets a copy of the
// whole hub, and the passphrase opens them: no one but the owner's logged-in browser may read or
// change these settings; an app (its token, or the password it was given) may not; another site
// may not make the owner's browser change them; a stolen session alone may not send the backups
// elsewhere; and no answer ever holds the passphrase or the S3 secret.

const PASSPHRASE = 'owner secret passphrase words';
const S3_SECRET = 'S3-SECRET-never-shown-0123456789';

let t: TestHub;
let owner: WebSession;
let csrf: string;
let folder: string;

before(async () => {
  t = await startHub({ channels: ['alice'] });
  owner = await webLogin(t, 'alice');
  csrf = await sessionCsrf(owner);
  folder = await mkdtemp(join(tmpdir(), 'hearth-backup-target-'));
  const res = await owner.post('/settings/backups/', { target: join(folder, 'hub'), passphrase: PASSPHRASE, s3_secret_access_key: S3_SECRET, password: PASSWORD }, { 'x-csrf-token': csrf, accept: 'application/json' });
  assert.equal(res.status, 200, await res.text());
});
after(async () => {
  await t.stop();
  await rm(folder, { recursive: true, force: true });
});

const state = async () => (await (await owner.get('/settings/backups/state')).json()) as { target: string; every_seconds: number; passphrase_set: boolean; s3_secret_set: boolean };

test('no answer holds the passphrase or the S3 secret, only whether they are set', async () => {
  const res = await owner.get('/settings/backups/state');
  const text = await res.text();
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.ok(!text.includes(PASSPHRASE) && !text.includes(S3_SECRET), 'neither secret is in the settings');
  const body = JSON.parse(text);
  assert.equal(body.passphrase_set, true);
  assert.equal(body.s3_secret_set, true);
  for (const path of ['/session', '/api/statusnet/config.json', '/api/v1/instance', '/api/z/1.0/version']) {
    const other = await (await fetch(t.url + path, { headers: { cookie: owner.cookie } })).text();
    assert.ok(!other.includes(PASSPHRASE) && !other.includes(S3_SECRET), `${path} holds no secret`);
  }
});

test('anonymous callers, the account password (Basic, as an app uses it) and app tokens cannot read or change the backup settings', async () => {
  const token = await mastodonToken(t, owner, { channel: 'alice', scope: 'read write' });
  const bearer = bearerFetch(t, token);
  const callers: [string, (path: string, init?: RequestInit) => Promise<Response>][] = [
    ['anonymous', (path, init) => fetch(t.url + path, init)],
    ['Basic', (path, init) => fetch(t.url + path, { ...init, headers: { ...init?.headers, authorization: basic('alice') } })],
    ['OAuth 2 token', (path, init) => bearer(path, init)],
  ];
  for (const [who, call] of callers) {
    const read = await call('/settings/backups/state');
    assert.equal(read.status, 401, `${who} cannot read the settings`);
    const text = await read.text();
    assert.ok(!text.includes(folder), `${who} does not learn the target`);
    const form = { method: 'POST', body: new URLSearchParams({ target: '/tmp/attacker', every_seconds: '60', password: PASSWORD }) };
    assert.equal((await call('/settings/backups/', form)).status, 401, `${who} cannot change the target`);
    assert.equal((await call('/settings/backups/run', { method: 'POST' })).status, 401, `${who} cannot start a backup`);
  }
  assert.equal((await state()).target, join(folder, 'hub'));
});

test('another site cannot make the owner\'s browser change the settings or start a backup', async () => {
  const change = { target: '/tmp/attacker', every_seconds: '60', password: PASSWORD };
  const crossSite = await owner.post('/settings/backups/', change, { origin: 'https://evil.example', 'x-csrf-token': csrf });
  assert.equal(crossSite.status, 403);
  const noToken = await owner.post('/settings/backups/', change);
  assert.equal(noToken.status, 403, 'a form posted without the CSRF token is refused');
  const run = await owner.post('/settings/backups/run', {}, { origin: 'https://evil.example' });
  assert.equal(run.status, 403);
  const s = await state();
  assert.equal(s.target, join(folder, 'hub'));
  assert.notEqual(s.every_seconds, 60);
});

test('the owner\'s session alone cannot send the backups elsewhere or change their passphrase: that takes the account password', async () => {
  const headers = { 'x-csrf-token': csrf, accept: 'application/json' };
  const elsewhere = await owner.post('/settings/backups/', { target: '/tmp/attacker' }, headers);
  assert.equal(elsewhere.status, 403);
  assert.match(await elsewhere.text(), /password is needed/);
  const wrong = await owner.post('/settings/backups/', { target: '/tmp/attacker', password: 'not it' }, headers);
  assert.equal(wrong.status, 403);
  const bucket = await owner.post('/settings/backups/', { target: 's3://attacker-bucket/x', s3_endpoint: 'https://attacker.example' }, headers);
  assert.equal(bucket.status, 403);
  const passphrase = await owner.post('/settings/backups/', { passphrase: 'a passphrase the thief knows' }, headers);
  assert.equal(passphrase.status, 403);
  assert.equal((await state()).target, join(folder, 'hub'));
  // How often and how many are the owner's everyday choices: the session suffices.
  const often = await owner.post('/settings/backups/', { every_seconds: '3600', keep_daily: '3' }, headers);
  assert.equal(often.status, 200, await often.text());
  assert.equal((await state()).every_seconds, 3600);
});

test('bad settings get a clear 400, never a 500', async () => {
  const headers = { 'x-csrf-token': csrf, accept: 'application/json' };
  for (const [fields, message] of [
    [{ target: 'relative/folder', password: PASSWORD }, /full path/],
    [{ target: join(t.dataDir, 'inside'), password: PASSWORD }, /inside the hub's own data folder/],
    [{ target: 's3://', password: PASSWORD }, /s3:\/\/bucket/],
    [{ every_seconds: '-5' }, /every_seconds/],
    [{ keep_daily: 'many' }, /keep_daily/],
    [{ keep_daily: '0', keep_weekly: '0' }, /at least one/],
    [{ passphrase: 'short', password: PASSWORD }, /at least 8/],
    [{ s3_endpoint: 'ftp://x', password: PASSWORD }, /http/],
  ] as const) {
    const res = await owner.post('/settings/backups/', fields, headers);
    assert.equal(res.status, 400, JSON.stringify(fields));
    assert.match(await res.text(), message);
  }
});
