/**
 * `npm run bench:peer`: Hearth and, when given, a real Hubzilla measured in turns on this machine
 * with the same data: 201 posts seeded through item/update on each, then GET channel/stream and
 * POST item/update under load, with the CPU time each hub's processes spend per answer.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadEndpoint, type RequestSpec } from './load.js';
import { hubzilla, postForm, postItem, postStored, seedPosts, settle, startHearth, type Hub } from './side-by-side-hubs.js';
import { formatSideBySide, writeSideBySide, type Answer, type Measure, type Measured, type SideBySideResults } from './side-by-side-report.js';
import { PostTexts } from './side-by-side-text.js';

const USAGE = `Usage: npm run bench:peer -- [--seconds N] [--rounds N] [--hubzilla URL --login L --password P]
  --seconds N   seconds of load per hub, measure and round (default 10)
  --rounds N    rounds in which the hubs take turns (default 2)
  --hubzilla    a running Hubzilla on this machine (its CPU is read from its processes), with the
                login and password of a channel there; without it Hearth is measured alone`;

const POSTS = 201;
const CONNECTIONS = 10;
/** The seeded texts are the same in every run, so that answers compare across runs. */
const SEED_TEXTS = 21;
const RESULTS = new URL('./results/side-by-side.json', import.meta.url).pathname;
const log = (msg: string) => process.stderr.write(msg + '\n');

function parseOptions() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '2' },
      hubzilla: { type: 'string' },
      login: { type: 'string' },
      password: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  if (!(seconds > 0) || !Number.isInteger(rounds) || rounds < 1) throw new Error(`--seconds and --rounds must be positive\n${USAGE}`);
  if (values.hubzilla && (!values.login || !values.password)) throw new Error(`--hubzilla needs --login and --password\n${USAGE}`);
  return { seconds, rounds, hubzilla: values.hubzilla ? { url: values.hubzilla, login: values.login!, password: values.password! } : undefined };
}

/** channel/stream with a parameter the hub ignores, different on every request: no cached answer. */
function streamSpec(hub: Hub): RequestSpec {
  let n = 0;
  const path = '/api/z/1.0/channel/stream';
  return { method: 'GET', path, headers: { authorization: hub.authorization }, next: () => ({ path: `${path}?_bench=${n++}` }) };
}

/** item/update with a text of its own on every request (Hubzilla refuses a repeated body). */
function postSpec(hub: Hub, texts: PostTexts): RequestSpec {
  return {
    method: 'POST',
    path: '/api/z/1.0/item/update',
    headers: { authorization: hub.authorization, 'content-type': 'application/x-www-form-urlencoded' },
    next: () => ({ body: postForm(texts.next()) }),
    accept: postStored,
  };
}

async function streamAnswer(hub: Hub, seededStarts: string[]): Promise<Answer> {
  const res = await fetch(`${hub.url}/api/z/1.0/channel/stream?_bench=probe`, { headers: { authorization: hub.authorization } });
  const text = await res.text();
  const items = JSON.parse(text) as { body?: string }[];
  if (!Array.isArray(items)) throw new Error(`${hub.name}'s channel/stream is not a list: ${text.slice(0, 200)}`);
  // Hubzilla rewrites hashtags and mentions in the stored body; the beginning stays.
  const seeded = items.filter((i) => seededStarts.some((s) => i.body?.startsWith(s))).length;
  return { measure: 'GET channel/stream', hub: hub.name, status: res.status, bytes: Buffer.byteLength(text), items: items.length, seeded };
}

async function postAnswer(hub: Hub, texts: PostTexts): Promise<Answer> {
  const { status, answer } = await postItem(hub, texts.next());
  if (!postStored(answer)) throw new Error(`${hub.name} did not store a post: ${status} ${answer.slice(0, 200)}`);
  return { measure: 'POST item/update', hub: hub.name, status, bytes: Buffer.byteLength(answer) };
}

/**
 * One load of one hub. The CPU time counts from the start of the load until the hub is idle again,
 * so that work a hub defers (Hubzilla delivers posts in queue workers) is counted.
 */
