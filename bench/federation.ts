/**
 * Federation benchmarks: the shared inbox under signed Creates from many followed actors (accepted
 * and stored per second), a public post's fan-out to 1,000 followers on 100 hosts (time and
 * memory), and posting with federation on and 1,000 remote followers against federation off.
 * The remote servers are fediverse-process.ts, in a process of their own; the hub runs in its own
 * process on a data directory of its own with a fixed port (its actor ids name it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrivateKey, webcrypto } from 'node:crypto';
import Database from 'better-sqlite3';
import { signRequest } from '@fedify/fedify/sig';
import { openDatabase } from '../server/db/open.js';
import { createHub } from '../server/hub.js';
import { createChannel } from '../server/services/channels.js';
import { connect, DEFAULT_CONNECTION_PERMS, receiveFollow } from '../server/services/connections.js';
import { putFedFollow, setFedFollowAccepted, upsertRemoteActor } from '../server/store/federation.js';
import { setFederation } from '../server/federation/settings.js';
import { nowDb } from '../server/util/time.js';
import { basicAuth } from './endpoints.js';
import type { Fediverse } from './fediverse.js';
import { startHubProcess, type HubProcess } from './hub-process.js';
import { loadEndpoint, type LoadOptions, type LoadResult } from './load.js';
import { RssSampler, round1 } from './memory.js';
import { processCpuMs } from './cpu.js';
import type { TargetCheck } from './report.js';

const OWNER = 'alice';
const PASSWORD = 'bench password';
const INSECURE = { HEARTH_FEDERATION_INSECURE: '1' };
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
/** Bursts of posts in the fan-out benchmark: memory is flat when the later ones add nothing. */
const BURSTS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface InboxResult {
  activities: number;
  connections: number;
  /** Wall time of the sending, first request to last answer. */
  seconds: number;
  acceptedPerSec: number;
  /** Items that appeared, per second from the first request until the last of them did. */
  storedPerSec: number;
  stored: number;
  statusCodes: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  /** The hub's CPU time per activity, from the first request until the last was stored. */
  cpuMsPerActivity: number;
  presignSeconds: number;
}

export interface FanoutResult {
  followers: number;
  hosts: number;
  /** One public post: from its POST until the last host's shared inbox had it. */
  oneSeconds: number;
  /** `burst` posts at once, `BURSTS` times: the quickest burst until every host had each post, and deliveries per second. */
  burst: number;
  burstSeconds: number;
  deliveriesPerSec: number;
  /** Deliveries (POSTs to inboxes) per post: one per host. */
  postsPerActivity: number;
  /**
   * The hub's resident memory: idle before, the peak during one post's fan-out, and for each burst
   * of `burst` posts its peak and the memory 2 s after it (flat: later bursts do not add to it).
   */
  rssMB: { before: number; peakOne: number; peak: number; after: number; bursts: { peak: number; after: number }[] };
}

export interface FederatedPostingResult {
  followers: number;
  off: LoadResult[];
  on: LoadResult[];
  /** Per run with federation on: deliveries the remote inboxes got during it, and jobs and deliveries still queued at its end. */
  deliveredDuring: number[];
  queuedAfter: number[];
}

