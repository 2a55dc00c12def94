import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../renderer/src/', import.meta.url));

/** The body of `function <name>(` in a source file, up to the closing brace at the line start. */
function functionBody(file: string, name: string): string {
  const source = readFileSync(SRC + file, 'utf8');
  const start = source.indexOf(`function ${name}(`);
  if (start < 0) throw new Error(`renderer/src/${file} has no function ${name}: the UI's router moved, update test/helpers/ui-routes.ts`);
  const end = source.indexOf('\n}\n', start);
  return source.slice(start, end);
}

/** '/photos/' and '/photos' are one screen. */
const normal = (pattern: string) => (pattern.length > 1 ? pattern.replace(/\/$/, '') : pattern);

/**
 * Every path pattern the UI's router tells screens apart by: the literals compared with the path
 * (`path === '/x'`, `match('/x/:id', path)`, `path.startsWith('/x/')`) in App.tsx's `route` and in
 * the hub-link routes it falls back to. A screen added there shows up here.
 */
export function uiRoutePatterns(): string[] {
  const bodies = [functionBody('App.tsx', 'route'), functionBody('pages/links/routes.tsx', 'hubLinkRoute')];
  const patterns = new Set<string>();
  for (const body of bodies) for (const m of body.matchAll(/(?:match\(|path === |startsWith\()'([^']+)'/g)) patterns.add(normal(m[1]!));
  return [...patterns].sort();
}
