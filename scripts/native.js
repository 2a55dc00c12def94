#!/usr/bin/env node
// Prepares better-sqlite3's native addon for a runtime other than the Node that ran `npm ci`:
//
//   node scripts/native.js --runtime <electron|node> --target <version> [--nodedir DIR]
//
// The build goes into native/<runtime>-<abi>/ (server/db/native-binding.ts loads it from there);
// node_modules' own build is never touched, so the CLI and the tests keep working. First it tries
// better-sqlite3's prebuilt binary for that runtime (prebuild-install, from GitHub), else it
// compiles a scratch copy of better-sqlite3 against the runtime's headers (node-gyp: a C++
// toolchain and Python; headers from --nodedir, or downloaded from nodejs.org / electronjs.org).
// `npm start` runs it for Electron before launching the app. Nothing to do when the build is there.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { tsImport } from 'tsx/esm/api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
/** @type {typeof import('../server/db/native-binding.ts')} */
const binding = await tsImport(pathToFileURL(join(ROOT, 'server', 'db', 'native-binding.ts')).href, import.meta.url);

const SQLITE_DIR = dirname(require.resolve('better-sqlite3/package.json'));
const ELECTRON_HEADERS = 'https://electronjs.org/headers';
const PREBUILT_TIMEOUT_MS = 2 * 60_000;
const COMPILE_TIMEOUT_MS = 20 * 60_000;

export const USAGE = 'Usage: node scripts/native.js --runtime <electron|node> --target <version> [--nodedir DIR]';

export class PrepareError extends Error {}

/**
 * The runtime's NODE_MODULE_VERSION: from the headers when given (they decide what a compile
 * produces), else from node-abi (what prebuild-install names its binaries by), else, for the
 * installed Electron, from the abi_version file it ships.
 */
export function targetAbi(runtime, target, nodedir) {
  if (nodedir) {
    const header = join(nodedir, 'include', 'node', 'node_version.h');
    if (!existsSync(header)) throw new PrepareError(`--nodedir ${nodedir} has no include/node/node_version.h`);
    const abi = /#define NODE_MODULE_VERSION (\d+)/.exec(readFileSync(header, 'utf8'))?.[1];
    if (!abi) throw new PrepareError(`no NODE_MODULE_VERSION in ${header}`);
    return abi;
  }
  try {
    const nodeAbi = createRequire(require.resolve('prebuild-install/package.json', { paths: [SQLITE_DIR] }))('node-abi');
    return String(nodeAbi.getAbi(target, runtime));
  } catch (err) {
    if (runtime === 'electron') {
      const electron = join(ROOT, 'node_modules', 'electron');
      try {
        if (JSON.parse(readFileSync(join(electron, 'package.json'), 'utf8')).version === target) return readFileSync(join(electron, 'abi_version'), 'utf8').trim();
      } catch {
        // not the installed Electron
      }
    }
    throw new PrepareError(`cannot tell the ABI of ${runtime} ${target}: ${err.message}`);
  }
}

/**
 * The ABI an addon was compiled for, from the registration symbol Node looks up in it
 * (node_register_module_v<ABI>); undefined when it has none (a Node-API addon).
 */
export function addonAbi(file) {
  return /node_register_module_v(\d+)/.exec(readFileSync(file).toString('latin1'))?.[1];
}

/** The environment for prebuild-install and node-gyp: npm's own settings (`nodedir=/usr`, a target) must not pick the headers. */
export function toolEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_config_(nodedir|target|target_arch|runtime|arch|platform|dist_url|disturl|devdir|build_from_source|node_gyp)$/i.test(key) || /^npm_package_config_node_gyp_/i.test(key)) delete env[key];
  }
  return env;
}

/** Runs a Node script; resolves with its output, rejects with the output when it fails. */
function runNode(args, { cwd, timeoutMs }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: toolEnv(), stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      output += `\n(stopped after ${timeoutMs / 1000} s)`;
      child.kill();
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(err.message), { output }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(output);
      else reject(Object.assign(new Error(`exit ${code ?? signal}`), { output }));
    });
  });
}

/** The line of prebuild-install's output that says why there is no binary. */
export function prebuiltFailure(output) {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  const warn = lines.filter((l) => /prebuild-install (warn|ERR!)/.test(l)).pop();
  return (warn ?? lines.pop() ?? 'no output').replace(/^prebuild-install (warn|ERR!)\s+(install\s+)?/, '');
}

