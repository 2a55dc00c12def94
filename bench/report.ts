import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ExportMeasure } from './export-memory.js';
import type { LoadResult } from './load.js';
import type { EndpointKind } from './endpoints.js';
import type { FloorMeasure } from './floor.js';
import { backupLines, type BackupMeasure } from './backup.js';
import type { FirstPaint } from './first-paint.js';
import type { FederationResults } from './federation.js';

export interface EndpointResult {
  name: string;
  kind: EndpointKind;
  /** Status and size of a single probe request before the load. */
  probe: { status: number; bytes: number };
  load?: LoadResult;
  ceiling?: LoadResult;
  /** req/s as a share of the ceiling's req/s at the same payload size. */
  ratio?: number;
  /** Reads again with a parameter that differs on every request: no answer is reused, every one is built. */
  uncached?: LoadResult;
  /** The least an answer can cost (floor.ts), measured in the same run. */
  floor?: FloorMeasure;
  /** --cost: the hub's CPU time per uncached answer, requests one at a time. */
  cost?: { cpuMsPerAnswer: number; answers: number };
  /**
   * Reads: the CPU time per answer of the ceiling (a bare Koa route sending a ready answer of the
   * same size), measured the same way as the hub's: what HTTP alone costs, which the floor leaves out.
   */
  httpMs?: number;
  /** filedata: MB (10^6 bytes) of decoded file data per second. */
  decodedMBps?: number;
  peakRssMB?: number;
  skipped?: string;
}

export interface TargetCheck {
  target: string;
  figure: string;
  holds: boolean;
}

export interface BenchResults {
  mode: string;
  date: string;
  machine: { cpus: number; cpuModel: string; memGiB: number; node: string; platform: string; loadAverage: { start: number[]; end: number[] } };
  dataDir: string;
  data: Record<string, unknown>;
  seedSeconds?: Record<string, number>;
  /** The compiled hub (as the desktop app runs it); tsx: `hearth serve` from the TypeScript sources. */
  coldStartMs: { samples: number[]; median: number; tsx: { samples: number[]; median: number; rssMB: number[] } };
  memory: { afterSeedIdleMB: number; underLoadPeakMB: number; readsPeakMB: number; afterLoadIdleMB: number };
  endpoints: EndpointResult[];
  exports: ExportMeasure[];
  backup?: BackupMeasure;
  federation?: FederationResults;
  targets: TargetCheck[];
  hubErrors: string;
  /** The UI's first stream paint (first-paint.ts). */
  firstPaint?: FirstPaint;
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const num = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));

export function bytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

