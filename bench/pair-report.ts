import { bytes, cpuPerAnswer, table, type BenchResults, type EndpointResult } from './report.js';
import type { TurnsResult } from './pair-turns.js';

/** The issue's bar: a read at the huge size costs at most this multiple of the same read at the full size. */
export const HUGE_OVER_FULL = 1.3;

export interface PairResults {
  full: BenchResults;
  huge: BenchResults;
  /** The reads' cost at both sizes measured in turns (pair-turns.ts), by endpoint: the headline when present. */
  turns?: Record<string, TurnsResult>;
}

const num = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(digits));
const ratioText = (r: number | undefined) => (r === undefined || !Number.isFinite(r) ? '–' : `${r.toFixed(2)}×${r > HUGE_OVER_FULL ? ' ▲' : ''}`);

/** A figure's cost: reads CPU ms per uncached answer, writes and throughput ms per answer at their rate. */
function cost(e: EndpointResult | undefined): number | undefined {
  if (!e || e.skipped) return undefined;
  if (e.kind === 'read') return cpuPerAnswer(e);
  return e.load && e.load.rps > 0 ? 1000 / e.load.rps : undefined;
}

interface Row {
  name: string;
  kind: string;
  full?: EndpointResult;
  huge?: EndpointResult;
  /** The cost at each size: measured in turns for reads when the run did, else from each size's own run. */
  fullMs?: number;
  hugeMs?: number;
  /** huge ÷ full of the cost (for turns, the median of the rounds' ratios). */
  ratio?: number;
  /** huge ÷ the full set made before federation, measured in turns. */
  overEarly?: number;
}

export function pairRows(p: PairResults): Row[] {
  const huge = new Map(p.huge.endpoints.map((e) => [e.name, e]));
  return p.full.endpoints.map((f) => {
    const h = huge.get(f.name);
    const t = f.kind === 'read' ? p.turns?.[f.name] : undefined;
    if (t) return { name: f.name, kind: f.kind, full: f, huge: h, fullMs: t.full, hugeMs: t.huge, ratio: t.ratio, overEarly: t.hugeOverBeforeFederation };
    const a = cost(f);
    const b = cost(h);
    return { name: f.name, kind: f.kind, full: f, huge: h, fullMs: a, hugeMs: b, ratio: a && b !== undefined ? b / a : undefined };
  });
}

/** Skipped endpoints, and loads that met errors (a size whose every request failed has no cost). */
function notes(r: Row): string {
  const out: string[] = [];
  for (const [size, e] of [['full', r.full], ['huge', r.huge]] as const) {
    if (!e) continue;
    if (e.skipped) out.push(`${size}: ${e.skipped}`);
    for (const l of [e.load, e.uncached]) {
      if (l && l.rps === 0) out.push(`${size}: no answer within the load (connections reset)`);
      else if (l && (l.errors || l.non2xx)) out.push(`${size}: ${l.errors} errors, ${l.non2xx} non-2xx of ${l.requests}`);
    }
  }
  return [...new Set(out)].join('; ');
}