/** The line of node-gyp's output that says why the compile failed. */
export function compileFailure(output) {
  const lines = output.split('\n').map((l) => l.trim()).filter(Boolean);
  const stack = [];
  for (const l of lines) {
    const m = /^gyp ERR! stack (.*)$/.exec(l);
    if (!m || m[1].startsWith('at ')) {
      if (stack.length) break;
      continue;
    }
    stack.push(m[1]);
  }
  const message = stack.join(' ').replace(/^\w*Error: /, '');
  // node-gyp hides why a header download failed behind this sentence; the URL says more.
  const download = lines.filter((l) => l.startsWith('gyp http GET ')).pop()?.slice('gyp http GET '.length);
  if (download && /network connectivity|proxy/.test(message)) return `could not download ${download}`;
  if (lines.some((l) => l.startsWith('gyp ERR! find Python'))) return 'no Python found (node-gyp needs Python 3)';
  const compiler = lines.find((l) => /(^|\s)(fatal )?error( [A-Z]+\d+)?:/i.test(l) && !l.startsWith('gyp'));
  return compiler ?? (message || lines.filter((l) => l.startsWith('gyp ERR!')).shift() || lines.pop() || 'no output');
}

/**
 * @typedef {'electron' | 'node'} Runtime
 * @typedef {{ scratch: string, runtime: Runtime, target: string, abi: string, nodedir?: string, logFile?: string }} StepOptions
 * @typedef {{ prebuilt(o: StepOptions): Promise<void>, compile(o: StepOptions): Promise<void> }} Steps
 */

/** The default steps; tests replace them. Each gets a scratch copy of better-sqlite3 and leaves build/Release/better_sqlite3.node in it. */
/** @type {Steps} */
export const steps = {
  async prebuilt({ scratch, runtime, target }) {
    const bin = require.resolve('prebuild-install/bin.js', { paths: [SQLITE_DIR] });
    try {
      await runNode([bin, '--runtime', runtime, '--target', target, '--arch', process.arch, '--platform', process.platform], { cwd: scratch, timeoutMs: PREBUILT_TIMEOUT_MS });
    } catch (err) {
      throw new PrepareError(`no prebuilt binary (${prebuiltFailure(err.output ?? err.message)})`);
    }
  },
  async compile({ scratch, runtime, target, nodedir, logFile }) {
    const gyp = require.resolve('node-gyp/bin/node-gyp.js');
    const args = [gyp, 'rebuild', '--release', `--target=${target}`, `--arch=${process.arch}`, '--jobs=max'];
    if (nodedir) args.push(`--nodedir=${resolve(nodedir)}`);
    // Electron's headers, cached apart from Node's as @electron/rebuild does (the versions overlap).
    else if (runtime === 'electron') args.push(`--dist-url=${ELECTRON_HEADERS}`, `--devdir=${join(homedir(), '.electron-gyp')}`);
    try {
      await runNode(args, { cwd: scratch, timeoutMs: COMPILE_TIMEOUT_MS });
    } catch (err) {
      const output = err.output ?? err.message;
      let where = '';
      try {
        mkdirSync(dirname(logFile), { recursive: true });
        writeFileSync(logFile, output);
        where = `; full log: ${logFile}`;
      } catch {
        // the reason line is still given
      }
      throw new PrepareError(`the compile failed (${compileFailure(output)})${where}`);
    }
  },
};

const label = (runtime, target, abi) => `${runtime === 'electron' ? 'Electron' : 'Node'} ${target} (ABI ${abi})`;

/** A copy of better-sqlite3 without its build, so that node_modules' own build is never overwritten. */
function scratchCopy() {
  const scratch = mkdtempSync(join(tmpdir(), 'hearth-native-'));
  cpSync(SQLITE_DIR, scratch, {
    recursive: true,
    filter: (src) => {
      const rel = relative(SQLITE_DIR, src).split(sep);
      return rel[0] !== 'build' && rel[0] !== 'node_modules' && rel[0] !== 'prebuilds';
    },
  });
  return scratch;
}

/** Checks what a step produced and moves it into place; build.json, written last, makes it count. */
function install(scratch, folder, info) {
  const built = join(scratch, 'build', 'Release', binding.ADDON_FILE);
  if (!existsSync(built)) throw new PrepareError(`it produced no ${binding.ADDON_FILE}`);
  const abi = addonAbi(built);
  if (abi !== undefined && abi !== info.abi) throw new PrepareError(`it produced a build for ABI ${abi} instead of ${info.abi} (the wrong headers were used)`);
  mkdirSync(folder, { recursive: true });
  rmSync(join(folder, binding.BUILD_INFO_FILE), { force: true });
  const addonTmp = join(folder, `.${binding.ADDON_FILE}.${process.pid}.tmp`);
  cpSync(built, addonTmp);
  renameSync(addonTmp, join(folder, binding.ADDON_FILE));
  const infoTmp = join(folder, `.${binding.BUILD_INFO_FILE}.${process.pid}.tmp`);
  writeFileSync(infoTmp, JSON.stringify(info, null, 2) + '\n');
  renameSync(infoTmp, join(folder, binding.BUILD_INFO_FILE));
}

