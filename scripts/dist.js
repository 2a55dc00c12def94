#!/usr/bin/env node
// `npm run dist` after the build: packages the app with electron-builder (build/electron-builder.yml).
// better-sqlite3 goes in as the build for the packaged Electron that scripts/native.js makes in
// native/electron-<abi>/, staged in dist/native/ and shipped as the installers' resources/native/,
// where electron/main.ts points the loader. node_modules is never rebuilt in place (npmRebuild:
// false), so the CLI and the tests keep their own build. Arguments go to electron-builder
// (for example `--publish never`, `--dir`).
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNativeBuild, PrepareError } from './native.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAGE = join(ROOT, 'dist', 'native');

async function main(args) {
  const electronVersion = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const { folder } = await ensureNativeBuild({ runtime: 'electron', target: electronVersion });
  rmSync(STAGE, { recursive: true, force: true });
  cpSync(folder, join(STAGE, basename(folder)), { recursive: true, filter: (src) => !basename(src).startsWith('.') });
  const builder = createRequire(import.meta.url).resolve('electron-builder/cli.js');
  const child = spawn(process.execPath, [builder, '--config', join(ROOT, 'build', 'electron-builder.yml'), ...args], { cwd: ROOT, stdio: 'inherit' });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err) => {
    console.error(`dist: ${err instanceof PrepareError ? err.message : (err.stack ?? err)}`);
    process.exitCode = 1;
  },
);
