#!/usr/bin/env node
// `npm start`: the desktop app when the Electron runtime is available, else the hub headless.
// `npm ci` skips Electron's download (package.json allowScripts), so the first start runs
// Electron's own install step; only when that fails (no network) does Hearth run without a window.
// Arguments after `npm start --` go to the app, or to `hearth serve` in the headless case.
// HEARTH_HEADLESS=1 skips the desktop app on purpose.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './build-electron.js';

const require = createRequire(import.meta.url);
const ELECTRON_DIR = join(ROOT, 'node_modules', 'electron');

/** Path of the Electron binary, or undefined while it is not downloaded (electron's index.js throws then). */
function electronBinary() {
  const entry = join(ELECTRON_DIR, 'index.js');
  if (!existsSync(entry)) return undefined;
  delete require.cache[entry];
  try {
    const path = require(entry);
    return typeof path === 'string' && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Runs Electron's own install step. Resolves to undefined on success, or a one-line reason. */
function installElectron() {
  if (!existsSync(join(ELECTRON_DIR, 'install.js'))) return Promise.resolve('the electron package is not installed');
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD; // install.js would do nothing at all
  const child = spawn(process.execPath, [join(ELECTRON_DIR, 'install.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  // Say something only if the download takes a while; an offline failure is over at once.
  const notice = setTimeout(() => console.log('Downloading the Electron runtime (first start only)…'), 2000);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => {
    child.on('error', (err) => resolve(err.message));
    child.on('close', (code) => {
      clearTimeout(notice);
      if (code === 0) return resolve(undefined);
      const reason = stderr.split('\n').find((l) => /error/i.test(l)) ?? stderr.split('\n').find((l) => l.trim()) ?? `exit ${code}`;
      resolve(reason.trim().replace(/^\w*Error:\s*/, ''));
    });
  });
}

/** Electron's user-data directory for "Hearth" (app.getPath('appData')/Hearth), where the app keeps its hub. */
function desktopDataDir() {
  if (process.env.HEARTH_DATA) return process.env.HEARTH_DATA;
  const appData =
    process.platform === 'win32'
      ? (process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Application Support')
        : process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(appData, 'Hearth', 'hub');
}

/** Runs a child in the foreground: Ctrl+C reaches it directly, and its exit code becomes ours. */
function foreground(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env });
  process.on('SIGINT', () => {}); // the terminal sends it to the child too; wait for the child to finish cleanly
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function main() {
  const args = process.argv.slice(2);
  let electron;
  let reason = 'HEARTH_HEADLESS is set';
  if (!process.env.HEARTH_HEADLESS) {
    electron = electronBinary();
    if (!electron) {
      reason = await installElectron();
      electron = reason === undefined ? electronBinary() : undefined;
      reason ??= 'the download finished but no Electron binary was found';
    }
  }
  ensureBuilt({ main: electron !== undefined });
  if (electron) {
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    // Chromium refuses to run as root with its sandbox on (containers, CI).
    const sandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    foreground(electron, [...sandbox, ROOT, ...args], env);
  } else {
    console.log(`Hearth: no Electron runtime (${reason}), so the hub runs without the desktop window; open the URL below in a browser.`);
    foreground(process.execPath, [join(ROOT, 'bin', 'hearth.js'), 'serve', '--data', desktopDataDir(), ...args]);
  }
}

main().catch((err) => {
  console.error(`npm start: ${err.message}`);
  process.exit(1);
});
