import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  buildFolder,
  buildMismatch,
  currentRuntime,
  installedSqliteVersion,
  isAddonLoadError,
  nativeBuildsDir,
  NativeModuleError,
  openSqlite,
  sqliteBinding,
  useNativeBuildsFrom,
  type BuildInfo,
} from '../../server/db/native-binding.js';
import { openDatabase } from '../../server/db/open.js';

const require = createRequire(import.meta.url);
/** The addon `npm ci` built for this Node. */
const NODE_MODULES_ADDON = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
const HERE = currentRuntime();

function info(over: Partial<BuildInfo> = {}): BuildInfo {
  return { package: 'better-sqlite3', version: installedSqliteVersion(), runtime: 'node', target: process.versions.node, abi: process.versions.modules, platform: process.platform, arch: process.arch, source: 'compiled', ...over };
}

function makeBuild(root: string, addon: string | Buffer, buildInfo: BuildInfo | null = info()): string {
  const folder = join(root, buildFolder(HERE));
  mkdirSync(folder, { recursive: true });
  if (typeof addon === 'string') copyFileSync(addon, join(folder, 'better_sqlite3.node'));
  else writeFileSync(join(folder, 'better_sqlite3.node'), addon);
  if (buildInfo) writeFileSync(join(folder, 'build.json'), JSON.stringify(buildInfo));
  return folder;
}

describe('the runtime and its build folder', () => {
  it('tells Electron from Node by process.versions', () => {
    assert.deepEqual(currentRuntime({ ...process.versions, node: '24.11.1', modules: '145', electron: '41.7.1' } as NodeJS.ProcessVersions), { runtime: 'electron', version: '41.7.1', abi: '145' });
    assert.deepEqual(currentRuntime({ ...process.versions, node: '22.23.3', modules: '127' }), { runtime: 'node', version: '22.23.3', abi: '127' });
    assert.equal(buildFolder({ runtime: 'electron', abi: '145' }), 'electron-145');
  });

  it('looks in the checkout’s native/ folder by default', () => {
    assert.match(nativeBuildsDir(), /[\\/]native[\\/]?$/);
  });
});

describe('choosing the addon', () => {
  let root: string;
  const original = nativeBuildsDir();
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-native-binding-'));
  });
  after(async () => {
    useNativeBuildsFrom(original);
    await rm(root, { recursive: true, force: true });
  });

  it('leaves node_modules’ own build to better-sqlite3 when there is no build for this runtime', () => {
    useNativeBuildsFrom(join(root, 'empty'));
    assert.equal(sqliteBinding(), undefined);
    const db = openSqlite(':memory:');
    assert.deepEqual(db.prepare('SELECT 1 AS one').get(), { one: 1 });
    db.close();
  });

  it('loads the build in <native dir>/<runtime>-<abi> when it is there and matches', () => {
    const dir = join(root, 'ready');
    const folder = makeBuild(dir, NODE_MODULES_ADDON);
    useNativeBuildsFrom(dir);
    assert.equal(sqliteBinding(), join(folder, 'better_sqlite3.node'));
    const db = openDatabase(join(dir, 'hearth.db'));
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    db.close();
  });

  it('ignores a build from another better-sqlite3 release, another ABI or without build.json', () => {
    const target = HERE;
    const stale = makeBuild(join(root, 'stale'), NODE_MODULES_ADDON, info({ version: '1.0.0' }));
    assert.match(buildMismatch(stale, target)!, /is of better-sqlite3 1\.0\.0, but .* is installed/);
    const other = makeBuild(join(root, 'other'), NODE_MODULES_ADDON, info({ runtime: 'electron', abi: '145' }));
    assert.match(buildMismatch(other, target)!, /is for electron ABI 145/);
    const bare = makeBuild(join(root, 'bare'), NODE_MODULES_ADDON, null);
    assert.match(buildMismatch(bare, target)!, /build\.json is missing/);
    useNativeBuildsFrom(join(root, 'stale'));
    assert.equal(sqliteBinding(), undefined, 'falls back to node_modules');
  });

  it('turns an addon that will not load into one line naming the command that prepares a build', () => {
    const dir = join(root, 'broken');
    makeBuild(dir, Buffer.from('not a shared library'));
    useNativeBuildsFrom(dir);
    assert.throws(
      () => openSqlite(join(root, 'x.db')),
      (err: unknown) => {
        assert.ok(err instanceof NativeModuleError);
        assert.doesNotMatch(err.message, /\n/);
        assert.ok(err.message.includes(`node scripts/native.js --runtime node --target ${process.versions.node}`), err.message);
        assert.match(err.message, new RegExp(`Node ${process.versions.node} \\(ABI ${process.versions.modules}\\)`));
        assert.ok(isAddonLoadError(err.cause));
        return true;
      },
    );
  });

  it('tells load failures from database errors', () => {
    assert.equal(isAddonLoadError(Object.assign(new Error('The module … was compiled against a different Node.js version'), { code: 'ERR_DLOPEN_FAILED' })), true);
    assert.equal(isAddonLoadError(Object.assign(new Error("Cannot find module '/x/better_sqlite3.node'"), { code: 'MODULE_NOT_FOUND' })), true);
    assert.equal(isAddonLoadError(new Error('Could not locate the bindings file. Tried: …')), true);
    assert.equal(isAddonLoadError(Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' })), false);
    assert.equal(isAddonLoadError(Object.assign(new Error("Cannot find module 'koa'"), { code: 'MODULE_NOT_FOUND' })), false);
  });
});
