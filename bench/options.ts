import { parseArgs } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Mode = 'full' | 'quick' | 'tiny';

/** How much data the seeding step creates. */
export interface SeedSize {
  /** Local channels including the owner; all others connect to the owner. */
  channels: number;
  items: number;
  photos: number;
  albums: number;
  /** Files besides the big one. */
  files: number;
  bigFileBytes: number;
  /** Years over which items are spread, ending now. */
  years: number;
}

/** The huge data set (seed-huge.ts): besides the full set's kinds, people elsewhere and their posts. */
export interface HugeSize extends SeedSize {
  /** The owner's connections: the other local channels and people on other servers (ActivityPub). */
  connections: number;
  /** Privacy groups (pgrp), most of them the owner's. */
  groups: number;
  notifications: number;
  /** Share of the items written by people elsewhere. */
  remoteShare: number;
  /** Servers the people elsewhere live on. */
  instances: number;
}

/** How long and how hard each endpoint is loaded. */
export interface LoadSize {
  connections: number;
  /** Seconds of measured load per endpoint. */
  seconds: number;
  /** Seconds of unmeasured load before it (JIT, caches, the credential cache). */
  warmupSeconds: number;
  /** Instead of seconds: this many requests per run (the load generator times runs in whole seconds). */
  requests?: number;
  /** Cold starts measured (median reported). */
  coldStarts: number;
  /** Size of the JPEG that ext/photo/create uploads (12 megapixels but in the tiny mode). */
  photo: { width: number; height: number };
}

export interface BenchOptions {
  mode: Mode;
  dataDir: string;
  /** Use an already seeded data directory as it is. */
  reuse: boolean;
  /** Endpoint names to run (all when empty). */
  only: string[];
  seed: SeedSize;
  load: LoadSize;
  /** Write a V8 CPU profile of the hub to bench/results/prof. */
  cpuProf: boolean;
  /** Measure only the reads' CPU time per uncached answer and their floors (no load, no writes). */
  cost: boolean;
  /** Seed the data directory and stop (to copy it for later `--reuse` runs). */
  seedOnly: boolean;
  resultsFile: string;
  /**
   * --huge: the full and the huge data side by side, each measured on a fresh working copy of a
   * data directory seeded once and kept (`seeds`); `reseed` seeds both again.
   */
  huge?: { seeds: string; reseed: boolean; full: SeedSize | HugeSize; huge: HugeSize; beforeFederation?: SeedSize };
}

const MiB = 1024 * 1024;
/** Where --huge keeps its seeded data sets and working copies (git ignores it). */
const BENCH_DATA = fileURLToPath(new URL('./data/', import.meta.url));

export const SEED_SIZES: Record<Mode, SeedSize> = {
  full: { channels: 10, items: 100_000, photos: 2_000, albums: 40, files: 499, bigFileBytes: 100 * MiB, years: 2 },
  quick: { channels: 10, items: 10_000, photos: 200, albums: 8, files: 49, bigFileBytes: 20 * MiB, years: 2 },
  tiny: { channels: 4, items: 400, photos: 4, albums: 2, files: 4, bigFileBytes: 2 * MiB, years: 2 },
};

/** --huge: a hub after ten years (issue "hub for ten years"); tiny proves the harness (--huge --tiny). */
export const HUGE_SIZES: { huge: HugeSize; tiny: HugeSize } = {
  huge: {
    channels: 10, items: 1_000_000, photos: 50_000, albums: 500, files: 19_999, bigFileBytes: 100 * MiB, years: 10,
    connections: 2_000, groups: 50, notifications: 100_000, remoteShare: 0.5, instances: 120,
  },
  tiny: {
    channels: 4, items: 3_000, photos: 24, albums: 3, files: 19, bigFileBytes: 2 * MiB, years: 10,
    connections: 30, groups: 5, notifications: 300, remoteShare: 0.5, instances: 4,
  },
};

/**
 * --huge's full side: the full set's counts (100,000 items, 2,000 photos, 170 MB of files) seeded by
 * the huge set's generator, i.e. the first year of the same life, federated. The full set of a plain
 * run (seed.ts) was made before federation: its pages name a few local people where the huge set's
 * name dozens from elsewhere, so against it a page costs more for what it shows, not for what lies
 * outside it. That set still takes its turn in the reads (huge ÷ full before federation).
 */
