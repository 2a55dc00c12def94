import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));

function hearth(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

test('hearth channel create / list, with clear errors', () => {
  const data = mkdtempSync(join(tmpdir(), 'hearth-cli-'));
  const first = hearth(['channel', 'create', '--nick', 'alice', '--name', 'Alice A', '--password', 'secret1', '--email', 'a@example.com', '--data', data]);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /Created channel alice/);
  const taken = hearth(['channel', 'create', '--nick', 'alice', '--name', 'X', '--password', 'secret1', '--data', data]);
  assert.equal(taken.status, 1);
  assert.match(taken.stderr, /already taken/);
  const invalid = hearth(['channel', 'create', '--nick', 'Bad Nick!', '--password', 'secret1', '--data', data]);
  assert.equal(invalid.status, 1);
  assert.match(invalid.stderr, /nickname/);
  const noPassword = hearth(['channel', 'create', '--nick', 'bob', '--data', data]);
  assert.equal(noPassword.status, 2);
  assert.match(noPassword.stderr, /--password is required/);
  const wrongPassword = hearth(['channel', 'create', '--nick', 'bob', '--password', 'other-pw', '--data', data]);
  assert.equal(wrongPassword.status, 1);
  assert.match(wrongPassword.stderr, /wrong password/);
  assert.equal(hearth(['channel', 'create', '--nick', 'bob', '--name', 'Bob', '--password', 'secret1', '--data', data]).status, 0);
  const list = hearth(['channel', 'list'], { HEARTH_DATA: data });
  assert.equal(list.status, 0);
  assert.match(list.stdout, /^alice\tAlice A\t\(primary\)\nbob\tBob\n$/);
  assert.equal(hearth(['passwd', '--password', 'new-secret', '--data', data]).status, 0);
  assert.equal(hearth(['bogus']).status, 2);
});

test('hearth serve prints its URL once it answers and stops cleanly on SIGTERM', async () => {
  const data = mkdtempSync(join(tmpdir(), 'hearth-serve-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /running at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
  });
  const res = await fetch(`${url}/api/help/test.json`);
  assert.equal(await res.json(), 'ok');
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(out, /Hearth stopped/);
});

test('hearth --help and hearth <command> --help print the usage and exit 0', () => {
  for (const args of [['--help'], ['-h'], ['help'], ['help', 'channel']]) {
    const r = hearth(args);
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stdout, /^Usage:\n {2}hearth /, args.join(' '));
  }
  const commands: Array<[string[], RegExp]> = [
    [['serve', '--help'], /hearth serve \[--data DIR\]/],
    [['channel', '--help'], /hearth channel create .*\n {2}hearth channel list/],
    [['channel', 'list', '--help'], /hearth channel list/],
    [['channel', 'create', '-h'], /hearth channel create/],
    [['channel', 'import', '--help'], /hearth channel import --from URL/],
    [['passwd', '--help'], /hearth passwd --password NEW/],
    [['jsonp', '--help'], /hearth jsonp on\|off/],
    [['federation', '--help'], /hearth federation on\|off/],
  ];
  const data = mkdtempSync(join(tmpdir(), 'hearth-help-'));
  for (const [args, usage] of commands) {
    const r = hearth(args, { HEARTH_DATA: data });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr, '', args.join(' '));
    assert.match(r.stdout, usage, args.join(' '));
    assert.ok(r.stdout.includes(`Data folder: ${data} (from HEARTH_DATA)`), `${args.join(' ')} names the data folder: ${r.stdout}`);
    for (const other of ['serve', 'channel', 'passwd', 'jsonp', 'federation'].filter((c) => c !== args[0])) {
      assert.doesNotMatch(r.stdout, new RegExp(`hearth ${other} `), `${args.join(' ')}: only this command’s usage`);
    }
  }
  assert.deepEqual(readdirSync(data), [], 'asking for help touches no data');
  const wrong = hearth(['channel', 'list', '--bogus']);
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /Unknown option '--bogus'[\s\S]*Usage:\n {2}hearth channel create/);
});
