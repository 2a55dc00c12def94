import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { combineRuns, type LoadResult } from './load.js';
import { bytes, table } from './report.js';

export type Measure = 'GET channel/stream' | 'POST item/update';

/** One measured load of one hub. */
export interface Measured {
  measure: Measure;
  hub: string;
  /** 1, 2, …; 0 for all rounds together. */
  round: number;
  load: LoadResult;
  /** 2xx answers the hub gave (for posts: posts it stored). */
  answers: number;
  /** CPU time of the hub's processes from the start of the load until they were idle again. */
  cpuMs: number;
  cpuMsPerAnswer: number;
  /** The part of cpuMs spent after the load had ended (answers still in flight, deferred work). */
  cpuMsAfterLoad: number;
  /** Seconds the hub took to become idle after the load (its CPU time in them is counted). */
  settleSeconds: number;
}

/** One answer of a hub, looked at before the loads. */
export interface Answer {
  measure: Measure;
  hub: string;
  status: number;
  bytes: number;
  /** Records in a channel/stream answer, and how many of them are the seeded posts. */
  items?: number;
  seeded?: number;
}

export interface SideBySideResults {
  date: string;
  machine: { cpus: number; cpuModel: string; node: string; loadAverage: { start: number[]; end: number[] } };
  options: { seconds: number; rounds: number; connections: number; posts: number };
  hubs: { name: string; url: string; version: string; cpuOf: string; seedSeconds: number }[];
  answers: Answer[];
  runs: Measured[];
}

/** The rounds of one measure on one hub as one row: rates over the summed time, the worst p99. */
export function allRounds(runs: Measured[]): Measured {
  const first = runs[0]!;
  const answers = runs.reduce((a, r) => a + r.answers, 0);
  const cpuMs = runs.reduce((a, r) => a + r.cpuMs, 0);
  return {
    measure: first.measure,
    hub: first.hub,
    round: 0,
    load: combineRuns(runs.map((r) => r.load)),
    answers,
    cpuMs,
    cpuMsPerAnswer: cpuMs / answers,
    cpuMsAfterLoad: runs.reduce((a, r) => a + r.cpuMsAfterLoad, 0),
    settleSeconds: runs.reduce((a, r) => a + r.settleSeconds, 0),
  };
}

function notes(m: Measured): string {
  const l = m.load;
  const out: string[] = [];
  if (l.non2xx) out.push(`${l.non2xx} non-2xx ${JSON.stringify(l.statusCodes)}`);
  if (l.refused) out.push(`${l.refused} refused`);
  if (l.errors || l.timeouts) out.push(`${l.errors} errors, ${l.timeouts} timeouts`);
  if (m.settleSeconds >= 2) out.push(`idle ${m.settleSeconds.toFixed(0)} s after${m.round ? '' : ' (all rounds)'}`);
  return out.join('; ');
}

export function formatSideBySide(r: SideBySideResults): string {
  const rows: string[][] = [];
  for (const measure of ['GET channel/stream', 'POST item/update'] as Measure[]) {
    for (const hub of r.hubs) {
      const runs = r.runs.filter((m) => m.measure === measure && m.hub === hub.name);
      if (!runs.length) continue;
      const answer = r.answers.find((a) => a.measure === measure && a.hub === hub.name);
      for (const m of [...runs, ...(runs.length > 1 ? [allRounds(runs)] : [])]) {
        rows.push([
          measure, hub.name, m.round ? String(m.round) : 'all',
          m.load.rps.toFixed(m.load.rps < 100 ? 1 : 0), m.load.p99Ms.toFixed(0), m.cpuMsPerAnswer.toFixed(2), (m.cpuMsAfterLoad / m.answers).toFixed(2),
          answer ? bytes(answer.bytes) : '–', answer?.items !== undefined ? `${answer.items} (${answer.seeded} seeded)` : '–', notes(m),
        ]);
      }
    }
  }
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
  return [
    `Side by side — ${r.date}, ${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}; load average ${load(r.machine.loadAverage.start)} at the start, ${load(r.machine.loadAverage.end)} at the end`,
    `${r.options.posts} posts seeded through item/update on each hub; ${r.options.connections} clients, ${r.options.seconds} s per load, ${r.options.rounds} rounds taking turns`,
    ...r.hubs.map((h) => `${h.name} ${h.version} at ${h.url}: CPU of ${h.cpuOf}`),
    '',
    table(['measure', 'hub', 'round', 'answers/s', 'p99 ms', 'CPU ms/answer', 'of it after the load', 'answer', 'items', 'notes'], rows, [false, false, true, true, true, true, true, true, true, false]),
    '',
    'Every channel/stream request carries a parameter the hubs ignore, different each time, so no cached answer is reused; every post has',
    'its own text. answers/s: 2xx answers (for posts: posts stored) per second. CPU ms/answer: CPU time (user + system) of the hub\'s',
    'processes from the start of the load until they are idle again, divided by the answers; "of it after the load": the part spent',
    'after the load had ended (answers in flight, work a hub defers: Hubzilla delivers posts in queue workers). answer: the body of',
    'one answer; items: records in it, and how many of them are the seeded posts.',
  ].join('\n');
}

export async function writeSideBySide(file: string, r: SideBySideResults): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(r, null, 2) + '\n');
}
