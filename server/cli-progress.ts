import type { ImportProgress } from './services/channel-import/progress.js';

const WIDTH = 24;

export function bar(fraction: number): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}%`;
}

export function mb(n: number): string {
  return (n / 1048576).toFixed(1);
}

/** One line about an import's progress: the phase, a bar for files (by bytes) and items, the counts. */
export function progressLine(p: ImportProgress): string {
  switch (p.phase) {
    case 'files':
      return `Files  ${bar(p.bytes.total ? p.bytes.done / p.bytes.total : p.files.total ? p.files.done / p.files.total : 0)} ${p.files.done}/${p.files.total} files, ${mb(p.bytes.done)}/${mb(p.bytes.total)} MB`;
    case 'items':
      return `Posts  ${bar(p.items.total ? p.items.done / p.items.total : 0)} ${p.items.done}/${p.items.total} posts, comments and likes`;
    default:
      return p.message;
  }
}

/** Shows an import's progress (see linePrinter). */
export function progressPrinter(out: NodeJS.WriteStream = process.stderr): { update(p: ImportProgress): void; end(): void } {
  return linePrinter<ImportProgress>(progressLine, (p) => (p.phase === 'files' ? p.bytes : p.phase === 'items' ? p.items : undefined), out);
}

/**
 * Shows a long task's progress (an import, a backup) on a terminal as one line redrawn in place (at
 * most ten times a second), or, when the output is not a terminal, as a line per phase and per tenth
 * of the way. `line` describes a moment; `counter` tells how far a phase that has one is.
 */
export function linePrinter<P extends { phase: string }>(line: (p: P) => string, counter: (p: P) => { done: number; total: number } | undefined, out: NodeJS.WriteStream = process.stderr): { update(p: P): void; end(): void } {
  let last = 0;
  let shown = '';
  let lastPhase = '';
  let lastTenth = -1;
  let pending: P | undefined;
  return {
    update(p) {
      if (out.isTTY) {
        pending = p;
        const now = Date.now();
        if (now - last < 100 && p.phase === lastPhase) return;
        last = now;
        lastPhase = p.phase;
        const text = line(p).slice(0, Math.max(20, (out.columns ?? 80) - 1));
        out.write(`\r${text}${' '.repeat(Math.max(0, shown.length - text.length))}`);
        shown = text;
        pending = undefined;
        return;
      }
      const c = counter(p);
      const tenth = c?.total ? Math.floor((c.done / c.total) * 10) : 0;
      if (p.phase !== lastPhase || (c && tenth !== lastTenth)) {
        out.write(`${line(p)}\n`);
        lastPhase = p.phase;
        lastTenth = tenth;
      }
    },
    end() {
      if (out.isTTY && pending) out.write(`\r${line(pending)}`);
      if (out.isTTY && (shown || pending)) out.write('\n');
    },
  };
}