export interface FederationResults {
  inbox?: InboxResult;
  fanout?: FanoutResult;
  posting?: FederatedPostingResult;
  hubErrors: string;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/**
 * A data directory with channel alice, federation on at http://127.0.0.1:<port>, every actor of
 * the bench's fediverse following her, and her following the first actor of each host.
 */
async function seedFederation(dataDir: string, port: number, fed: Fediverse): Promise<void> {
  Object.assign(process.env, INSECURE);
  const hub = await createHub({ dataDir, host: '127.0.0.1', port });
  try {
    const db = hub.db;
    const channel = await createChannel(db, { baseUrl: `http://127.0.0.1:${port}` }, { nick: OWNER, name: 'Alice', password: PASSWORD, email: `${OWNER}@example.com` });
    const now = nowDb();
    db.transaction(() => {
      fed.origins.forEach((origin, host) => {
        for (let n = 0; n < fed.actorsPerHost; n++) {
          const id = fed.actorId(host, n);
          const name = `Bench u${n}`;
          upsertRemoteActor(db, {
            id, address: `u${n}@${new URL(origin).host}`, name, url: id, icon: '', publicKeyPem: fed.keys.publicKeyPem,
            inbox: `${id}/inbox`, sharedInbox: `${origin}/inbox`, followers: `${id}/followers`, keyId: `${id}#main-key`, manuallyApproves: false,
          }, now);
          receiveFollow(hub, channel, { hash: id, name }, { theirPerms: DEFAULT_CONNECTION_PERMS, followedBefore: false });
          putFedFollow(db, { channelId: channel.channel_id, actor: id, direction: 'in', activityId: `${id}/follows/${OWNER}`, accepted: true });
          if (n === 0) {
            connect(hub, channel, id);
            setFedFollowAccepted(db, channel.channel_id, id, 'out');
          }
        }
      });
    })();
    const set = setFederation(db, true, `http://127.0.0.1:${port}`);
    if (set.problem) throw new Error(set.problem);
  } finally {
    await hub.close();
  }
}

/** Federation on or off in a data directory whose hub is not running; the delivery queue emptied. */
function setFederationOffline(dataDir: string, on: boolean): void {
  const db = openDatabase(join(dataDir, 'hearth.db'));
  try {
    setFederation(db, on);
    db.prepare('DELETE FROM fed_queue').run();
  } finally {
    db.close();
  }
}

interface SignedRequest {
  headers: Record<string, string>;
  body: string;
}

/** Signed Creates of public Notes (draft-cavage, RSA), from the first actor of each host in turn. */
async function presignCreates(fed: Fediverse, hubUrl: string, count: number, tag: string): Promise<SignedRequest[]> {
  const der = createPrivateKey(fed.keys.privateKeyPem).export({ type: 'pkcs8', format: 'der' });
  const key = await webcrypto.subtle.importKey('pkcs8', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['sign']);
  const out: SignedRequest[] = [];
  for (let n = 0; n < count; n++) {
    const sender = fed.actorId(n % fed.origins.length, 0);
    const published = new Date().toISOString();
    const noteId = `${sender}/notes/${tag}-${n}`;
    const audience = { to: [PUBLIC], cc: [`${sender}/followers`] };
    const body = JSON.stringify({
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${noteId}/activity`, type: 'Create', actor: sender, published, ...audience,
      object: { id: noteId, type: 'Note', attributedTo: sender, content: `<p>Bench note ${n} from elsewhere, about the weather and #bench</p>`, published, ...audience },
    });
    const request = new Request(`${hubUrl}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' }, body });
    const signed = await signRequest(request, key, new URL(`${sender}#main-key`), { spec: 'draft-cavage-http-signatures-12' });
    out.push({ headers: Object.fromEntries(signed.headers), body });
  }
  return out;
}

/** POSTs the requests, `connections` at a time over kept-alive connections; statuses and latencies. */
async function send(hubUrl: string, requests: SignedRequest[], connections: number) {
  const url = new URL(`${hubUrl}/inbox`);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const statusCodes: Record<string, number> = {};
  const latencies: number[] = [];
  let next = 0;
  const one = (r: SignedRequest) =>
    new Promise<void>((resolve) => {
      const t = performance.now();
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) }, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          statusCodes[res.statusCode!] = (statusCodes[res.statusCode!] ?? 0) + 1;
          latencies.push(performance.now() - t);
          resolve();
        });
      });
      req.on('error', () => {
        statusCodes.error = (statusCodes.error ?? 0) + 1;
        resolve();
      });
      req.end(r.body);
    });
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (next < requests.length) await one(requests[next++]!);
  }));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => round1(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN);
  return { seconds, statusCodes, p50Ms: at(0.5), p99Ms: at(0.99) };
}

