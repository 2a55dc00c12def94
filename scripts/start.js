#!/usr/bin/env node
// `npm start`: the desktop app when the Electron runtime is available, else the hub headless.
// `npm ci` skips Electron's download (package.json allowScripts), so the first start runs
// Electron's own install step, then prepares the SQLite module for Electron's ABI (scripts/native.js:
// a prebuilt binary, else a compile); only when either fails does Hearth run without a window.
// Arguments after `npm start --` go to the app, or to `hearth serve` in the headless case.
// `npm start -- --smoke` checks the desktop app and exits (0 when it works); it never falls back.
// HEARTH_HEADLESS=1 skips the desktop app on purpose.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt, ROOT } from './build-electron.js';
import { ensureNativeBuild } from './native.js';

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

/** Runs a child in the foreground: Ctrl+C reaches it directly, and its exit code becomes ours. */
function foreground(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env });
  process.on('SIGINT', () => {}); // the terminal sends it to the child too; wait for the child to finish cleanly
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** The version of the Electron runtime that install.js downloads (always the package's own). */
function electronVersion() {
  return JSON.parse(readFileSync(join(ELECTRON_DIR, 'package.json'), 'utf8')).version;
}

/**
 * @typedef {{
 *   env: NodeJS.ProcessEnv,
 *   nodePath: string,
 *   electronBinary(): string | undefined,
 *   installElectron(): Promise<string | undefined>,
 *   electronVersion(): string,
 *   prepareNative(options: { runtime: 'electron', target: string, log: (line: string) => void }): Promise<unknown>,
 *   ensureBuilt(options: { main?: boolean }): void,
 *   isRoot(): boolean,
 *   run(command: string, args: string[], env: NodeJS.ProcessEnv): number | undefined,
 *   log(line: string): void,
 *   error(line: string): void,
 * }} StartDeps
 */

/**
 * Decides how Hearth starts and starts it; `deps` are the outside world (tests replace them).
 * Resolves to an exit code when it ends without launching anything.
 * @param {string[]} args
 * @param {StartDeps} [deps]
 * @returns {Promise<number | undefined>}
 */
export async function start(args, deps = defaultDeps) {
  const { env } = deps;
  const smoke = args.includes('--smoke');
  let electron;
  let reason = 'HEARTH_HEADLESS is set';
  if (!env.HEARTH_HEADLESS) {
    electron = deps.electronBinary();
    if (!electron) {
      const failed = await deps.installElectron();
      electron = failed === undefined ? deps.electronBinary() : undefined;
      reason = `no Electron runtime: ${failed ?? 'the download finished but no Electron binary was found'}`;
    }
  }
  if (electron) {
    try {
      await deps.prepareNative({ runtime: 'electron', target: deps.electronVersion(), log: deps.log });
    } catch (err) {
      electron = undefined;
      reason = err.message;
    }
  }
  if (!electron && smoke) {
    deps.error(`Hearth smoke test failed: the desktop app cannot start here (${reason}).`);
    return 1;
  }
  deps.ensureBuilt({ main: electron !== undefined });
  if (electron) {
    const childEnv = { ...env };
    delete childEnv.ELECTRON_RUN_AS_NODE;
    // Chromium refuses to run as root with its sandbox on (containers, CI).
    const sandbox = deps.isRoot() ? ['--no-sandbox'] : [];
    return deps.run(electron, [...sandbox, ROOT, ...args], childEnv);
  }
  deps.log(`Hearth: the desktop window cannot open (${reason}), so the hub runs headless; open the URL below in a browser.`);
  // `hearth serve` uses the same data folder as the desktop app (HEARTH_DATA, else the default) and says which.
  return deps.run(deps.nodePath, [join(ROOT, 'bin', 'hearth.js'), 'serve', ...args], env);
}

/** @type {StartDeps} */
const defaultDeps = {
  env: process.env,
  nodePath: process.execPath,
  electronBinary,
  installElectron,
  electronVersion,
  prepareNative: ensureNativeBuild,
  ensureBuilt,
  isRoot: () => process.getuid?.() === 0,
  run: (command, args, env) => {
    foreground(command, args, env);
    return undefined;
  },
  log: (line) => console.log(line),
  error: (line) => console.error(line),
};

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  start(process.argv.slice(2)).then(
    (code) => {
      if (code !== undefined) process.exitCode = code;
    },
    (err) => {
      console.error(`npm start: ${err.message}`);
      process.exit(1);
    },
  );
}
