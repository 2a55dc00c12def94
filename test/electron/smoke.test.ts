import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import type { Readable } from 'node:stream';
import { openDatabase } from '../../server/db/open.js';
import { createChannel } from '../../server/services/channels.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The Electron binary, when it has been downloaded (npm ci skips that; `npm start` does it). */
function electronBinary(): string | undefined {
  try {
    const path = createRequire(import.meta.url)('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, program))) return join(dir, program);
  return undefined;
}

/** Starts Xvfb on a free display (it writes the number it chose to fd 3). */
async function startXvfb(xvfb: string): Promise<{ display: string; proc: ChildProcess }> {
  const proc = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const fd3 = proc.stdio[3] as Readable;
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    fd3.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    proc.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
  return { display, proc };
}

test('the desktop app opens its window on the UI, logged in as the owner', async (t) => {
  const electron = electronBinary();
  if (!electron) return t.skip('Electron binary not installed (npm ci skips its download; `npm start` or `node node_modules/electron/install.js` fetches it)');
  const xvfb = onPath('Xvfb');
  if (!xvfb) return t.skip('Xvfb not installed (Debian: apt-get install xvfb)');

  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-electron.js'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  assert.equal(build.status, 0, 'the renderer and the main process build');

  const dir = await mkdtemp(join(tmpdir(), 'hearth-smoke-'));
  const dataDir = join(dir, 'hub');
  await mkdir(dataDir);
  const db = openDatabase(join(dataDir, 'hearth.db'));
  await createChannel(db, { baseUrl: 'http://127.0.0.1:8420' }, { nick: 'alice', name: 'Alice', password: 'correct horse', email: 'alice@example.com' });
  db.close();

  const { display, proc: xserver } = await startXvfb(xvfb);
  const { _electron } = await import('playwright-core');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DISPLAY: display, HEARTH_DATA: dataDir, XDG_CONFIG_HOME: join(dir, 'config') };
  delete env.ELECTRON_RUN_AS_NODE;
  const app = await _electron.launch({
    executablePath: electron,
    // Chromium refuses to run as root with its sandbox on (containers, CI).
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ROOT],
    env,
  });
  try {
    const window = await app.firstWindow();
    await window.waitForURL((url) => url.hostname === '127.0.0.1' && url.pathname === '/');
    await window.waitForFunction(() => (document.querySelector('#root')?.childElementCount ?? 0) > 0);
    const session = await window.evaluate(() => fetch('/session').then((r) => r.json()));
    assert.equal(session.authenticated, true);
    assert.equal(session.channel.nick, 'alice');
    assert.equal(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require), 'undefined', 'no Node integration in the page');
    await app.close();
    // The hub closed its database cleanly: SQLite removes the WAL file on the last clean close.
    assert.equal(existsSync(join(dataDir, 'hearth.db-wal')), false);
    assert.ok(existsSync(join(dir, 'config', 'Hearth', 'settings.json')), 'settings are kept in the user-data directory');
  } finally {
    await app.close().catch(() => {});
    xserver.kill();
    await rm(dir, { recursive: true, force: true });
  }
});
