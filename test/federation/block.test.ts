import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer, type Received } from '../helpers/fedify-peer.js';
import { deliveriesSettled, eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type Account = { id: string; acct: string };
type Relationship = { following: boolean; requested: boolean; followed_by: boolean; blocking: boolean };

/**
 * alice blocks someone elsewhere (ap1) who follows her and whom she follows: their server gets
 * Block, signed, and the follows end both ways (Undo of her Follow, Reject of theirs), as Mastodon
 * does; her later posts reach her other follower (ap2) and not ap1; unblocking sends Undo(Block).
 * The peer has no shared inbox, so that each delivery shows whom it was for.
 */
describe('a channel blocks someone elsewhere', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  let ap1: Account;
  let ap1Follow = '';
  let blockId = '';
  const aliceId = () => `${t.url}/channel/alice`;
  const fromAlice = (type: string, inbox = 'ap1') => (r: Received) => r.type === type && r.actor === aliceId() && r.inbox === inbox;
  const relationship = async () => (await alice.get<Relationship[]>(`/api/v1/accounts/relationships?id[]=${ap1.id}`))[0]!;

  before(async () => {
    t = await startFederatingHub(['alice']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2'], sharedInbox: false });
    alice = mastodonClient(t, 'alice');
    for (const name of ['ap1', 'ap2']) {
      const id = await peer.follow(name, aliceId());
      if (name === 'ap1') ap1Follow = id;
      await peer.waitFor((r) => fromAlice('Accept', name)(r));
    }
    const found = await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address('ap1'))}&resolve=true&type=accounts`);
    ap1 = found.accounts[0]!;
    await alice.post(`/api/v1/accounts/${ap1.id}/follow`);
    await eventually('alice follows ap1', async () => (await relationship()).following);
    assert.deepEqual(peer.followersOf('ap1'), [aliceId()]);
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  it('their server gets Block, signed; neither follows the other any more, here and there', async () => {
    const rel = await alice.post<Relationship>(`/api/v1/accounts/${ap1.id}/block`);
    assert.equal(rel.blocking, true);
    const block = await peer.waitFor(fromAlice('Block'));
    assert.equal(block.json.object, peer.actorUri('ap1'));
    blockId = block.id!;
    const post = peer.posts.find((p) => p.id === blockId && p.status < 300);
    assert.ok(post && post.signature !== 'none', 'delivered signed');
    // Her follow of ap1 is undone; ap1's follow of her is rejected.
    const undo = await peer.waitFor(fromAlice('Undo'));
    assert.equal((undo.json.object as { type?: string }).type, 'Follow');
    await eventually('alice gone from ap1 followers', () => peer.followersOf('ap1').length === 0);
    const reject = await peer.waitFor(fromAlice('Reject'));
    const rejected = reject.json.object as { id?: string } | string;
    assert.equal(typeof rejected === 'string' ? rejected : rejected.id, ap1Follow);
    const after = await relationship();
    assert.deepEqual({ following: after.following, requested: after.requested, followed_by: after.followed_by, blocking: after.blocking }, { following: false, requested: false, followed_by: false, blocking: true });
    const me = await alice.get<Account>('/api/v1/accounts/verify_credentials');
    const followers = await alice.get<Account[]>(`/api/v1/accounts/${me.id}/followers`);
    assert.deepEqual(followers.map((a) => a.acct), [peer.address('ap2')]);
  });

  it('her later public posts reach her other follower there, and not the blocked actor', async () => {
    const s = await alice.post<{ uri: string }>('/api/v1/statuses', { status: 'After the block', visibility: 'public' });
    await peer.waitFor((r) => fromAlice('Create', 'ap2')(r) && (r.json.object as { id?: string }).id === s.uri);
    await deliveriesSettled(t);
    assert.ok(!peer.received.some((r) => r.inbox === 'ap1' && r.type === 'Create'), 'nothing of it in ap1 inbox');
  });

  it('unblocking sends Undo of that Block; following again is up to each side', async () => {
    const rel = await alice.post<Relationship>(`/api/v1/accounts/${ap1.id}/unblock`);
    assert.equal(rel.blocking, false);
    const undo = await peer.waitFor((r) => fromAlice('Undo')(r) && (r.json.object as { type?: string }).type === 'Block');
    assert.equal((undo.json.object as { id?: string }).id, blockId);
    assert.equal((await relationship()).following, false);
    // Blocking twice or unblocking twice sends nothing more.
    await alice.post(`/api/v1/accounts/${ap1.id}/unblock`);
    await deliveriesSettled(t);
    assert.equal(peer.received.filter((r) => r.type === 'Undo' && (r.json.object as { type?: string }).type === 'Block').length, 1);
  });
});