/** Both sizes side by side with huge ÷ full as the headline (markdown tables, fine in a terminal). */
export function formatPair(p: PairResults): string {
  const out: string[] = [];
  const { full, huge } = p;
  out.push(`Hearth bench, full vs huge (${full.mode} load) — ${huge.date}, ${full.machine.cpus} × ${full.machine.cpuModel}, Node ${full.machine.node}`);
  out.push(`Load average at the start: full ${full.machine.loadAverage.start.map((l) => l.toFixed(1)).join('/')}, huge ${huge.machine.loadAverage.start.map((l) => l.toFixed(1)).join('/')}`);
  out.push(`full: ${Object.entries(full.data).map(([k, v]) => `${v} ${k}`).join(', ')}`);
  out.push(`huge: ${Object.entries(huge.data).map(([k, v]) => `${v} ${k}`).join(', ')}`);
  if (huge.seedSeconds?.total !== undefined) out.push(`The huge set was seeded in ${num(huge.seedSeconds.total)} s (${Object.entries(huge.seedSeconds).filter(([k]) => k !== 'total').map(([k, v]) => `${k} ${v} s`).join(', ')}).`);
  out.push('');
  const rate = (e?: EndpointResult) => {
    const x = e?.kind === 'read' ? e.uncached : e?.load;
    return x ? num(x.rps, x.rps < 100 ? 1 : 0) : '–';
  };
  const p99 = (e?: EndpointResult) => num((e?.kind === 'read' ? e.uncached : e?.load)?.p99Ms, 1);
  const rows = pairRows(p).map((r) => [
    r.name, r.kind, ratioText(r.ratio), ratioText(r.overEarly), num(r.fullMs, 2), num(r.hugeMs, 2), num(r.full?.floor?.floorMs, 2), num(r.huge?.floor?.floorMs, 2),
    rate(r.full), rate(r.huge), p99(r.full), p99(r.huge), bytes(r.full?.probe.bytes ?? 0), bytes(r.huge?.probe.bytes ?? 0), notes(r),
  ]);
  out.push(table(
    ['endpoint', 'kind', 'huge ÷ full', 'huge ÷ full before federation', 'full ms', 'huge ms', 'full floor', 'huge floor', 'full req/s', 'huge req/s', 'full p99', 'huge p99', 'full answer', 'huge answer', 'notes'],
    rows,
    [false, false, true, true, true, true, true, true, true, true, true, true, true, true, false],
  ));
  out.push('');
  out.push(p.turns
    ? `ms: reads CPU ms of the hub per uncached answer, requests one at a time, both sizes in turns (pair-turns.ts; huge ÷ full the median of ${Object.values(p.turns)[0]?.rounds ?? 0} rounds' ratios);`
    : 'ms: reads CPU ms of the hub per uncached answer (every answer built);');
  if (Object.values(p.turns ?? {}).some((t) => t.hugeOverBeforeFederation !== undefined)) {
    out.push('full: the full set\'s counts seeded by the huge set\'s generator (its first year; options.ts FULL_OF_HUGE), so that both sizes');
    out.push('show pages of the same kind. huge ÷ full before federation: against the full set of a plain run (seed.ts), in the same turns.');
  }
  out.push(`writes and throughput 1000 ÷ their rate. ▲ above ${HUGE_OVER_FULL}×. Floor: reading the answer's rows raw plus JSON.stringify (floor.ts). req/s and p99 uncached, 10 clients.`);
  out.push('');
  const line = (label: string, a: number | undefined, b: number | undefined, unit: string) => [label, `${num(a)} ${unit}`, `${num(b)} ${unit}`, ratioText(a && b !== undefined ? b / a : undefined)];
  const search = (r: BenchResults) => r.endpoints.find((e) => e.name === 'search')?.uncached?.p99Ms;
  const posting = (r: BenchResults) => r.endpoints.find((e) => e.name === 'statuses/update')?.load?.rps;
  out.push(table(['figure', 'full', 'huge', 'huge ÷ full'], [
    line('cold start (compiled hub, median)', full.coldStartMs.median, huge.coldStartMs.median, 'ms'),
    line('cold start (tsx, median)', full.coldStartMs.tsx.median, huge.coldStartMs.tsx.median, 'ms'),
    line('resident memory idle after start', full.memory.afterSeedIdleMB, huge.memory.afterSeedIdleMB, 'MB'),
    line('resident memory peak under load', full.memory.underLoadPeakMB, huge.memory.underLoadPeakMB, 'MB'),
    line('resident memory idle after load', full.memory.afterLoadIdleMB, huge.memory.afterLoadIdleMB, 'MB'),
    line('search p99 (uncached)', search(full), search(huge), 'ms'),
    line('posting (statuses/update)', posting(full), posting(huge), 'posts/s'),
    line('UI first stream paint (median)', full.firstPaint?.medianMs, huge.firstPaint?.medianMs, 'ms'),
    line('UI first stream paint (first, hub just started)', full.firstPaint?.coldMs, huge.firstPaint?.coldMs, 'ms'),
  ], [false, true, true, true]));
  out.push('(posting: huge ÷ full of the rate; below 1 is slower.)');
  out.push('');
  out.push(table(['target (huge)', 'figure', 'holds'], huge.targets.map((t) => [t.target, t.figure, t.holds ? 'yes' : 'NO']), [false, false, false]));
  return out.join('\n');
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The read endpoints' cost at both sizes as bars on a logarithmic axis (CPU ms per uncached
 * answer), each with its floor as a mark, and huge ÷ full at the end of the row.
 */
