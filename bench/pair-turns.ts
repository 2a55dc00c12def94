/**
 * --huge: the reads' CPU time per uncached answer at both sizes, measured in turns. Both hubs run
 * at once and each endpoint is asked of the full hub, then of the huge one, round after round, so
 * that both sizes meet the same moments of a shared machine: measured minutes apart, its drift
 * alone moved a ratio by a third. The ratio is the median of the rounds' ratios. With the full set
 * made before federation a third hub takes its turn too, for huge ÷ that set.
 */
import { startHubProcess, type HubProcess } from './hub-process.js';
import { endpoints, mastodonToken, photoJpeg, type Endpoint } from './endpoints.js';
import type { Manifest } from './seed.js';
import type { SizeName } from './seed-pair.js';
import { sequentialCost } from './sequential-cost.js';

export const TURN_ROUNDS = 5;

export interface TurnsResult {
  /** Median CPU ms per uncached answer at each size. */
  full: number;
  huge: number;
  /** Median of the rounds' huge ÷ full. */
  ratio: number;
  /** The same at the full set made before federation, and the median of the rounds' huge ÷ it. */
  beforeFederation?: number;
  hugeOverBeforeFederation?: number;
  rounds: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Side {
  hub: HubProcess;
  reads: Map<string, Endpoint>;
}

async function startSide(dataDir: string, manifest: Manifest, photo: Buffer, wanted: (name: string) => boolean): Promise<Side> {
  const hub = await startHubProcess(dataDir, {});
  const all = endpoints(manifest, photo, await mastodonToken(hub.url, manifest));
  return { hub, reads: new Map(all.filter((e) => e.kind === 'read' && wanted(e.name)).map((e) => [e.name, e])) };
}

type DataSide = { dataDir: string; manifest: Manifest };

export async function costsInTurns(
  sides: Record<SizeName, DataSide> & { beforeFederation?: DataSide },
  wanted: (name: string) => boolean,
  log: (msg: string) => void,
): Promise<Record<string, TurnsResult>> {
  const photo = await photoJpeg(64, 48);
  const started: Side[] = [];
  const start = async (d: DataSide) => {
    const side = await startSide(d.dataDir, d.manifest, photo, wanted);
    started.push(side);
    return side;
  };
  try {
    const full = await start(sides.full);
    const huge = await start(sides.huge);
    const early = sides.beforeFederation ? await start(sides.beforeFederation) : undefined;
    // The hubs check their store in the background after a start; its CPU time is not the answers'.
    const integrity = /integrity check[^\n]*(nothing to repair|repaired|failed)/;
    await Promise.all(started.map((s) => s.hub.waitForOutput(integrity, 180_000)));
    const out: Record<string, TurnsResult> = {};
    for (const [name, e] of full.reads) {
      const other = huge.reads.get(name);
      if (!other) continue;
      const rounds: { full: number; huge: number; early?: number }[] = [];
      for (let i = 0; i < TURN_ROUNDS; i++) {
        const f = await sequentialCost(full.hub, e, 10, 400);
        const h = await sequentialCost(huge.hub, other, 10, 400);
        const b = early?.reads.get(name) && (await sequentialCost(early.hub, early.reads.get(name)!, 10, 400));
        rounds.push({ full: f.cpuMsPerAnswer, huge: h.cpuMsPerAnswer, early: b ? b.cpuMsPerAnswer : undefined });
      }
      const withEarly = rounds.every((r) => r.early !== undefined);
      const r: TurnsResult = (out[name] = {
        full: median(rounds.map((r) => r.full)),
        huge: median(rounds.map((r) => r.huge)),
        ratio: median(rounds.map((r) => r.huge / r.full)),
        beforeFederation: withEarly ? median(rounds.map((r) => r.early!)) : undefined,
        hugeOverBeforeFederation: withEarly ? median(rounds.map((r) => r.huge / r.early!)) : undefined,
        rounds: rounds.length,
      });
      log(`  ${name}: ${r.full.toFixed(2)} ms full, ${r.huge.toFixed(2)} ms huge, ${r.ratio.toFixed(2)}× (rounds ${rounds.map((x) => (x.huge / x.full).toFixed(2)).join(', ')})${
        r.hugeOverBeforeFederation !== undefined ? `; before federation ${r.beforeFederation!.toFixed(2)} ms, huge ÷ it ${r.hugeOverBeforeFederation.toFixed(2)}×` : ''}`);
    }
    return out;
  } finally {
    for (const s of started) await s.hub.stop();
  }
}