/** Items whose id (mid) carries the tag, read beside the running hub. */
function storedWith(dataDir: string, tag: string): () => number {
  const db = new Database(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  const count = db.prepare('SELECT count(*) AS n FROM item WHERE mid LIKE ?').pluck();
  const pattern = `%/notes/${tag}-%`;
  return () => {
    const n = count.get(pattern) as number;
    return n;
  };
}

/**
 * The shared inbox under `count` signed Creates from 100 followed actors on 100 hosts, sent by
 * `connections` clients: accepted per second (202s) and stored per second (the posts as items).
 * A first round, one Create per actor, warms the hub's key cache (as for actors one follows).
 */
async function inboxBench(hub: HubProcess, dataDir: string, fed: Fediverse, count: number, connections: number, log: (m: string) => void): Promise<InboxResult> {
  const warm = await presignCreates(fed, hub.url, fed.origins.length, 'warm');
  await send(hub.url, warm, connections);
  const t0 = performance.now();
  const requests = await presignCreates(fed, hub.url, count, 'run');
  const presignSeconds = (performance.now() - t0) / 1000;
  log(`  fed-inbox: ${count} Creates signed in ${presignSeconds.toFixed(1)} s`);
  const stored = storedWith(dataDir, 'run');
  const cpu0 = processCpuMs(hub.pid);
  const started = performance.now();
  const sent = await send(hub.url, requests, connections);
  let last = stored();
  let lastAt = performance.now();
  while (last < count && performance.now() - lastAt < 10_000) {
    await sleep(20);
    const n = stored();
    if (n !== last) {
      last = n;
      lastAt = performance.now();
    }
  }
  const storeSeconds = (lastAt - started) / 1000;
  const cpuMs = processCpuMs(hub.pid) - cpu0;
  const accepted = sent.statusCodes['202'] ?? 0;
  return {
    activities: count, connections, seconds: round1(sent.seconds), acceptedPerSec: round1(accepted / sent.seconds), storedPerSec: round1(last / storeSeconds), stored: last,
    statusCodes: sent.statusCodes, p50Ms: sent.p50Ms, p99Ms: sent.p99Ms, cpuMsPerActivity: round1(cpuMs / Math.max(1, last)), presignSeconds: round1(presignSeconds),
  };
}

async function postStatus(hubUrl: string, status: string): Promise<void> {
  const res = await fetch(`${hubUrl}/api/statuses/update.json`, {
    method: 'POST',
    headers: { authorization: basicAuth(OWNER, PASSWORD), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ status }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`posting answered ${res.status}`);
}

/** Waits until `count` activities each reached every host; the time the last of them arrived. */
async function allArrived(fed: Fediverse, count: number, timeoutMs: number): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const done = Object.values((await fed.stats()).activities).filter((a) => a.hosts >= fed.origins.length);
    if (done.length >= count) return Math.max(...done.map((a) => a.last));
    if (Date.now() > end) throw new Error(`fan-out: ${done.length} of ${count} posts reached every host within ${timeoutMs} ms`);
    await sleep(25);
  }
}

/** A public post of alice's to her 1,000 followers on 100 hosts; then `burst` posts at once. */
async function fanoutBench(hub: HubProcess, fed: Fediverse, burst: number): Promise<FanoutResult> {
  await fed.reset();
  await sleep(500);
  const before = round1(hub.rss());
  const sampler = new RssSampler(hub.pid);
  const t0 = Date.now();
  await postStatus(hub.url, 'One post to a thousand followers on a hundred servers');
  const oneSeconds = (await allArrived(fed, 1, 60_000)) - t0;
  const peakOne = sampler.stop().peakMB;
  const bursts: { peak: number; after: number; seconds: number; posts: number }[] = [];
  for (let round = 0; round < BURSTS; round++) {
    const burstSampler = new RssSampler(hub.pid);
    await fed.reset();
    const t1 = Date.now();
    for (let n = 0; n < burst; n++) await postStatus(hub.url, `Burst ${round} post ${n} to a thousand followers`);
    const seconds = ((await allArrived(fed, burst, 120_000)) - t1) / 1000;
    const posts = (await fed.stats()).posts;
    const peak = burstSampler.stop().peakMB;
    await sleep(2000);
    bursts.push({ peak, after: round1(hub.rss()), seconds, posts });
  }
  const burstSeconds = Math.min(...bursts.map((b) => b.seconds));
  const stats = { posts: bursts[0]!.posts };
  return {
    followers: fed.origins.length * fed.actorsPerHost,
    hosts: fed.origins.length,
    oneSeconds: round1(oneSeconds / 1000),
    burst,
    burstSeconds: round1(burstSeconds),
    deliveriesPerSec: round1((burst * fed.origins.length) / burstSeconds),
    postsPerActivity: round1(stats.posts / burst),
    rssMB: { before, peakOne, peak: Math.max(...bursts.map((b) => b.peak)), after: bursts.at(-1)!.after, bursts: bursts.map(({ peak, after }) => ({ peak, after })) },
  };
}

