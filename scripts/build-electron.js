#!/usr/bin/env node
// Builds what the desktop app runs: the renderer (Vite, into dist/renderer) and the main process
// with the hub compiled by tsc into dist/app/ (see the comment at the top of electron/main.ts).
//   node scripts/build-electron.js            build the main process now
//   node scripts/build-electron.js --renderer build the renderer too
//   node scripts/build-electron.js --if-stale build either only when missing or older than its sources
// Both steps are also exported, in an "only when stale" form, for scripts/start.js.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => join(ROOT, ...parts);

export const APP_DIR = at('dist', 'app');
export const MAIN_JS = join(APP_DIR, 'electron', 'main.js');
const STAMP = join(APP_DIR, '.built');
const RENDERER_CONFIG = at('renderer', 'vite.config.ts');
const RENDERER_OUT = at('dist', 'renderer');

/** Newest modification time of the files under these paths (0 when none exist). */
function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules') visit(join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of paths) visit(p);
  return newest;
}

function mtime(file) {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

function run(what, args) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal})`);
}

export function rendererIsStale() {
  // server/content holds the BBCode renderer, which the composer's preview bundles too.
  return existsSync(RENDERER_CONFIG) && mtime(join(RENDERER_OUT, 'index.html')) < newestMtime([at('renderer'), at('server', 'content')]);
}

/** Builds the renderer with Vite. Returns false when there is no renderer to build. */
export function buildRenderer() {
  if (!existsSync(RENDERER_CONFIG)) return false;
  run('vite build', [at('node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', RENDERER_CONFIG]);
  return true;
}

export function mainIsStale() {
  const built = mtime(STAMP);
  return built === 0 || built < newestMtime([at('electron'), at('server'), RENDERER_OUT, at('package.json')]);
}

/**
 * Compiles electron/ and server/ into dist/app and copies what the compiled server reads relative
 * to its own files: the SQL migrations and the renderer (server/web/ui.ts serves ../../dist/renderer).
 */
export function buildMain() {
  rmSync(APP_DIR, { recursive: true, force: true });
  run('tsc', [at('node_modules', 'typescript', 'bin', 'tsc'), '-p', at('electron', 'tsconfig.json')]);
  const migrations = at('server', 'db', 'migrations');
  const migrationsOut = join(APP_DIR, 'server', 'db', 'migrations');
  mkdirSync(migrationsOut, { recursive: true });
  for (const f of readdirSync(migrations)) if (f.endsWith('.sql')) copyFileSync(join(migrations, f), join(migrationsOut, f));
  if (existsSync(RENDERER_OUT)) cpSync(RENDERER_OUT, join(APP_DIR, 'dist', 'renderer'), { recursive: true });
  writeFileSync(STAMP, new Date().toISOString() + '\n');
}

/** Builds whatever is missing or older than its sources. */
export function ensureBuilt({ main = true } = {}) {
  if (rendererIsStale()) buildRenderer();
  if (main && mainIsStale()) buildMain();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  try {
    if (process.argv.includes('--if-stale')) ensureBuilt();
    else {
      if (process.argv.includes('--renderer')) buildRenderer();
      buildMain();
    }
  } catch (err) {
    console.error(`build: ${err.message}`);
    process.exit(1);
  }
}