export function pairChart(p: PairResults): string {
  // A read that got no answer at one size keeps its row, marked so.
  const rows = pairRows(p).filter((r) => r.kind === 'read' && (r.fullMs !== undefined || r.hugeMs !== undefined));
  const label = 190;
  const plot = 560;
  const early = rows.some((r) => r.overEarly !== undefined);
  const right = early ? 230 : 90;
  const rowH = 34;
  const top = 56;
  const width = label + plot + right;
  const height = top + rows.length * rowH + 40;
  const values = rows.flatMap((r) => [r.fullMs ?? 1, r.hugeMs ?? 1, r.full?.floor?.floorMs ?? 1, r.huge?.floor?.floorMs ?? 1]);
  const lo = 10 ** Math.floor(Math.log10(Math.max(0.01, Math.min(...values))));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const x = (ms: number) => label + (plot * (Math.log10(Math.max(ms, lo)) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  out.push(`<text x="10" y="20" font-size="14" font-weight="bold">Read endpoints: CPU ms per uncached answer, full vs huge data set (log scale)</text>`);
  out.push(`<rect x="${label}" y="30" width="12" height="10" fill="#7aa6d6"/><text x="${label + 16}" y="39">full (${esc(String(p.full.data.items))} items)</text>`);
  out.push(`<rect x="${label + 150}" y="30" width="12" height="10" fill="#d9822b"/><text x="${label + 166}" y="39">huge (${esc(String(p.huge.data.items))} items)</text>`);
  out.push(`<line x1="${label + 300}" y1="29" x2="${label + 300}" y2="41" stroke="#000" stroke-width="2"/><text x="${label + 306}" y="39">floor</text>`);
  out.push(`<text x="${label + plot + 8}" y="39">huge ÷ full</text>`);
  if (early) out.push(`<text x="${label + plot + 98}" y="39">÷ full before federation</text>`);
  for (let d = lo; d <= hi; d *= 10) {
    const gx = x(d);
    out.push(`<line x1="${gx}" y1="${top - 4}" x2="${gx}" y2="${top + rows.length * rowH}" stroke="#ddd"/>`);
    out.push(`<text x="${gx}" y="${top + rows.length * rowH + 16}" text-anchor="middle" fill="#555">${d >= 1 ? d : d.toPrecision(1)} ms</text>`);
  }
  rows.forEach((r, i) => {
    const y = top + i * rowH;
    out.push(`<text x="${label - 8}" y="${y + 20}" text-anchor="end">${esc(r.name)}</text>`);
    for (const [j, e, ms, color] of [[0, r.full, r.fullMs, '#7aa6d6'], [1, r.huge, r.hugeMs, '#d9822b']] as const) {
      const by = y + 4 + j * 13;
      if (!e || ms === undefined) {
        out.push(`<text x="${label + 4}" y="${by + 10}" fill="#b00020" font-size="11">${j ? 'huge' : 'full'}: no answer under load</text>`);
        continue;
      }
      out.push(`<rect x="${label}" y="${by}" width="${Math.max(1, x(ms) - label).toFixed(1)}" height="11" fill="${color}"><title>${esc(`${r.name} ${j ? 'huge' : 'full'}: ${ms.toFixed(2)} ms`)}</title></rect>`);
      if (e.floor) out.push(`<line x1="${x(e.floor.floorMs).toFixed(1)}" y1="${by - 1}" x2="${x(e.floor.floorMs).toFixed(1)}" y2="${by + 12}" stroke="#000" stroke-width="2"/>`);
    }
    const ratio = (value: number | undefined, at: number) => {
      const above = value === undefined || value > HUGE_OVER_FULL;
      out.push(`<text x="${at}" y="${y + 20}" fill="${above ? '#b00020' : '#1b6e20'}" font-weight="${above ? 'bold' : 'normal'}">${value === undefined ? '–' : `${value.toFixed(2)}×`}</text>`);
    };
    ratio(r.ratio, label + plot + 8);
    if (early) ratio(r.overEarly, label + plot + 98);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