/**
 * statuses/update under load with federation off and on (1,000 remote followers), the hub started
 * anew for each run and the two taking turns; with federation on, each post's deliveries queue
 * behind the posts.
 */
async function postingBench(dataDir: string, port: number, entry: string, fed: Fediverse, load: LoadOptions, rounds: number, cpuProfDir?: string): Promise<{ result: FederatedPostingResult; errors: string }> {
  const spec = {
    method: 'POST' as const,
    path: '/api/statuses/update.json',
    headers: { authorization: basicAuth(OWNER, PASSWORD), 'content-type': 'application/x-www-form-urlencoded' },
    next: (n: number) => ({ body: new URLSearchParams({ status: `Status ${n} from a phone client under load #bench`, source: 'hearth-bench' }).toString() }),
  };
  const result: FederatedPostingResult = { followers: fed.origins.length * fed.actorsPerHost, off: [], on: [], deliveredDuring: [], queuedAfter: [] };
  let errors = '';
  for (let round = 0; round < rounds; round++) {
    for (const on of [false, true]) {
      setFederationOffline(dataDir, on);
      const hub = await startHubProcess(dataDir, { entry, port, env: INSECURE, cpuProfDir });
      try {
        await fed.reset();
        const r = await loadEndpoint(hub.url, spec, { ...load, cpuPid: hub.pid });
        (on ? result.on : result.off).push(r);
        if (on) {
          result.deliveredDuring.push((await fed.stats()).posts);
          const db = new Database(join(dataDir, 'hearth.db'), { readonly: true });
          result.queuedAfter.push(db.prepare('SELECT count(*) FROM fed_queue').pluck().get() as number);
          db.close();
        }
      } finally {
        await hub.stop();
        errors += hub.stderr();
      }
    }
  }
  return { result, errors };
}

export interface FederationBenchOptions {
  entry: string;
  inbox?: { activities: number; connections: number };
  fanout?: { burst: number };
  posting?: { load: LoadOptions; rounds: number };
  startFediverse: () => Promise<Fediverse>;
  log: (msg: string) => void;
  /** Write V8 CPU profiles of the hubs here. */
  cpuProfDir?: string;
}

export async function runFederationBenches(o: FederationBenchOptions): Promise<FederationResults> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-bench-fed-'));
  const fed = await o.startFediverse();
  const out: FederationResults = { hubErrors: '' };
  try {
    const port = await freePort();
    o.log(`Federation: seeding ${fed.origins.length * fed.actorsPerHost} remote followers on ${fed.origins.length} hosts…`);
    await seedFederation(dataDir, port, fed);
    if (o.inbox || o.fanout) {
      const hub = await startHubProcess(dataDir, { entry: o.entry, port, env: INSECURE, cpuProfDir: o.cpuProfDir });
      try {
        // The fan-out first: its memory figures start from a hub that has done nothing yet.
        if (o.fanout) {
          out.fanout = await fanoutBench(hub, fed, o.fanout.burst);
          const f = out.fanout;
          o.log(`  fed-fanout: one post to ${f.followers} followers on ${f.hosts} hosts in ${f.oneSeconds} s; ${f.burst} posts in ${f.burstSeconds} s at best of ${BURSTS} (${f.deliveriesPerSec} deliveries/s); RSS ${f.rssMB.before} MB idle, ${f.rssMB.peakOne} MB peak for one post; bursts: ${f.rssMB.bursts.map((b) => `peak ${b.peak}, after ${b.after}`).join('; ')} MB`);
        }
        if (o.inbox) {
          out.inbox = await inboxBench(hub, dataDir, fed, o.inbox.activities, o.inbox.connections, o.log);
          const i = out.inbox;
          o.log(`  fed-inbox: ${i.acceptedPerSec} accepted/s, ${i.storedPerSec} stored/s (${i.stored} of ${i.activities}), p99 ${i.p99Ms} ms, ${i.cpuMsPerActivity} ms CPU per activity, ${JSON.stringify(i.statusCodes)}`);
        }
      } finally {
        await hub.stop();
        out.hubErrors += hub.stderr();
      }
    }
    if (o.posting) {
      const { result, errors } = await postingBench(dataDir, port, o.entry, fed, o.posting.load, o.posting.rounds, o.cpuProfDir);
      out.posting = result;
      out.hubErrors += errors;
      const runs = (rs: LoadResult[]) => rs.map((r) => `${Math.round(r.rps)} (p99 ${r.p99Ms} ms, ${r.cpuMsPerAnswer?.toFixed(2)} ms CPU)`).join(', ');
      o.log(`  fed-posting: federation off ${runs(result.off)} posts/s; on ${runs(result.on)} posts/s; ${result.deliveredDuring.join(', ')} deliveries during, ${result.queuedAfter.join(', ')} queued after`);
    }
  } finally {
    await fed.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return out;
}

