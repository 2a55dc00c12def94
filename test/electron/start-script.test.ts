import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { PrepareError } from '../../scripts/native.js';
import { start } from '../../scripts/start.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The outside world of scripts/start.js, recording what it is asked to do. */
function world(opts: { electron?: string; install?: string; prepare?: () => Promise<unknown>; env?: Record<string, string>; root?: boolean } = {}) {
  const events: string[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const runs: Array<{ command: string; args: string[]; env: NodeJS.ProcessEnv }> = [];
  let installed = false;
  const deps = {
    env: { HEARTH_DATA: '/data/hub', ELECTRON_RUN_AS_NODE: '1', ...opts.env } as NodeJS.ProcessEnv,
    nodePath: '/usr/bin/node',
    electronBinary: () => (opts.electron && (opts.install === undefined || installed) ? opts.electron : undefined),
    installElectron: async () => {
      events.push('install');
      installed = true;
      return opts.install === 'ok' ? undefined : opts.install;
    },
    electronVersion: () => '41.7.1',
    prepareNative: async (o: { runtime: string; target: string }) => {
      events.push(`prepare ${o.runtime} ${o.target}`);
      return (opts.prepare ?? (async () => ({ outcome: 'present' })))();
    },
    ensureBuilt: (o: { main?: boolean } = {}) => void events.push(`build main=${o.main}`),
    isRoot: () => opts.root ?? false,
    run: (command: string, args: string[], env: NodeJS.ProcessEnv) => {
      events.push('run');
      runs.push({ command, args, env });
      return undefined;
    },
    log: (line: string) => void out.push(line),
    error: (line: string) => void err.push(line),
  };
  return { deps, events, out, err, runs };
}

describe('npm start (scripts/start.js)', () => {
  it('prepares the SQLite module for the Electron it found, then launches the app', async () => {
    const w = world({ electron: '/e/electron' });
    assert.equal(await start(['--inspect'], w.deps), undefined);
    assert.deepEqual(w.events, ['prepare electron 41.7.1', 'build main=true', 'run']);
    assert.equal(w.runs[0]!.command, '/e/electron');
    assert.deepEqual(w.runs[0]!.args, [ROOT, '--inspect']);
    assert.equal(w.runs[0]!.env.ELECTRON_RUN_AS_NODE, undefined, 'Electron runs as Electron');
    assert.deepEqual(w.out, []);
  });

  it('downloads Electron first when it is missing, and turns Chromium’s sandbox off as root', async () => {
    const w = world({ electron: '/e/electron', install: 'ok', root: true });
    await start([], w.deps);
    assert.deepEqual(w.events, ['install', 'prepare electron 41.7.1', 'build main=true', 'run']);
    assert.deepEqual(w.runs[0]!.args, ['--no-sandbox', ROOT]);
  });

  it('runs the hub headless, saying why in one line, when the module cannot be prepared', async () => {
    const reason = 'could not prepare better-sqlite3 for Electron 41.7.1 (ABI 145): no prebuilt binary (getaddrinfo ENOTFOUND github.com); the compile failed (could not download https://electronjs.org/headers/v41.7.1/node-v41.7.1-headers.tar.gz)';
    const w = world({ electron: '/e/electron', prepare: () => Promise.reject(new PrepareError(reason)) });
    await start(['--port', '0'], w.deps);
    assert.deepEqual(w.events, ['prepare electron 41.7.1', 'build main=false', 'run']);
    assert.equal(w.out.length, 1);
    assert.equal(w.out[0], `Hearth: the desktop window cannot open (${reason}), so the hub runs headless; open the URL below in a browser.`);
    assert.equal(w.runs[0]!.command, '/usr/bin/node');
    assert.deepEqual(w.runs[0]!.args, [join(ROOT, 'bin', 'hearth.js'), 'serve', '--port', '0'], 'the data folder is hearth serve’s own default (or HEARTH_DATA)');
    assert.equal(w.runs[0]!.env.HEARTH_DATA, '/data/hub');
  });

  it('runs the hub headless when Electron cannot be downloaded, as before', async () => {
    const w = world({ install: 'getaddrinfo ENOTFOUND github.com' });
    await start([], w.deps);
    assert.deepEqual(w.events, ['install', 'build main=false', 'run']);
    assert.deepEqual(w.out, ['Hearth: the desktop window cannot open (no Electron runtime: getaddrinfo ENOTFOUND github.com), so the hub runs headless; open the URL below in a browser.']);
  });

  it('skips Electron altogether with HEARTH_HEADLESS', async () => {
    const w = world({ electron: '/e/electron', env: { HEARTH_HEADLESS: '1' } });
    await start([], w.deps);
    assert.deepEqual(w.events, ['build main=false', 'run']);
    assert.match(w.out[0]!, /\(HEARTH_HEADLESS is set\)/);
  });

  it('in smoke mode never falls back: no desktop app is a failure, on stderr, with exit code 1', async () => {
    const w = world({ electron: '/e/electron', prepare: () => Promise.reject(new PrepareError('could not prepare better-sqlite3 for Electron 41.7.1 (ABI 145): …')) });
    assert.equal(await start(['--smoke'], w.deps), 1);
    assert.deepEqual(w.events, ['prepare electron 41.7.1']);
    assert.deepEqual(w.err, ['Hearth smoke test failed: the desktop app cannot start here (could not prepare better-sqlite3 for Electron 41.7.1 (ABI 145): …).']);
    const offline = world({ install: 'getaddrinfo ENOTFOUND github.com' });
    assert.equal(await start(['--smoke'], offline.deps), 1);
    assert.equal(offline.runs.length, 0);

    const ready = world({ electron: '/e/electron' });
    assert.equal(await start(['--smoke'], ready.deps), undefined);
    assert.deepEqual(ready.runs[0]!.args, [ROOT, '--smoke'], 'the app gets --smoke');
  });
});
