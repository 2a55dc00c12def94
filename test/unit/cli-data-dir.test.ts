// One data folder for every way of starting Hearth: `hearth` (and `npm run hub`, `npm start`'s
// headless fallback, which run `hearth serve`) use the platform's per-user data directory, and take
// over the folder older desktop apps and the fallback used (Hearth/hub in Electron's user-data
// folder) once. Each run gets its own HOME and XDG folders, so the machine's real ones stay untouched.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { openDatabase } from '../../server/db/open.js';

const BIN = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));

/** A user's home: the default data folder and the older desktop one (Linux layout). */
function home() {
  const root = mkdtempSync(join(tmpdir(), 'hearth-home-'));
  const env: Record<string, string> = { HOME: root, XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), APPDATA: join(root, 'appdata') };
  const data = process.platform === 'linux' ? join(root, 'data', 'hearth') : process.platform === 'darwin' ? join(root, 'Library', 'Application Support', 'Hearth') : join(root, 'appdata', 'Hearth');
  const olderAppData = process.platform === 'linux' ? join(root, 'config') : process.platform === 'darwin' ? join(root, 'Library', 'Application Support') : join(root, 'appdata');
  return { env, data, older: join(olderAppData, 'Hearth', 'hub') };
}

function hearth(args: string[], env: Record<string, string>) {
  const clean = { ...process.env };
  delete clean.HEARTH_DATA;
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...clean, ...env } });
}

function createChannel(dir: string, nick: string, env: Record<string, string>) {
  const r = hearth(['channel', 'create', '--nick', nick, '--name', nick, '--password', 'secret-pw', '--data', dir], env);
  assert.equal(r.status, 0, r.stderr);
}

test('hearth channel list finds the channels the desktop app or npm start kept in the older folder, moved once', () => {
  const h = home();
  createChannel(h.older, 'alice', h.env);
  // What `npm run hub` or `hearth channel list` of the versions before left in the default folder: a hub without channels.
  mkdirSync(h.data, { recursive: true });
  openDatabase(join(h.data, 'hearth.db')).close();
  mkdirSync(join(h.data, 'store'));

  const list = hearth(['channel', 'list'], h.env);
  assert.equal(list.status, 0, list.stderr);
  assert.equal(list.stdout, 'alice\talice\t(primary)\n');
  assert.equal(list.stderr, `Hearth: moved the hub from ${h.older} to ${h.data}, the one data folder of the desktop app, npm start and hearth.\n`);
  assert.equal(existsSync(h.older), false, 'the older folder is gone');

  const again = hearth(['channel', 'list'], h.env);
  assert.equal(again.stdout, 'alice\talice\t(primary)\n');
  assert.equal(again.stderr, '', 'moved once: nothing more to say');
});

test('npm run hub (hearth serve) serves the older folder’s channels from the default folder and says which it is', async () => {
  const h = home();
  createChannel(h.older, 'alice', h.env);
  const clean = { ...process.env };
  delete clean.HEARTH_DATA;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: { ...clean, ...h.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /running at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}${err}`)));
    });
    assert.ok(out.includes(`(data: ${h.data})`), out);
    assert.match(err, /moved the hub from .* to /);
    const res = await fetch(`${url}/api/z/1.0/channel/list`, { headers: { authorization: `Basic ${Buffer.from('alice:secret-pw').toString('base64')}` } });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /alice/);
  } finally {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

test('a folder that cannot be moved stays where it is, and hearth says where it is', () => {
  const h = home();
  createChannel(h.older, 'alice', h.env);
  // A hub of an older version still running on it (this test process stands for it).
  writeFileSync(join(h.older, 'hub.running'), `${process.pid}\n`);
  const list = hearth(['channel', 'list'], h.env);
  assert.equal(list.status, 0, list.stderr);
  assert.equal(list.stdout, `No channels yet in ${h.data}. Create one with: hearth channel create --nick NICK --name NAME --password PW\n`);
  assert.ok(list.stderr.includes(`older data folder ${h.older} has a hub too; it was not moved to ${h.data} (a Hearth (process ${process.pid}) is running on it). Use --data ${h.older} to work on it.`), list.stderr);
  assert.ok(existsSync(join(h.older, 'hearth.db')));

  // Both folders with channels: neither is touched.
  const both = home();
  createChannel(both.data, 'bob', both.env);
  createChannel(both.older, 'alice', both.env);
  const listed = hearth(['channel', 'list'], both.env);
  assert.equal(listed.stdout, 'bob\tbob\t(primary)\n');
  assert.match(listed.stderr, /has a hub too; it was not moved .*has channels of its own \(1\)/);
  assert.ok(readdirSync(both.older).includes('hearth.db'));

  // An explicit folder is used as it is, with no look at the older one.
  const given = hearth(['channel', 'list', '--data', join(both.env.HOME!, 'elsewhere')], both.env);
  assert.equal(given.stderr, '');
  assert.match(given.stdout, /^No channels yet in .*elsewhere\. /);
});