/** The federation sections of `npm run bench`, by the names --only takes. */
export const FEDERATION_SECTIONS = ['fed-fanout', 'fed-inbox', 'fed-posting'] as const;

export const FEDERATION_TARGETS = {
  /** Signed Creates accepted and stored per second (issue 32). */
  inboxPerSec: 300,
  /** One public post to 1,000 followers on 100 hosts, delivered (issue 32). */
  fanoutSeconds: 10,
  /** The hub's resident memory 2 s after the last burst of posts, at most this much above its memory after the first. */
  fanoutFlatMB: 16,
  /** Posting with federation on (1,000 remote followers) against off: the medians' ratio at least this. */
  postingOnOverOff: 0.9,
} as const;

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? Number.NaN;

export function federationTargets(r: FederationResults): TargetCheck[] {
  const t = FEDERATION_TARGETS;
  const out: TargetCheck[] = [];
  if (r.inbox) out.push({ target: `fed-inbox: ≥ ${t.inboxPerSec} signed Creates/s accepted and stored`, figure: `${r.inbox.storedPerSec}/s stored (${r.inbox.acceptedPerSec}/s accepted)`, holds: Math.min(r.inbox.storedPerSec, r.inbox.acceptedPerSec) >= t.inboxPerSec && r.inbox.stored === r.inbox.activities });
  if (r.fanout) {
    const f = r.fanout;
    out.push({ target: `fed-fanout: a post to ${f.followers} followers on ${f.hosts} hosts in < ${t.fanoutSeconds} s`, figure: `${f.oneSeconds} s`, holds: f.oneSeconds < t.fanoutSeconds });
    const first = f.rssMB.bursts[0]!.after;
    out.push({ target: `fed-fanout: memory flat (after the last burst ≤ after the first + ${t.fanoutFlatMB} MB)`, figure: `idle ${f.rssMB.before}, after bursts ${f.rssMB.bursts.map((b) => b.after).join(', ')} MB (peak ${f.rssMB.peak})`, holds: f.rssMB.after - first <= t.fanoutFlatMB });
  }
  if (r.posting?.on.length) {
    const on = medianOf(r.posting.on.map((x) => x.rps));
    const off = medianOf(r.posting.off.map((x) => x.rps));
    out.push({ target: `fed-posting: statuses/update with federation on ≥ ${t.postingOnOverOff * 100}% of off`, figure: `${Math.round(on)} vs ${Math.round(off)} posts/s = ${Math.round((on / off) * 100)}%`, holds: on / off >= t.postingOnOverOff });
  }
  return out;
}

/** How much each section does, by the bench's mode. */
export function federationSizes(mode: 'full' | 'quick' | 'tiny', load: LoadOptions) {
  return {
    hosts: mode === 'tiny' ? 10 : 100,
    actorsPerHost: 10,
    inbox: { activities: mode === 'full' ? 3000 : mode === 'quick' ? 1500 : 200, connections: 20 },
    fanout: { burst: mode === 'tiny' ? 2 : 10 },
    posting: { load: { ...load, seconds: Math.max(load.seconds, mode === 'tiny' ? 1 : 5) }, rounds: mode === 'full' ? 3 : mode === 'quick' ? 2 : 1 },
  };
}
