import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The hub as JavaScript, the way the desktop app runs it (scripts/build-electron.js compiles it with tsc). */
export const APP_DIR = join(ROOT, 'bench', 'results', 'app');
const STAMP = join(APP_DIR, '.built');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === 'node_modules' ? [] : files(join(dir, e.name))) : [join(dir, e.name)]));
}

/** An entry like bin/hearth.js for the compiled hub. */
const ENTRY = `const { main } = await import('./server/cli.js');
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
`;

/**
 * Transpiles server/ into APP_DIR when the sources changed since the last time (type checking is
 * `npm run typecheck`'s job; tsc would take seconds), and copies the migrations beside it.
 * Returns the entry script, used as `node <entry> serve …`.
 */
export function buildHub(): string {
  const sources = files(join(ROOT, 'server'));
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs), statSync(join(ROOT, 'package.json')).mtimeMs);
  // The stamp lists the sources built: a file removed from server/ (a migration, say) means a rebuild too.
  const listing = sources.map((f) => relative(ROOT, f)).sort().join('\n') + '\n';
  const entry = join(APP_DIR, 'hearth.js');
  if (existsSync(STAMP) && statSync(STAMP).mtimeMs >= newest && readFileSync(STAMP, 'utf8') === listing && existsSync(entry)) return entry;
  rmSync(join(APP_DIR, 'server'), { recursive: true, force: true });
  for (const file of sources) {
    const out = join(APP_DIR, relative(ROOT, file));
    mkdirSync(dirname(out), { recursive: true });
    if (file.endsWith('.ts')) {
      const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
        fileName: file,
      });
      writeFileSync(out.replace(/\.ts$/, '.js'), outputText);
    } else {
      copyFileSync(file, out);
    }
  }
  writeFileSync(join(APP_DIR, 'package.json'), '{"type":"module"}\n');
  writeFileSync(entry, ENTRY);
  writeFileSync(STAMP, listing);
  return entry;
}