export function table(headers: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => (rightAligned[i] ? lpad(c, widths[i]!) : pad(c, widths[i]!))).join(' | ') + ' |';
  const sep = '|' + widths.map((w, i) => (rightAligned[i] ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|';
  return [line(headers), sep, ...rows.map(line)].join('\n');
}

/** CPU ms the hub spent per uncached answer: under load, or one request at a time (--cost). */
export function cpuPerAnswer(e: EndpointResult): number | undefined {
  return e.uncached?.cpuMsPerAnswer ?? e.cost?.cpuMsPerAnswer;
}

/** The uncached answer's CPU cost as a multiple of its floor. */
export function floorMultiple(e: EndpointResult): number | undefined {
  const cpu = cpuPerAnswer(e);
  return cpu !== undefined && e.floor ? cpu / e.floor.floorMs : undefined;
}

/** The results as markdown tables (they read fine in a terminal too). */
export function formatTable(r: BenchResults): string {
  const rows = r.endpoints.map((e) => {
    if (e.skipped) return [e.name, e.kind, '–', '–', '–', '–', '–', '–', '–', '–', '–', '–', '–', '–', '–', e.skipped];
    const l = e.load;
    const u = e.uncached;
    const extra = e.decodedMBps !== undefined ? `${num(e.decodedMBps, 1)} MB/s decoded` : l && (l.non2xx || l.errors) ? `${l.non2xx} non-2xx, ${l.errors} errors` : '';
    const rate = (x: LoadResult | undefined) => (x ? num(x.rps, x.rps < 100 ? 1 : 0) : '–');
    const multiple = floorMultiple(e);
    // Writes and throughput have no uncached variant: their figures go in the headline columns.
    const head = e.kind === 'read' ? u : l;
    return [
      e.name, e.kind, bytes(e.probe.bytes), e.floor ? String(e.floor.items) : '–',
      rate(head), head ? num(head.p99Ms, 1) : '–', num(cpuPerAnswer(e), 2), e.floor ? num(e.floor.floorMs, 2) : '–', multiple !== undefined ? `${multiple.toFixed(1)}×` : '–', num(e.httpMs, 2),
      e.kind === 'read' ? rate(l) : '–', e.kind === 'read' && l ? num(l.p99Ms, 1) : '–', e.ratio !== undefined ? `${Math.round(e.ratio * 100)}%` : '–', e.ceiling ? num(e.ceiling.p99Ms, 1) : '–',
      num(e.peakRssMB), extra,
    ];
  });
  const out: string[] = [];
  out.push(`Hearth bench (${r.mode}) — ${r.date}, ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}, load average ${r.machine.loadAverage.start.map((l) => l.toFixed(1)).join('/')} at the start`);
  out.push(`Data: ${Object.entries(r.data).map(([k, v]) => `${v} ${k}`).join(', ')}`);
  out.push('');
  out.push(table(
    ['endpoint', 'kind', 'response', 'items', 'req/s', 'p99 ms', 'CPU ms/answer', 'floor ms', 'of floor', 'HTTP ms', 'cached req/s', 'cached p99', 'cached of ceiling', 'ceiling p99', 'peak RSS MB', 'notes'],
    rows,
    [false, false, true, true, true, true, true, true, true, true, true, true, true, true, true, false],
  ));
  out.push('');
  out.push('req/s, p99, CPU ms/answer: reads with a parameter that differs on every request, so every answer is built (uncached); CPU time');
  out.push('is the hub process\'s (all threads) per answer. Floor: reading the answer\'s items (the columns it shows) and their authors\' and owners\'');
  out.push('xchans raw, plus JSON.stringify of the answer, in CPU time in the bench process; "of floor" = CPU ms/answer ÷ floor. Cached: clients');
  out.push('polling the same URL (answers reused until the data changes); ceiling: a bare Koa route answering a pre-serialised answer of that size.');
  out.push('HTTP ms: that ceiling\'s CPU time per answer, measured the same way (what HTTP alone costs, which the floor leaves out).');
  out.push('');
  const ex = r.exports.map((e) => [e.channel, String(e.status), String(e.items), bytes(e.bytes), num(e.seconds, 2), num(e.idleRssMB), num(e.peakRssMB), num(e.growthMB, 1)]);
  if (ex.length) {
    out.push(table(['export (posts=true)', 'status', 'item records', 'size', 's', 'RSS before MB', 'peak RSS MB', 'growth MB'], ex, [false, true, true, true, true, true, true, true]));
    out.push('');
  }
  out.push(`Cold start (process start → first 200 from help/test): median ${num(r.coldStartMs.median)} ms (${r.coldStartMs.samples.map((s) => num(s)).join(', ')}) for the compiled hub as the desktop app runs it;`);
  if (r.coldStartMs.tsx.samples.length) {
    out.push(`  \`hearth serve\` from the TypeScript sources through tsx: median ${num(r.coldStartMs.tsx.median)} ms (${r.coldStartMs.tsx.samples.map((s) => num(s)).join(', ')}), ${r.coldStartMs.tsx.rssMB.map((m) => num(m)).join(', ')} MB resident after start`);
  }
  if (r.backup) out.push(...backupLines(r.backup));
  if (r.firstPaint) out.push(`UI first stream paint (Chromium, no cache): median ${num(r.firstPaint.medianMs)} ms (${r.firstPaint.samplesMs.join(', ')})`);
  out.push(`Memory: ${num(r.memory.afterSeedIdleMB)} MB idle after seeding, ${num(r.memory.readsPeakMB)} MB peak under read load, ${num(r.memory.underLoadPeakMB)} MB peak under any load, ${num(r.memory.afterLoadIdleMB)} MB idle afterwards`);
  out.push('');
  out.push(table(['target', 'figure', 'holds'], r.targets.map((t) => [t.target, t.figure, t.holds ? 'yes' : 'NO']), [false, false, false]));
  return out.join('\n');
}

export async function writeResults(file: string, r: object): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(r, null, 2) + '\n');
}
