import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openLogFile, teeLogger } from '../../electron/lib/log-file.js';
import { classifyStartupFailure, failureDialog, reportStartupFailure, type FailureUi } from '../../electron/lib/startup-failure.js';
import { installedSqliteVersion, nativeBuildsDir, NativeModuleError, useNativeBuildsFrom } from '../../server/db/native-binding.js';
import { createHub } from '../../server/hub.js';

/** What the hub's start throws, for real. */
async function startFailure(dataDir: string, port = 0): Promise<unknown> {
  let hub;
  try {
    hub = await createHub({ dataDir, host: '127.0.0.1', port });
    await hub.listen();
  } catch (err) {
    await hub?.close();
    return err;
  }
  await hub.close();
  throw new Error('the hub started');
}

/** Electron's dialog and shell, replaced: records what the app would have shown and opened. */
function fakeUi(click = 0) {
  const shown: Array<Parameters<FailureUi['showMessageBox']>[0]> = [];
  const opened: string[] = [];
  const stderr: string[] = [];
  const ui: FailureUi = {
    showMessageBox: (o) => (shown.push(o), click),
    openPath: (p) => void opened.push(p),
    writeStderr: (t) => void stderr.push(t),
  };
  return { ui, shown, opened, stderr };
}

describe('a desktop start that fails', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-startup-failure-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('names the SQLite module and the command that prepares it (from a checkout), or a reinstall (installed)', async () => {
    const original = nativeBuildsDir();
    const native = join(dir, 'native');
    const folder = join(native, `node-${process.versions.modules}`);
    await mkdir(folder, { recursive: true });
    // A build for this Node that does not load: what an Electron build would do in the wrong runtime.
    writeFileSync(join(folder, 'better_sqlite3.node'), 'not a shared library');
    writeFileSync(join(folder, 'build.json'), JSON.stringify({ package: 'better-sqlite3', version: installedSqliteVersion(), runtime: 'node', target: process.versions.node, abi: process.versions.modules, platform: process.platform, arch: process.arch, source: 'compiled' }));
    useNativeBuildsFrom(native);
    let err: unknown;
    try {
      err = await startFailure(join(dir, 'native-hub'));
    } finally {
      useNativeBuildsFrom(original);
    }
    assert.ok(err instanceof NativeModuleError);
    const dev = classifyStartupFailure(err, { dataDir: '/d', packaged: false });
    assert.equal(dev.kind, 'native-module');
    assert.match(dev.reason, /^Hearth's database engine \(better-sqlite3\) could not be loaded: /);
    assert.ok(dev.advice.includes(`node scripts/native.js --runtime node --target ${process.versions.node}`), dev.advice);
    assert.match(dev.advice, /C\+\+ toolchain and Python/);
    const installed = classifyStartupFailure(err, { dataDir: '/d', packaged: true });
    assert.match(installed.advice, /^This installation is incomplete or damaged\. Reinstall Hearth; your data stays where it is\.$/);
  });

  it('names the port another program holds', async () => {
    const blocker: Server = await new Promise((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = (blocker.address() as { port: number }).port;
    try {
      const f = classifyStartupFailure(await startFailure(join(dir, 'port-hub'), port), { dataDir: '/d', packaged: true });
      assert.equal(f.kind, 'port-in-use');
      assert.equal(f.reason, `Another program is already using 127.0.0.1:${port}.`);
      assert.match(f.advice, /another Hearth/);
    } finally {
      blocker.close();
    }
  });

  it('recognises a damaged database and says the data was left alone', async () => {
    const dataDir = join(dir, 'damaged');
    await mkdir(dataDir);
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(join(dataDir, 'hearth.db'), garbage);
    const f = classifyStartupFailure(await startFailure(dataDir), { dataDir, packaged: true });
    assert.equal(f.kind, 'damaged-database');
    assert.match(f.reason, /The database in the data folder is damaged \(file is not a database\)\./);
    assert.match(f.advice, /^Hearth changed nothing\./);
    assert.deepEqual(readFileSync(join(dataDir, 'hearth.db')), garbage, 'not touched');
  });

  it('recognises a data folder that cannot be written', async () => {
    // Root may write anywhere, so the folder is made impossible instead: its parent is a file.
    writeFileSync(join(dir, 'a-file'), '');
    const f = classifyStartupFailure(await startFailure(join(dir, 'a-file', 'hub')), { dataDir: '/d', packaged: true });
    assert.equal(f.kind, 'data-folder');
    assert.match(f.reason, /^Hearth cannot write to its data folder \(ENOTDIR: not a directory, mkdir /);
    assert.match(f.advice, /HEARTH_DATA/);
    const denied = Object.assign(new Error("EACCES: permission denied, mkdir '/srv/hub'"), { code: 'EACCES', syscall: 'mkdir', path: '/srv/hub' });
    assert.equal(classifyStartupFailure(denied, { dataDir: '/srv/hub', packaged: true }).kind, 'data-folder');
    const readonly = Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    assert.equal(classifyStartupFailure(readonly, { dataDir: '/d', packaged: true }).kind, 'data-folder');
    const full = classifyStartupFailure(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), { dataDir: '/d', packaged: true });
    assert.match(full.reason, /^The disk holding the data folder is full/);
  });

  it('still says something useful about anything else, and looks inside wrapped errors', () => {
    const f = classifyStartupFailure(new Error('something odd\nsecond line'), { dataDir: '/d', packaged: true });
    assert.deepEqual(f, { kind: 'unknown', reason: 'The hub could not start: something odd.', advice: 'The log file has the details. If starting again does not help, please report it with the log.' });
    const wrapped = new Error('startup failed', { cause: Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' }) });
    assert.equal(classifyStartupFailure(wrapped, { dataDir: '/d', packaged: true }).kind, 'damaged-database');
  });

  it('shows a dialog with the reason, what to do, the data folder and the log, and logs the details', () => {
    const logPath = join(dir, 'user-data', 'hearth.log');
    const log = openLogFile(logPath);
    const { ui, shown, opened, stderr } = fakeUi(1);
    const err = Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' });
    assert.equal(reportStartupFailure(err, { dataDir: '/home/me/.config/Hearth/hub', packaged: true, smoke: false }, log, ui), 1);
    assert.equal(shown.length, 1);
    const d = shown[0]!;
    assert.equal(d.type, 'error');
    assert.equal(d.title, 'Hearth could not start');
    assert.equal(d.message, 'The database in the data folder is damaged (file is not a database).');
    assert.match(d.detail, /^Hearth changed nothing\./);
    assert.match(d.detail, /Data folder: \/home\/me\/\.config\/Hearth\/hub\n/);
    assert.ok(d.detail.endsWith(`Details are in ${logPath}.`));
    assert.deepEqual(d.buttons, ['Quit', 'Open the log file']);
    assert.deepEqual(opened, [logPath], '“Open the log file” opens it');
    assert.deepEqual(stderr, []);
    const text = readFileSync(logPath, 'utf8');
    assert.match(text, /^\S+Z error Hearth could not start \(damaged-database\): The database in the data folder is damaged/m);
    assert.match(text, /Data folder: \/home\/me\/\.config\/Hearth\/hub/);
    assert.match(text, /Error: file is not a database\n.*at /, 'with the stack');
  });

  it('says so in the dialog when the log cannot be written either', () => {
    writeFileSync(join(dir, 'not-a-folder'), '');
    const log = openLogFile(join(dir, 'not-a-folder', 'hearth.log'));
    const { ui, shown, opened } = fakeUi(1);
    reportStartupFailure(Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' }), { dataDir: '/ro/hub', packaged: true, smoke: false }, log, ui);
    assert.match(shown[0]!.detail, /The log file .*hearth\.log could not be written either \(E[A-Z]+: /);
    assert.deepEqual(opened, [], 'no log to open');
  });

  it('in smoke mode writes the reason to stderr instead of waiting for a click', () => {
    const log = openLogFile(join(dir, 'smoke', 'hearth.log'));
    const { ui, shown, stderr } = fakeUi();
    const err = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:8420'), { code: 'EADDRINUSE', syscall: 'listen', address: '127.0.0.1', port: 8420 });
    assert.equal(reportStartupFailure(err, { dataDir: '/tmp/x/hub', packaged: false, smoke: true }, log, ui), 1);
    assert.deepEqual(shown, []);
    assert.equal(stderr.length, 1);
    assert.match(stderr[0]!, /^Hearth smoke test failed: Another program is already using 127\.0\.0\.1:8420\. Close the other program/);
    assert.ok(existsSync(join(dir, 'smoke', 'hearth.log')));
  });

  it('dialog text carries the data folder even for an unknown failure', () => {
    const d = failureDialog({ kind: 'unknown', reason: 'The hub could not start: x.', advice: 'a' }, { dataDir: 'C:\\Users\\me\\AppData\\Roaming\\Hearth\\hub', packaged: true }, 'C:\\log');
    assert.equal(d.detail, 'a\n\nData folder: C:\\Users\\me\\AppData\\Roaming\\Hearth\\hub\nDetails are in C:\\log.');
  });
});

describe('the desktop log file', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-log-file-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('gets what the main process logs, and starts over past its size limit', () => {
    const path = join(dir, 'hearth.log');
    const printed: unknown[][] = [];
    const log = teeLogger(openLogFile(path, 200), { info: (...a) => printed.push(a), warn: (...a) => printed.push(a), error: (...a) => printed.push(a) });
    log.info('Hearth hub at %s', 'http://127.0.0.1:8420/');
    log.warn('port 8420 is taken; choosing another one');
    assert.equal(printed.length, 2, 'the console still gets them');
    const text = readFileSync(path, 'utf8');
    assert.match(text, /^\S+Z info  Hearth hub at http:\/\/127\.0\.0\.1:8420\/\n\S+Z warn  port 8420 is taken/);
    writeFileSync(path, 'x'.repeat(500));
    openLogFile(path, 200).write('info', 'fresh');
    assert.match(readFileSync(path, 'utf8'), /^\S+Z info  fresh\n$/);
    assert.equal(readFileSync(`${path}.1`, 'utf8'), 'x'.repeat(500));
  });
});
