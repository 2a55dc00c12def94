import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Which build of better-sqlite3's native addon this process loads. The addon is tied to the ABI
 * of the runtime it was compiled for (NODE_MODULE_VERSION: 115 for Node 20, 127 for Node 22, 145
 * for Electron 41). `npm ci` compiles it for the Node that ran it, into node_modules, and that
 * build serves the CLI, the tests and the headless hub. A build for any other runtime (Electron's
 * main process, another Node) lives in its own folder, `<native dir>/<runtime>-<abi>/`, made by
 * `node scripts/native.js` (which `npm start` runs for Electron) and shipped in the installers.
 * This module is the only place that knows about ABIs at run time.
 */

export const ADDON_FILE = 'better_sqlite3.node';
/** Written by scripts/native.js next to the addon: what the build is for. */
export const BUILD_INFO_FILE = 'build.json';

export type NativeRuntime = 'electron' | 'node';

export interface RuntimeTarget {
  runtime: NativeRuntime;
  /** The runtime's version, e.g. 41.7.1 for Electron or 22.23.3 for Node. */
  version: string;
  /** NODE_MODULE_VERSION, e.g. 145. */
  abi: string;
}

export interface BuildInfo {
  package: 'better-sqlite3';
  /** better-sqlite3's version the addon was built from; its JavaScript must be the same release. */
  version: string;
  runtime: NativeRuntime;
  target: string;
  abi: string;
  platform: string;
  arch: string;
  /** How it was obtained: a prebuilt binary or a compile against the runtime's headers. */
  source: 'prebuilt' | 'compiled';
}

const require = createRequire(import.meta.url);

/** The runtime running this process. */
export function currentRuntime(versions: NodeJS.ProcessVersions = process.versions): RuntimeTarget {
  const electron = (versions as { electron?: string }).electron;
  return electron ? { runtime: 'electron', version: electron, abi: versions.modules } : { runtime: 'node', version: versions.node, abi: versions.modules };
}

/** The folder, under the native builds directory, that holds the build for this runtime and ABI. */
export function buildFolder(target: Pick<RuntimeTarget, 'runtime' | 'abi'>): string {
  return `${target.runtime}-${target.abi}`;
}

/** The better-sqlite3 release installed in node_modules. */
export function installedSqliteVersion(): string {
  return (require('better-sqlite3/package.json') as { version: string }).version;
}

/** `<checkout>/native` when running from the sources (the CLI, tests); the desktop app says where its copy is. */
const DEFAULT_DIR = process.env.HEARTH_NATIVE_DIR || fileURLToPath(new URL('../../native/', import.meta.url));

let nativeDir = DEFAULT_DIR;
let chosen: { binding: string | undefined; problem: string | undefined } | undefined;

/** Where the builds for other runtimes are (the packaged app: its resources folder). */
export function useNativeBuildsFrom(dir: string): void {
  nativeDir = dir;
  chosen = undefined;
}

export function nativeBuildsDir(): string {
  return nativeDir;
}

/** Reads a build's build.json; undefined when it is missing or unreadable. */
export function readBuildInfo(folder: string): BuildInfo | undefined {
  try {
    return JSON.parse(readFileSync(join(folder, BUILD_INFO_FILE), 'utf8')) as BuildInfo;
  } catch {
    return undefined;
  }
}

/**
 * Why the build in `folder` cannot serve this process, or undefined when it can. A build from
 * another better-sqlite3 release would meet JavaScript it was not made for.
 */
export function buildMismatch(folder: string, target: RuntimeTarget, sqliteVersion = installedSqliteVersion()): string | undefined {
  if (!existsSync(join(folder, ADDON_FILE))) return `there is no ${ADDON_FILE} in ${folder}`;
  const info = readBuildInfo(folder);
  if (!info) return `${join(folder, BUILD_INFO_FILE)} is missing or damaged`;
  if (info.version !== sqliteVersion) return `the build in ${folder} is of better-sqlite3 ${info.version}, but ${sqliteVersion} is installed`;
  if (info.runtime !== target.runtime || info.abi !== target.abi) return `the build in ${folder} is for ${info.runtime} ABI ${info.abi}`;
  if (info.platform !== process.platform || info.arch !== process.arch) return `the build in ${folder} is for ${info.platform}-${info.arch}`;
  return undefined;
}

/**
 * The addon this process should load: the build in its runtime's folder when there is a usable
 * one, else undefined, which leaves better-sqlite3 to load node_modules' own build (the one `npm ci`
 * made for the Node that ran it).
 */
export function sqliteBinding(): string | undefined {
  return choose().binding;
}

function choose(): { binding: string | undefined; problem: string | undefined } {
  if (!chosen) {
    const folder = join(nativeDir, buildFolder(currentRuntime()));
    const problem = existsSync(folder) ? buildMismatch(folder, currentRuntime()) : `there is no build in ${folder}`;
    chosen = { binding: problem === undefined ? join(folder, ADDON_FILE) : undefined, problem };
  }
  return chosen;
}

/** The source checkout, where the command runs (in the desktop app's compiled copy this is not a checkout). */
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');

/** The command that prepares a build for this process's runtime. */
export function prepareCommand(target: RuntimeTarget = currentRuntime()): string {
  return `node scripts/native.js --runtime ${target.runtime} --target ${target.version}`;
}

/** better-sqlite3's addon cannot be loaded in this process. The message is one line, with the fix. */
export class NativeModuleError extends Error {
  constructor(
    readonly target: RuntimeTarget,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    const name = target.runtime === 'electron' ? 'Electron' : 'Node';
    const where = existsSync(join(CHECKOUT, 'scripts', 'native.js')) ? ` in ${CHECKOUT}` : '';
    super(`the SQLite module (better-sqlite3) has no usable build for ${name} ${target.version} (ABI ${target.abi}): ${problem}; prepare one with \`${prepareCommand(target)}\`${where}`, options);
    this.name = 'NativeModuleError';
  }
}

/** Whether an error thrown by `new Database()` means the addon itself did not load. */
export function isAddonLoadError(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e || typeof e.message !== 'string') return false;
  if (e.code === 'ERR_DLOPEN_FAILED') return true;
  if (e.code === 'MODULE_NOT_FOUND' && e.message.includes(ADDON_FILE)) return true;
  return e.message.startsWith('Could not locate the bindings file');
}

/** Opens a database with the addon build that matches this process, explaining a failure to load it. */
export function openSqlite(file: string, options: { readonly?: boolean; fileMustExist?: boolean } = {}): Database.Database {
  const { binding, problem } = choose();
  try {
    return new Database(file, { ...options, nativeBinding: binding });
  } catch (err) {
    if (!isAddonLoadError(err)) throw err;
    // Either the build chosen here did not load, or there was none and node_modules' did not either.
    const reason = problem === undefined ? firstLine((err as Error).message) : `${problem}, and ${firstLine((err as Error).message)}`;
    throw new NativeModuleError(currentRuntime(), reason, { cause: err });
  }
}

function firstLine(message: string): string {
  // Node's ABI message spans several lines; its gist fits on one.
  const abi = /NODE_MODULE_VERSION (\d+)[\s\S]*NODE_MODULE_VERSION (\d+)/.exec(message);
  if (abi) return `node_modules' build is for ABI ${abi[1]}`;
  if (message.startsWith('Could not locate the bindings file')) return 'node_modules has no build';
  return message.split('\n')[0]!.trim();
}
