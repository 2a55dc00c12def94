/**
 * `npm run bench`: seeds a data directory (unless --reuse), starts the hub on it in a child
 * process, loads each endpoint with autocannon from this process, loads a bare Koa route with the
 * same payload sizes for the ceiling, measures cold start, memory and the export, and prints and
 * saves the results. Both processes share the machine's cores; that is part of what is measured.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOptions, type BenchOptions } from './options.js';
import { readManifest, seed, type Manifest } from './seed.js';
import { startHubProcess, type HubProcess } from './hub-process.js';
import { buildHub } from './build.js';
import { startCeiling, type CeilingProcess } from './ceiling.js';
import { basicAuth, CHUNK, endpoints, mastodonToken, photoJpeg, type Endpoint } from './endpoints.js';
import type { RequestSpec } from './load.js';
import { combineRuns, loadEndpoint, type LoadOptions, type LoadResult } from './load.js';
import { RssSampler, round1 } from './memory.js';
import { measureExport, type ExportMeasure } from './export-memory.js';
import { formatTable, table, writeResults, type BenchResults, type EndpointResult } from './report.js';
import { checkTargets } from './targets.js';
import { FloorMeter } from './floor.js';
import { sequentialCost, uncached } from './sequential-cost.js';
import { measureBackups, type BackupMeasure } from './backup.js';
import { measureFirstPaint } from './first-paint.js';
import { ensureSeeds, workingCopy, type SizeName } from './seed-pair.js';
import { formatPair, pairChart, type PairResults } from './pair-report.js';
import { costsInTurns, TURN_ROUNDS } from './pair-turns.js';
import { rmSync } from 'node:fs';
import { writeFile, mkdir } from 'node:fs/promises';
import { FEDERATION_SECTIONS, federationSizes, federationTargets, runFederationBenches, type FederationResults } from './federation.js';
import { startFediverse } from './fediverse.js';

const log = (msg: string) => process.stderr.write(msg + '\n');
/** Turns the hub and the ceiling take on each read endpoint, each half the load's seconds. */
const READ_ROUNDS = 3;
const PROF_DIR = fileURLToPath(new URL('./results/prof/', import.meta.url));

