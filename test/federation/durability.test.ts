import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { killHard, spawnFederatingHub, type ChildHub, type ChildHubConfig } from '../helpers/child-hub.js';
import { eventually } from '../helpers/federation.js';
import { basic } from '../helpers/hub.js';

const POSTS = 1000;

/** A port nothing listens on now (the hub must come back on the same one: its actor ids name it). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Messages waiting in the hub's delivery queue, read beside the running hub. */
function queued(dataDir: string): number {
  const db = new Database(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM fed_queue').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** POSTs `count` public statuses of `nick` through the compat API, `parallel` at a time. */
async function postMany(url: string, nick: string, count: number, parallel = 8): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const res = await fetch(`${url}/api/statuses/update.json`, {
        method: 'POST',
        headers: { authorization: basic(nick), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ status: `Post number ${n} while the other server is down` }),
      });
      await res.arrayBuffer();
      assert.equal(res.status, 200, `post ${n}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

/** How often each activity of `type` reached the peer's HTTP server. */
function arrivals(peer: FedifyPeer, type: string): Map<string, number> {
  const seen = new Map<string, number>();
  for (const p of peer.posts) if (p.type === type && p.id) seen.set(p.id, (seen.get(p.id) ?? 0) + 1);
  return seen;
}

/** A federating hub in its own process with channel alice, and ap1 of a peer following her. */
async function hubWithFollower(cleanup: (() => Promise<void>)[]) {
  const peer = await FedifyPeer.start({ actors: ['ap1'] });
  cleanup.push(() => peer.close());
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-durable-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
  const config: ChildHubConfig = {
    dataDir,
    port: await freePort(),
    channels: ['alice'],
    // Waits of a few seconds at most instead of 30 s and more (retries) and 30 min (a host that failed).
    options: { federationDelivery: { retryInitialMs: 200, retryMaxMs: 2000, hostRecoveryMs: 3000 } },
  };
  const state = { hub: await spawnFederatingHub(config) };
  cleanup.push(() => killHard(state.hub));
  const alice = `${state.hub.url}/channel/alice`;
  await peer.follow('ap1', alice);
  await peer.waitFor((r) => r.type === 'Accept' && r.actor === alice);
  return {
    peer,
    dataDir,
    get hub(): ChildHub {
      return state.hub;
    },
    async restart() {
      state.hub = await spawnFederatingHub(config);
    },
  };
}

describe('deliveries survive kill -9 of the hub', () => {
  const cleanup: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it(`${POSTS} posts made while the follower's server is down reach it, each exactly once, after kill -9 and a restart`, async () => {
    const t = await hubWithFollower(cleanup);
    const peer = t.peer;
    // From here the peer checks each Create's signature and counts it, no more (1,000 go through).
    peer.intercept = peer.acceptSigned(['Create']);

    await peer.goDown();
    await postMany(t.hub.url, 'alice', POSTS);
    // No grace: whatever the hub had not written down yet when the last post was answered is lost.
    await killHard(t.hub);
    assert.ok(queued(t.dataDir) > 0, 'deliveries wait in the queue');

    await t.restart();
    await peer.comeBack();
    await eventually(`${POSTS} Creates at the peer`, () => arrivals(peer, 'Create').size >= POSTS, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${arrivals(peer, 'Create').size} arrived`);
    });
    await eventually('an empty queue', () => queued(t.dataDir) === 0, 20_000);
    const creates = arrivals(peer, 'Create');
    const repeated = [...creates].filter(([, n]) => n > 1);
    assert.equal(creates.size, POSTS);
    assert.deepEqual(repeated, [], 'no Create arrived twice');
    assert.ok(peer.posts.every((p) => p.status === 202), `the peer took every delivery: ${JSON.stringify(peer.posts.filter((p) => p.status !== 202).slice(0, 3))}`);
  });

  it('killed while delivering: everything arrives, and only the deliveries in hand at the kill (at most 4, a host\'s lane) arrive twice', async () => {
    const t = await hubWithFollower(cleanup);
    const peer = t.peer;
    const posts = 200;
    const checkSignature = peer.acceptSigned(['Create']);
    // After the first 50, the peer holds every Create it gets (the hub waits for the answers) until
    // the hub has been killed; then it takes them, as a server does that never saw the client go.
    let letGo!: () => void;
    const released = new Promise<void>((resolve) => (letGo = resolve));
    const held = new Set<string>();
    let taken = 0;
    let holding = true;
    peer.intercept = async (p) => {
      if (p.type !== 'Create') return undefined;
      if (++taken > 50 && holding) {
        held.add(p.id!);
        await released;
      }
      return checkSignature(p);
    };
    await postMany(t.hub.url, 'alice', posts);
    await eventually('deliveries waiting for their answers', () => held.size === 4);
    await killHard(t.hub);
    holding = false;
    letGo();
    await eventually('the held deliveries counted', () => peer.inFlight === 0);
    assert.ok(arrivals(peer, 'Create').size < posts, 'killed while delivering');

    await t.restart();
    await eventually(`${posts} Creates at the peer`, () => arrivals(peer, 'Create').size >= posts, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}: ${arrivals(peer, 'Create').size} arrived`);
    });
    await eventually('an empty queue', () => queued(t.dataDir) === 0, 20_000);
    const repeated = [...arrivals(peer, 'Create')].filter(([, n]) => n > 1).map(([id]) => id);
    assert.deepEqual(repeated.sort(), [...held].sort(), 'the deliveries in hand at the kill, and only they, came twice');
  });
});