async function measure(hub: Hub, name: Measure, spec: RequestSpec, round: number, seconds: number, warmUp: boolean): Promise<Measured> {
  if (warmUp) {
    await loadEndpoint(hub.url, spec, { connections: CONNECTIONS, seconds: 1, warmupSeconds: 0 });
    await settle(hub);
  }
  const cpu0 = hub.cpuMs();
  const load = await loadEndpoint(hub.url, spec, { connections: CONNECTIONS, seconds, warmupSeconds: 0 });
  const cpuAtEnd = hub.cpuMs();
  const settleSeconds = await settle(hub);
  const cpuMs = hub.cpuMs() - cpu0;
  const answers = Math.round(load.rps * load.seconds);
  log(`  ${name} ${hub.name} round ${round}: ${load.rps.toFixed(1)}/s, p99 ${load.p99Ms} ms, ${(cpuMs / answers).toFixed(2)} ms CPU per answer${load.non2xx || load.refused ? ` (${load.non2xx} non-2xx, ${load.refused} refused)` : ''}`);
  return { measure: name, hub: hub.name, round, load, answers, cpuMs, cpuMsPerAnswer: cpuMs / answers, cpuMsAfterLoad: cpuMs - (cpuAtEnd - cpu0), settleSeconds };
}

/** Each round lets every hub take its turn, the first hub alternating from round to round. */
async function inTurns(hubs: Hub[], rounds: number, run: (hub: Hub, round: number) => Promise<Measured>): Promise<Measured[]> {
  const out: Measured[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const hub of round % 2 ? hubs : [...hubs].reverse()) out.push(await run(hub, round));
  }
  return out;
}

async function main(): Promise<void> {
  const opts = parseOptions();
  const loadAtStart = loadavg();
  const hubs: Hub[] = [];
  try {
    if (opts.hubzilla) hubs.push(await hubzilla(opts.hubzilla.url, opts.hubzilla.login, opts.hubzilla.password));
    hubs.unshift(await startHearth());
    const seedTexts = new PostTexts(SEED_TEXTS);
    const posts = Array.from({ length: POSTS }, () => seedTexts.next());
    const seededStarts = posts.map((p) => p.body.slice(0, 30));
    const seedSeconds: Record<string, number> = {};
    for (const hub of hubs) {
      const t0 = performance.now();
      await seedPosts(hub, posts);
      seedSeconds[hub.name] = (performance.now() - t0) / 1000;
      log(`Seeded ${POSTS} posts on ${hub.name} ${hub.version} (${hub.url}) in ${seedSeconds[hub.name]!.toFixed(1)} s; idle after ${(await settle(hub)).toFixed(0)} s`);
    }
    const answers: Answer[] = [];
    for (const hub of hubs) answers.push(await streamAnswer(hub, seededStarts));
    // Posts under load have texts of this run's own: a run soon after another must not repeat them.
    const runSeed = Date.now() % 2 ** 31;
    const texts = new Map(hubs.map((h) => [h, new PostTexts(runSeed)]));

    log('GET channel/stream…');
    // A second of unmeasured load before a hub's first round of each measure.
    const warmed = new Set<string>();
    const once = (key: string) => {
      if (warmed.has(key)) return false;
      warmed.add(key);
      return true;
    };
    const runs = await inTurns(hubs, opts.rounds, (hub, round) => measure(hub, 'GET channel/stream', streamSpec(hub), round, opts.seconds, once(`get ${hub.name}`)));
    for (const hub of hubs) answers.push(await postAnswer(hub, texts.get(hub)!));
    log('POST item/update…');
    runs.push(...(await inTurns(hubs, opts.rounds, (hub, round) => measure(hub, 'POST item/update', postSpec(hub, texts.get(hub)!), round, opts.seconds, once(`post ${hub.name}`)))));

    const results: SideBySideResults = {
      date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? '?', node: process.versions.node, loadAverage: { start: loadAtStart, end: loadavg() } },
      options: { seconds: opts.seconds, rounds: opts.rounds, connections: CONNECTIONS, posts: POSTS },
      hubs: hubs.map((h) => ({ name: h.name, url: h.url, version: h.version, cpuOf: h.cpuOf, seedSeconds: Number(seedSeconds[h.name]!.toFixed(1)) })),
      answers,
      runs,
    };
    await writeSideBySide(RESULTS, results);
    console.log(formatSideBySide(results));
    log(`Results: ${RESULTS}`);
  } finally {
    for (const hub of hubs) await hub.stop();
  }
}

await main();
