import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { FedifyPeer, type RawPost } from '../helpers/fedify-peer.js';
import { eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';
import type { HubOptions } from '../../server/hub.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A federating hub with channel alice, peers whose actors follow her, and her Mastodon client. */
async function setUp(cleanup: (() => Promise<void>)[], o: { options?: Partial<HubOptions>; peers?: number; actors?: string[] } = {}) {
  const t: TestHub = await startFederatingHub(['alice'], { options: o.options });
  cleanup.push(() => t.stop());
  const alice = `${t.url}/channel/alice`;
  const peers: FedifyPeer[] = [];
  for (let k = 0; k < (o.peers ?? 1); k++) {
    const peer = await FedifyPeer.start({ actors: o.actors ?? ['ap1'] });
    cleanup.push(() => peer.close());
    for (const name of o.actors ?? ['ap1']) {
      const follow = await peer.follow(name, alice);
      await peer.waitFor((r) => r.type === 'Accept' && JSON.stringify(r.json.object).includes(follow));
    }
    peers.push(peer);
  }
  const client = mastodonClient(t, 'alice');
  return { t, peers, post: (status: string) => client.post<{ uri: string }>('/api/v1/statuses', { status }) };
}

const createsOf = (peer: FedifyPeer, noteId: string): RawPost[] => peer.posts.filter((p) => p.type === 'Create' && p.id === `${noteId}#create`);
/**
 * Each try of a delivery, by its first POST: Fedify signs it one way and, when it is refused (any
 * status from 400), knocks again at once signed the other way (draft-cavage, RFC 9421).
 */
function triesOf(peer: FedifyPeer, noteId: string): RawPost[] {
  const posts = createsOf(peer, noteId);
  for (let k = 0; k + 1 < posts.length; k += 2) {
    assert.deepEqual([posts[k]!.signature, posts[k + 1]!.signature].sort(), ['draft-cavage', 'rfc9421'], 'a try knocks twice');
  }
  return posts.filter((_, k) => k % 2 === 0);
}
const queued = (t: TestHub) => (t.hub.db.prepare('SELECT count(*) AS n FROM fed_queue').get() as { n: number }).n;

describe('deliveries: per host, to shared inboxes, retried, given up', () => {
  const cleanup: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('each host gets at most perLane deliveries at once, and the hosts are served side by side', async () => {
    const { peers, post } = await setUp(cleanup, { options: { federationQueue: { workers: 16, perLane: 2 } }, peers: 2 });
    let together = 0;
    for (const peer of peers) {
      const check = peer.acceptSigned(['Create']);
      peer.maxInFlight = 0;
      peer.intercept = async (p) => {
        together = Math.max(together, peers[0]!.inFlight + peers[1]!.inFlight);
        if (p.type === 'Create') await sleep(100);
        return check(p);
      };
    }
    for (let n = 0; n < 12; n++) await post(`Slow delivery ${n}`);
    for (const peer of peers) await eventually('12 Creates', () => peer.posts.filter((p) => p.type === 'Create').length >= 12, 30_000);
    assert.deepEqual(peers.map((p) => p.maxInFlight), [2, 2], 'two at once at each host, never more');
    assert.ok(together > 2, `both hosts at once (${together} deliveries in flight at most)`);
  });

  it('a post to several followers on one server is delivered once, to its shared inbox', async () => {
    const { peers, post } = await setUp(cleanup, { actors: ['ap1', 'ap2', 'ap3', 'ap4', 'ap5'] });
    const peer = peers[0]!;
    const first = await post('One post, five followers on one server');
    const second = await post('And another one');
    // Deliveries to one host start in order: once the second post is there, the first is done.
    await eventually('the second post', () => createsOf(peer, second.uri).length > 0);
    const creates = createsOf(peer, first.uri);
    assert.deepEqual(creates.map((p) => p.path), ['/inbox']);
    await peer.waitFor((r) => r.type === 'Create' && r.id === `${first.uri}#create`);
  });

  it('a failed delivery is tried again, each wait longer, and given up after the last retry of the policy', async () => {
    const { t, peers, post } = await setUp(cleanup, { options: { federationDelivery: { retryInitialMs: 100, retryMaxMs: 60_000, maxRetries: 3 } } });
    const peer = peers[0]!;
    peer.intercept = (p) => (p.type === 'Create' ? 503 : undefined);
    const note = await post('Nobody will take this one');
    await eventually('four tries', () => triesOf(peer, note.uri).length >= 4, 10_000);
    await eventually('nothing left to try', () => queued(t) === 0, 10_000);
    const tries = triesOf(peer, note.uri);
    assert.equal(tries.length, 4, 'the first try and three retries');
    assert.ok(createsOf(peer, note.uri).every((p) => p.status === 503));
    const waits = tries.slice(1).map((p, k) => p.at - tries[k]!.at);
    // The policy's waits double from 100 ms (and add up to as much again at random).
    waits.forEach((w, k) => assert.ok(w >= 100 * 2 ** k - 5, `wait ${k + 1}: ${w} ms, at least ${100 * 2 ** k}`));
  });

  for (const status of [410, 404]) {
    it(`an inbox that answers ${status} is not tried again`, async () => {
      const { t, peers, post } = await setUp(cleanup, { options: { federationDelivery: { retryInitialMs: 50, retryMaxMs: 1000 } } });
      const peer = peers[0]!;
      peer.intercept = (p) => (p.type === 'Create' ? status : undefined);
      const note = await post(`Gone (${status})`);
      await eventually('one try', () => triesOf(peer, note.uri).length >= 1);
      await eventually('nothing left to try', () => queued(t) === 0);
      await sleep(300); // several retry waits of this policy
      assert.equal(triesOf(peer, note.uri).length, 1);
      assert.equal(createsOf(peer, note.uri).length, 2, 'one try, of two knocks');
    });
  }

  it('a server that failed again and again (its host left alone for a while) gets every delivery once it is back', async () => {
    const { peers, post } = await setUp(cleanup, { options: { federationDelivery: { retryInitialMs: 100, retryMaxMs: 400, hostRecoveryMs: 1000 } } });
    const peer = peers[0]!;
    const check = peer.acceptSigned(['Create']);
    // For its first 1.5 s the server fails every delivery: the hub leaves the host alone after five
    // failures, then probes it with one delivery each second while the others wait.
    let backAt = Infinity;
    peer.intercept = (p) => (p.type !== 'Create' ? undefined : Date.now() < backAt ? 503 : check(p));
    const notes: { uri: string }[] = [];
    for (let n = 0; n < 8; n++) notes.push(await post(`Through a bad patch ${n}`));
    backAt = Date.now() + 1500;
    await eventually('all eight delivered', () => notes.every((note) => createsOf(peer, note.uri).some((p) => p.status === 202)), 30_000);
    for (const note of notes) assert.equal(createsOf(peer, note.uri).filter((p) => p.status === 202).length, 1, 'each taken once');
  });
});