/** Whether node_modules' own build loads in this process (then it already serves this ABI). */
function nodeModulesBuildLoads() {
  try {
    const Database = require('better-sqlite3');
    new Database(':memory:').close();
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure a build for the runtime exists. Resolves to what happened: 'node_modules' (this
 * Node's own build serves), 'present', 'prebuilt' or 'compiled'; only the last two say anything.
 * Rejects with a PrepareError giving both reasons when neither a prebuilt binary nor a compile worked.
 */
/**
 * @param {{ runtime: string, target: string, nodedir?: string, dir?: string, log?: (line: string) => void, using?: Steps }} options
 * @returns {Promise<{ outcome: 'node_modules' | 'present' | 'prebuilt' | 'compiled', folder: string, what: string }>}
 */
export async function ensureNativeBuild({ runtime, target, nodedir, dir = binding.nativeBuildsDir(), log = (line) => console.log(line), using = steps }) {
  if (runtime !== 'electron' && runtime !== 'node') throw new PrepareError(`--runtime must be electron or node, not ${runtime}`);
  target = String(target ?? '').replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+/.test(target)) throw new PrepareError(`--target must be a version such as 41.7.1, not "${target}"`);
  const abi = targetAbi(runtime, target, nodedir);
  const what = label(runtime, target, abi);
  const folder = join(dir, binding.buildFolder({ runtime, abi }));
  const inside = relative(process.cwd(), folder);
  const shown = inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : folder;

  if (runtime === 'node' && !process.versions.electron && abi === process.versions.modules && nodeModulesBuildLoads()) {
    return { outcome: 'node_modules', folder, what };
  }
  const target_ = { runtime, version: target, abi };
  const addon = join(folder, binding.ADDON_FILE);
  if (binding.buildMismatch(folder, target_) === undefined && [abi, undefined].includes(addonAbi(addon))) {
    return { outcome: 'present', folder, what };
  }

  log(`Preparing the SQLite module (better-sqlite3) for ${what}, once: a prebuilt binary, else a compile (a minute or more)…`);
  const base = { package: 'better-sqlite3', version: binding.installedSqliteVersion(), runtime, target, abi, platform: process.platform, arch: process.arch };
  const started = Date.now();
  const reasons = [];
  for (const source of /** @type {const} */ (['prebuilt', 'compiled'])) {
    const scratch = scratchCopy();
    try {
      if (source === 'prebuilt') await using.prebuilt({ scratch, runtime, target, abi });
      else await using.compile({ scratch, runtime, target, abi, nodedir, logFile: join(dir, `${binding.buildFolder({ runtime, abi })}-build.log`) });
      install(scratch, folder, { ...base, source });
      log(`better-sqlite3 for ${what}: ${source === 'prebuilt' ? 'prebuilt binary installed' : 'compiled'} into ${shown} (${Math.round((Date.now() - started) / 1000)} s).`);
      return { outcome: source, folder, what };
    } catch (err) {
      reasons.push(err instanceof PrepareError ? err.message : `${source === 'prebuilt' ? 'the download' : 'the compile'} failed (${err.message})`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  throw new PrepareError(`could not prepare better-sqlite3 for ${what}: ${reasons.join('; ')}`);
}

/** The command line: `node scripts/native.js --runtime … --target … [--nodedir …]`. Resolves to the exit code. */
export async function cli(argv, log = (line) => console.log(line), fail = (line) => console.error(line)) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { runtime: { type: 'string' }, target: { type: 'string' }, nodedir: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (err) {
    fail(`native.js: ${err.message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    log(USAGE);
    return 0;
  }
  if (!values.runtime || !values.target) {
    fail(USAGE);
    return 2;
  }
  try {
    const { outcome, folder, what } = await ensureNativeBuild({ runtime: values.runtime, target: values.target, nodedir: values.nodedir, log });
    if (outcome === 'node_modules') log(`better-sqlite3 for ${what}: node_modules' own build serves this Node; nothing to do.`);
    if (outcome === 'present') log(`better-sqlite3 for ${what}: ready in ${folder}.`);
    return 0;
  } catch (err) {
    if (!(err instanceof PrepareError)) throw err;
    fail(`native.js: ${err.message}`);
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  process.exitCode = await cli(process.argv.slice(2));
}