async function ensureData(opts: BenchOptions): Promise<{ manifest: Manifest; seeded: boolean }> {
  if (opts.reuse) {
    const existing = await readManifest(opts.dataDir);
    if (existing) {
      log(`Reusing ${opts.dataDir} (seeded ${existing.createdAt})`);
      return { manifest: existing, seeded: false };
    }
    log(`No seeded hub in ${opts.dataDir}; seeding it`);
  }
  log(`Seeding ${opts.dataDir} (${opts.mode}: ${opts.seed.items} items, ${opts.seed.photos} photos, ${opts.seed.files + 1} files)…`);
  const t0 = performance.now();
  const manifest = await seed(opts.dataDir, opts.seed, log);
  log(`Seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { manifest, seeded: true };
}

async function probe(hub: HubProcess, e: Endpoint): Promise<{ status: number; bytes: number }> {
  const spec = e.spec;
  const v = spec.next?.(1_000_000) ?? {};
  const body = v.body ?? spec.body;
  const res = await fetch(hub.url + (v.path ?? spec.path), { method: spec.method, headers: spec.headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
  return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
}

/** Starts and stops the hub `count` times; start times and the resident memory just after each start. */
async function coldStarts(dataDir: string, count: number, entry?: string): Promise<{ ms: number[]; rssMB: number[] }> {
  const out = { ms: [] as number[], rssMB: [] as number[] };
  for (let i = 0; i < count; i++) {
    const h = await startHubProcess(dataDir, { entry });
    out.ms.push(h.coldStartMs);
    out.rssMB.push(round1(h.rss()));
    await h.stop();
  }
  return out;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : Number.NaN;
}

/** The floor of a read endpoint's answer (floor.ts), from its JSON form. */
async function floorOf(hub: HubProcess, meter: FloorMeter, e: Endpoint): Promise<EndpointResult['floor']> {
  if (!e.floor) return undefined;
  const res = await fetch(hub.url + (e.floor.jsonPath ?? e.spec.path), { headers: e.spec.headers });
  if (res.status !== 200) return undefined;
  return meter.measure(e.floor, await res.json());
}

const COST_ROUNDS = 3;

/**
 * --cost: the hub's CPU time per answer and the floor, measured in turns (a shared machine's speed
 * drifts within seconds, and CPU time too stretches when the other core is busy); the median
 * round's figures.
 */
async function costRounds(hub: HubProcess, ceiling: CeilingProcess, meter: FloorMeter, e: Endpoint, bytes: number, minRequests: number) {
  const rounds: { cost: { cpuMsPerAnswer: number; answers: number }; floor?: EndpointResult['floor']; httpMs: number }[] = [];
  const bare: Endpoint = { ...e, spec: { method: 'GET', path: ceiling.path(bytes, e.format) } };
  for (let i = 0; i < COST_ROUNDS; i++) {
    const floor = await floorOf(hub, meter, e);
    const cost = await sequentialCost(hub, e, minRequests, 400);
    const http = await sequentialCost({ url: ceiling.url, pid: ceiling.pid }, bare, minRequests, 400);
    rounds.push({ floor, cost, httpMs: http.cpuMsPerAnswer });
  }
  const ratio = (r: (typeof rounds)[number]) => (r.floor ? r.cost.cpuMsPerAnswer / r.floor.floorMs : r.cost.cpuMsPerAnswer);
  const sorted = [...rounds].sort((a, b) => ratio(a) - ratio(b));
  const mid = sorted[Math.floor(COST_ROUNDS / 2)]!;
  return { ...mid, cost: { ...mid.cost, answers: rounds.reduce((a, r) => a + r.cost.answers, 0) } };
}

async function runEndpoint(hub: HubProcess, ceiling: CeilingProcess, meter: FloorMeter, e: Endpoint, load: LoadOptions, costOnly: boolean): Promise<EndpointResult> {
  const first = await probe(hub, e);
  if (first.status === 404 || first.status === 405 || first.status === 401) {
    log(`  ${e.name}: ${first.status}, skipped (${first.status === 401 ? 'needs other credentials' : 'not implemented yet?'})`);
    return { name: e.name, kind: e.kind, probe: first, skipped: `answers ${first.status}` };
  }
  if (first.status >= 300) log(`  ${e.name}: probe answered ${first.status}`);
  if (costOnly) {
    const { floor, cost, httpMs } = await costRounds(hub, ceiling, meter, e, first.bytes, load.requests ? 5 : 10);
    log(`  ${e.name}: ${cost.cpuMsPerAnswer.toFixed(2)} ms CPU per uncached answer (${cost.answers} answers)${floor ? `; floor ${floor.floorMs.toFixed(2)} ms (${floor.items} items: rows ${floor.rowsMs.toFixed(2)}, JSON ${floor.jsonMs.toFixed(2)}) → ${(cost.cpuMsPerAnswer / floor.floorMs).toFixed(1)}× floor` : ''}`);
    return { name: e.name, kind: e.kind, probe: first, floor, cost, httpMs };
  }
  const opts: LoadOptions = {
    connections: e.connections ?? load.connections,
    seconds: e.slow ? Math.max(load.seconds, 8) : load.seconds,
    warmupSeconds: e.slow ? 0 : load.warmupSeconds,
    requests: load.requests && (e.slow ? Math.ceil(load.requests / 10) : load.requests),
  };
  const sampler = new RssSampler(hub.pid);
  let result: LoadResult;
  const out: EndpointResult = { name: e.name, kind: e.kind, probe: first };
  if (e.kind === 'read') {
    // The hub and the ceiling take turns in short runs, so that both meet the same moments of a
    // shared machine (its speed drifts by tens of percent within minutes); the ratio is the median
    // of the rounds'.
    const rounds = opts.requests ? 1 : READ_ROUNDS;
    const slice: LoadOptions = { ...opts, seconds: Math.max(1, Math.round(opts.seconds / 2)) };
    const ceilingSpec = { method: 'GET' as const, path: ceiling.path(first.bytes, e.format) };
    const hubRuns: LoadResult[] = [];
    const ceilingRuns: LoadResult[] = [];
    for (let round = 0; round < rounds; round++) {
      const run = round === 0 ? slice : { ...slice, warmupSeconds: 0 };
      hubRuns.push(await loadEndpoint(hub.url, e.spec, run));
      ceilingRuns.push(await loadEndpoint(ceiling.url, ceilingSpec, { ...run, cpuPid: ceiling.pid }));
    }
    result = combineRuns(hubRuns);
    out.ceiling = combineRuns(ceilingRuns);
    out.ratio = median(hubRuns.map((r, i) => r.rps / ceilingRuns[i]!.rps));
    out.httpMs = out.ceiling.cpuMsPerAnswer;
  } else {
    result = await loadEndpoint(hub.url, e.spec, opts);
  }
  const rss = sampler.stop();
  out.load = result;
  out.peakRssMB = rss.peakMB;
  if (e.kind === 'read') {
    const sampler2 = new RssSampler(hub.pid);
    out.uncached = await loadEndpoint(hub.url, uncached(e.spec), { ...opts, cpuPid: hub.pid });
    out.peakRssMB = Math.max(rss.peakMB, sampler2.stop().peakMB);
    out.floor = await floorOf(hub, meter, e);
  }
  if (e.name === 'filedata') out.decodedMBps = (result.rps * CHUNK) / 1e6;
  const u = out.uncached;
  log(`  ${e.name}: ${result.rps.toFixed(1)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${out.ratio !== undefined ? `, ${Math.round(out.ratio * 100)}% of ceiling` : ''}${u ? `; uncached ${u.rps.toFixed(1)} req/s, p99 ${u.p99Ms} ms, ${u.cpuMsPerAnswer?.toFixed(2)} ms CPU per answer` : ''}${out.floor && u?.cpuMsPerAnswer ? ` (${(u.cpuMsPerAnswer / out.floor.floorMs).toFixed(1)}× its floor of ${out.floor.floorMs.toFixed(2)} ms)` : ''}${result.non2xx ? `, ${result.non2xx} non-2xx ${JSON.stringify(result.statusCodes)}` : ''}`);
  return out;
}

/** The federation sections wanted (none with --cost): on a data directory and remote servers of their own. */
async function federationBenches(opts: BenchOptions, entry: string, wanted: (name: string) => boolean): Promise<FederationResults | undefined> {
  const sections = FEDERATION_SECTIONS.filter((s) => wanted(s) && !opts.cost);
  if (!sections.length) return undefined;
  const size = federationSizes(opts.mode, { connections: opts.load.connections, seconds: opts.load.seconds, warmupSeconds: opts.load.warmupSeconds });
  const r = await runFederationBenches({
    entry,
    inbox: sections.includes('fed-inbox') ? size.inbox : undefined,
    fanout: sections.includes('fed-fanout') ? size.fanout : undefined,
    posting: sections.includes('fed-posting') ? size.posting : undefined,
    startFediverse: () => startFediverse(size.hosts, size.actorsPerHost),
    log,
    cpuProfDir: opts.cpuProf ? PROF_DIR : undefined,
  });
  if (r.hubErrors.trim()) log(`The federating hub logged:\n${r.hubErrors.slice(-2000)}`);
  return r;
}

/** --only with federation sections alone: no seeded hub; their results and targets. */
async function federationOnly(opts: BenchOptions, wanted: (name: string) => boolean, loadAtStart: number[]): Promise<void> {
  const federation = (await federationBenches(opts, buildHub(), wanted))!;
  const targets = federationTargets(federation);
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? '?', node: process.versions.node, loadAverage: { start: loadAtStart, end: loadavg() } };
  // Not the full run's latest.json, unless asked for by --out.
  const file = opts.resultsFile.replace(/latest\.json$/, 'federation-latest.json');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ mode: opts.mode, date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', machine, federation, targets }, null, 2) + '\n');
  console.log(table(['target', 'figure', 'holds'], targets.map((t) => [t.target, t.figure, t.holds ? 'yes' : 'NO']), [false, false, false]));
  log(`Load average ${loadAtStart.map((l) => l.toFixed(1)).join(' ')} at the start, ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end. Results: ${file}`);
}

/** Which measurements run: --only's, less what --cost leaves out, and with --huge the export and backup unless named. */
function wantedBy(opts: BenchOptions): (name: string) => boolean {
  const heavy = (name: string) => name === 'export' || name === 'backup' || (FEDERATION_SECTIONS as readonly string[]).includes(name);
  return (name) =>
    (opts.only.length === 0 ? !(opts.huge && heavy(name)) : opts.only.includes(name)) && !(opts.cost && (name === 'coldstart' || heavy(name)));
}

/** Everything the bench measures of the hub on opts.dataDir, seeded as the manifest says. */
async function measure(opts: BenchOptions, manifest: Manifest, seeded: boolean): Promise<BenchResults> {
  const loadAtStart = loadavg();
  // --cost measures the reads' CPU time per answer and their floors only.
  const wanted = wantedBy(opts);
  const photo = await photoJpeg(opts.load.photo.width, opts.load.photo.height);
  const entry = buildHub();
  const ceiling = await startCeiling();
  const meter = new FloorMeter(opts.dataDir);
  let hub: HubProcess;
  let starts: number[];
  let tsx: { ms: number[]; rssMB: number[] };
  try {
    log('Measuring cold start…');
    starts = wanted('coldstart') ? (await coldStarts(opts.dataDir, opts.load.coldStarts - 1, entry)).ms : [];
    tsx = wanted('coldstart') ? await coldStarts(opts.dataDir, opts.load.coldStarts - 1) : { ms: [], rssMB: [] };
    hub = await startHubProcess(opts.dataDir, { entry, cpuProfDir: opts.cpuProf ? PROF_DIR : undefined });
  } catch (err) {
    // The ceiling would outlive the run, holding its output open.
    await ceiling.stop();
    meter.close();
    throw err;
  }
  starts.push(hub.coldStartMs);
  const load: LoadOptions = { connections: opts.load.connections, seconds: opts.load.seconds, warmupSeconds: opts.load.warmupSeconds, requests: opts.load.requests };
  const results: EndpointResult[] = [];
  const exports: ExportMeasure[] = [];
  let backup: BackupMeasure | undefined;
  let afterSeedIdleMB = Number.NaN;
  let afterLoadIdleMB = Number.NaN;
  try {
    const auth = basicAuth(manifest.owner, manifest.password);
    // The first authenticated request pays for scrypt; the credential cache serves the rest.
    await fetch(`${hub.url}/api/account/verify_credentials.json`, { headers: { authorization: auth } }).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, 500));
    afterSeedIdleMB = round1(hub.rss());
    log(`Hub ${hub.url} (pid ${hub.pid}) started in ${Math.round(hub.coldStartMs)} ms, ${afterSeedIdleMB} MB resident`);
    // The hub compares its store with its database from 30 s after a start, on a worker thread of
    // its own process: CPU time the answers measured meanwhile would be charged with (3 s of it at
    // the huge size). The answers are measured once it has finished (not in the tiny mode).
    if (opts.mode !== 'tiny' && wanted('integrity-wait')) {
      const t0 = performance.now();
      const checked = await hub.waitForOutput(/integrity check[^\n]*(nothing to repair|repaired|failed)/, 180_000);
      log(checked ? `  the hub's integrity check ended ${Math.round((performance.now() - t0) / 1000)} s after the first answer` : "  the hub's integrity check did not end within 180 s; measuring anyway");
    }
    const all = endpoints(manifest, photo, await mastodonToken(hub.url, manifest)).filter((e) => wanted(e.name));
    const ordered = [...all.filter((e) => e.kind === 'read'), ...all.filter((e) => e.kind === 'throughput' && !opts.cost)];
    for (const e of ordered) results.push(await runEndpoint(hub, ceiling, meter, e, load, opts.cost));
    if (wanted('export')) {
      for (const nick of [manifest.owner, manifest.smallChannel]) {
        const m = await measureExport(hub.url, hub.pid, auth, nick);
        log(`  export ${nick}: ${m.status}, ${m.items} item records, ${(m.bytes / 1e6).toFixed(1)} MB in ${m.seconds} s, RSS ${m.idleRssMB} → ${m.peakRssMB} MB`);
        exports.push(m);
      }
    }
    for (const e of all.filter((x) => x.kind === 'write' && !opts.cost)) results.push(await runEndpoint(hub, ceiling, meter, e, load, false));
    if (wanted('backup')) backup = await measureBackups(hub, opts.dataDir, auth, photo, { ...load, seconds: Math.max(load.seconds, 5) }, log);
    await new Promise((r) => setTimeout(r, opts.mode === 'tiny' ? 300 : 2000));
    afterLoadIdleMB = round1(hub.rss());
  } finally {
    await hub.stop();
    await ceiling.stop();
    meter.close();
  }
  const federation = await federationBenches(opts, entry, wanted);
  const peaks = results.filter((r) => r.peakRssMB !== undefined);
  const underLoadPeakMB = peaks.length ? Math.max(...peaks.map((r) => r.peakRssMB!)) : Number.NaN;
  const readPeaks = peaks.filter((r) => r.kind === 'read');
  const readsPeakMB = readPeaks.length ? Math.max(...readPeaks.map((r) => r.peakRssMB!)) : Number.NaN;
  const coldStartMs = median(starts);
  const r: BenchResults = {
    mode: opts.mode,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: {
      cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? '?', memGiB: Math.round(totalmem() / 2 ** 30), node: process.versions.node, platform: process.platform,
      loadAverage: { start: loadAtStart, end: loadavg() },
    },
    dataDir: opts.dataDir,
    data: {
      channels: manifest.channels.length, items: manifest.items.items, posts: manifest.items.posts, comments: manifest.items.comments, likes: manifest.items.likes,
      notifications: manifest.items.notifications, photos: manifest.photos, albums: manifest.albums.length, files: manifest.files,
      'MB of files': Math.round(manifest.fileBytes / 1e6),
    },
    seedSeconds: seeded ? manifest.seconds : undefined,
    coldStartMs: { samples: starts.map(Math.round), median: Math.round(coldStartMs), tsx: { samples: tsx.ms.map(Math.round), median: Math.round(median(tsx.ms)), rssMB: tsx.rssMB } },
    memory: { afterSeedIdleMB, underLoadPeakMB, readsPeakMB, afterLoadIdleMB },
    endpoints: results,
    exports,
    backup,
    federation,
    targets: [...checkTargets(results, wanted('coldstart') ? coldStartMs : hub.coldStartMs, underLoadPeakMB, exports), ...(federation ? federationTargets(federation) : [])],
    hubErrors: hub.stderr(),
  };
  if (wanted('firstpaint') && !opts.cost) {
    log('Measuring the UI\'s first stream paint…');
    r.firstPaint = await measureFirstPaint(opts.dataDir, manifest, opts.load.coldStarts);
    log(`  first stream paint: median ${r.firstPaint.medianMs} ms (${r.firstPaint.samplesMs.join(', ')}); the first one's requests until its first post:`);
    for (const q of r.firstPaint.coldRequests) log(`    ${String(q.sentMs).padStart(5)} → ${q.answeredMs === undefined ? '  (open)' : `${String(q.answeredMs).padStart(5)} ms`} ${q.bytes === undefined ? '' : `${Math.round(q.bytes / 1024)} KiB `}${q.path}`);
  }
  if (r.hubErrors.trim()) log(`\nThe hub logged errors (see hubErrors in ${opts.resultsFile}):\n${r.hubErrors.slice(-2000)}`);
  return r;
}