export const FULL_OF_HUGE: HugeSize = {
  channels: 10, items: 100_000, photos: 2_000, albums: 40, files: 499, bigFileBytes: 100 * MiB, years: 1,
  connections: 200, groups: 5, notifications: 10_000, remoteShare: 0.5, instances: 12,
};

export const LOAD_SIZES: Record<Mode, LoadSize> = {
  full: { connections: 10, seconds: 10, warmupSeconds: 2, coldStarts: 3, photo: { width: 4000, height: 3000 } },
  quick: { connections: 10, seconds: 2, warmupSeconds: 0.5, coldStarts: 2, photo: { width: 4000, height: 3000 } },
  tiny: { connections: 4, seconds: 1, warmupSeconds: 0, requests: 40, coldStarts: 1, photo: { width: 800, height: 600 } },
};

export const USAGE = `Usage: npm run bench -- [--quick | --tiny] [--huge [--seeds DIR] [--reseed]] [--data DIR] [--reuse] [--only a,b] [--cost] [--cpu-prof] [--seed-only] [--out FILE]
  --quick     10k items, 200 photos, 2 s per endpoint (for trying changes)
  --tiny      a few hundred items, half a second per endpoint (proves the harness works)
  --huge      the full and the huge data set side by side (1M items, 50k photos, 20k files…), both seeded
              by the huge set's generator, huge ÷ full for every figure, and a chart (SVG) beside the results;
              the reads also against the full set made before federation; with --quick: both sizes, quick
              load; with --tiny: a miniature pair (proves the harness)
  --seeds DIR --huge: where the seeded data directories are kept and reused (default: bench/data/seeds);
              each run measures fresh copies of them (in --data DIR, default bench/data/pair)
  --reseed    --huge: seed both sizes again even when DIR holds them
  --data DIR  data directory to seed and serve (default: <tmp>/hearth-bench-<mode>)
  --reuse     serve DIR as it is when it already holds a seeded hub (skips seeding)
  --only      run only these endpoints (comma-separated names from the table), or sections: coldstart, export, backup,
              fed-inbox, fed-fanout, fed-posting (the federation sections alone need no seeded hub), integrity-wait
              (measure after the hub's background integrity check, as full runs do)
  --cpu-prof  write a V8 CPU profile of the hub process to bench/results/prof/
  --cost      only the reads' CPU time per uncached answer (requests one at a time) and their floors
  --seed-only seed DIR and stop (copy it, then measure copies with --reuse)
  --out FILE  JSON results (default bench/results/latest.json)`;

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      tiny: { type: 'boolean', default: false },
      data: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      'cpu-prof': { type: 'boolean', default: false },
      'seed-only': { type: 'boolean', default: false },
      cost: { type: 'boolean', default: false },
      huge: { type: 'boolean', default: false },
      seeds: { type: 'string' },
      reseed: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const mode: Mode = values.tiny ? 'tiny' : values.quick ? 'quick' : 'full';
  const seedSize = values.huge && mode === 'quick' ? SEED_SIZES.full : SEED_SIZES[mode];
  return {
    mode,
    dataDir: values.data ?? (values.huge ? join(BENCH_DATA, `pair${mode === 'tiny' ? '-tiny' : ''}`) : join(tmpdir(), `hearth-bench-${mode}`)),
    reuse: values.reuse,
    only: (values.only ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean),
    seed: seedSize,
    load: LOAD_SIZES[mode],
    cpuProf: values['cpu-prof'],
    seedOnly: values['seed-only'],
    cost: values.cost,
    resultsFile: values.out ?? new URL(values.huge ? './results/huge.json' : './results/latest.json', import.meta.url).pathname,
    huge: values.huge
      ? mode === 'tiny'
        ? { seeds: values.seeds ?? join(BENCH_DATA, 'seeds-tiny'), reseed: values.reseed, full: seedSize, huge: HUGE_SIZES.tiny }
        : { seeds: values.seeds ?? join(BENCH_DATA, 'seeds'), reseed: values.reseed, full: FULL_OF_HUGE, huge: HUGE_SIZES.huge, beforeFederation: seedSize }
      : undefined,
  };
}