/** --huge: the full and the huge data set, each measured on a fresh working copy of its seed; both results, the ratios and the chart. */
async function measurePair(opts: BenchOptions & { huge: NonNullable<BenchOptions['huge']> }): Promise<void> {
  const seeds = await ensureSeeds(opts.huge.seeds, opts.huge, opts.huge.reseed, log);
  if (opts.seedOnly) {
    log(`Seeded ${opts.huge.seeds}`);
    return;
  }
  const results = {} as Record<SizeName, BenchResults>;
  const dirs = { full: join(opts.dataDir, 'full'), huge: join(opts.dataDir, 'huge') };
  for (const name of ['full', 'huge'] as const) {
    log(`\n== ${name}: a working copy of ${seeds[name].dir} in ${dirs[name]}`);
    workingCopy(seeds[name].dir, dirs[name]);
  }
  // The reads in turns come first: the sizes' own runs post thousands of statuses, which then
  // fill the home pages.
  let turns: PairResults['turns'];
  if (opts.mode !== 'tiny') {
    const earlyDir = join(opts.dataDir, 'before-federation');
    const early = seeds.beforeFederation;
    log(`\n== reads at both sizes in turns (${TURN_ROUNDS} rounds each, requests one at a time)${early ? ', and at the full set made before federation' : ''}`);
    if (early) workingCopy(early.dir, earlyDir);
    const side = (dir: string, manifest: Manifest) => ({ dataDir: dir, manifest });
    turns = await costsInTurns(
      { full: side(dirs.full, seeds.full.manifest), huge: side(dirs.huge, seeds.huge.manifest), beforeFederation: early && side(earlyDir, early.manifest) },
      wantedBy(opts),
      log,
    );
    rmSync(earlyDir, { recursive: true, force: true });
  }
  for (const name of ['full', 'huge'] as const) {
    log(`\n== ${name}`);
    results[name] = await measure({ ...opts, dataDir: dirs[name] }, seeds[name].manifest, false);
    results[name].seedSeconds = seeds[name].manifest.seconds;
    if (seeds[name].manifest.huge) results[name].data = { ...results[name].data, ...seeds[name].manifest.huge };
    rmSync(dirs[name], { recursive: true, force: true });
  }
  const pair: PairResults = { full: results.full, huge: results.huge, turns };
  await writeResults(opts.resultsFile, pair);
  const svg = opts.resultsFile.replace(/\.json$/, '') + '.svg';
  await writeFile(svg, pairChart(pair));
  console.log(formatPair(pair));
  log(`Results: ${opts.resultsFile}, chart: ${svg}`);
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.only.length && opts.only.every((n) => (FEDERATION_SECTIONS as readonly string[]).includes(n))) return federationOnly(opts, wantedBy(opts), loadavg());
  if (opts.huge) return measurePair({ ...opts, huge: opts.huge });
  const { manifest, seeded } = await ensureData(opts);
  if (opts.seedOnly) {
    log(`Seeded ${opts.dataDir}; measure copies of it with --data <copy> --reuse`);
    return;
  }
  const r = await measure(opts, manifest, seeded);
  await writeResults(opts.resultsFile, r);
  console.log(formatTable(r));
  if (seeded) console.log(`\nSeeding took ${Object.entries(manifest.seconds).map(([k, v]) => `${k} ${v} s`).join(', ')}.`);
  if (opts.cpuProf) log(`CPU profile of the hub: ${join(PROF_DIR)}`);
  log(`Results: ${opts.resultsFile}`);
}

await main();
