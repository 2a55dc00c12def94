import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type Account = { id: string; acct: string; locked: boolean; followers_count: number };
type Relationship = { id: string; following: boolean; requested: boolean; followed_by: boolean; requested_by: boolean };

describe('follows between a Hearth channel and an independent ActivityPub server, both ways', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  let bob: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  let ap1Follow = '';
  before(async () => {
    t = await startFederatingHub(['alice', 'bob']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2', 'ap3'] });
    alice = mastodonClient(t, 'alice');
    bob = mastodonClient(t, 'bob');
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  const remoteAccount = async (client: ReturnType<typeof mastodonClient>, name: string) => {
    const found = await client.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address(name))}&resolve=true&type=accounts`);
    const account = found.accounts.find((a) => a.acct === peer.address(name));
    assert.ok(account, `search?resolve=true finds ${peer.address(name)}: ${JSON.stringify(found.accounts)}`);
    return account;
  };
  const relationship = async (client: ReturnType<typeof mastodonClient>, id: string) => (await client.get<Relationship[]>(`/api/v1/accounts/relationships?id[]=${id}`))[0]!;

  it('a remote actor follows alice: accepted at once, she is told, and it is among her followers in every view', async () => {
    ap1Follow = await peer.follow('ap1', aliceId());
    const accept = await peer.waitFor((r) => r.type === 'Accept' && r.actor === aliceId());
    assert.equal((accept.json.object as { id?: string })?.id ?? accept.json.object, ap1Follow);
    const me = await alice.get<Account>('/api/v1/accounts/verify_credentials');
    const followers = await eventually('ap1 among the followers', async () => {
      const list = await alice.get<Account[]>(`/api/v1/accounts/${me.id}/followers`);
      return list.find((a) => a.acct === peer.address('ap1')) ? list : undefined;
    });
    assert.equal(followers.length, 1);
    const notes = await alice.get<{ type: string; account: Account }[]>('/api/v1/notifications');
    assert.ok(notes.some((n) => n.type === 'follow' && n.account.acct === peer.address('ap1')), JSON.stringify(notes.map((n) => n.type)));
    const ap1 = await remoteAccount(alice, 'ap1');
    const rel = await relationship(alice, ap1.id);
    assert.equal(rel.followed_by, true);
    assert.equal(rel.following, false);
    const collection = (await (await fetch(`${aliceId()}/followers`, { headers: { accept: 'application/activity+json' } })).json()) as { totalItems: number };
    assert.equal(collection.totalItems, 1);
  });

  it('alice follows a remote actor found by address: a request until its server accepts, then a follow', async () => {
    const ap2 = await remoteAccount(alice, 'ap2');
    const rel = await alice.post<Relationship>(`/api/v1/accounts/${ap2.id}/follow`);
    assert.equal(rel.following || rel.requested, true);
    await peer.waitFor((r) => r.type === 'Follow' && r.actor === aliceId() && r.json.object === peer.actorUri('ap2'));
    await eventually('the follow accepted', async () => (await relationship(alice, ap2.id)).following);
    assert.deepEqual(peer.followersOf('ap2'), [aliceId()]);
  });

  it('a follow the remote server rejects ends: no follow, no request', async () => {
    peer.rejectFollowsFor.add('ap3');
    const ap3 = await remoteAccount(alice, 'ap3');
    const rel = await alice.post<Relationship>(`/api/v1/accounts/${ap3.id}/follow`);
    assert.equal(rel.requested, true, 'waits for the server');
    await peer.waitFor((r) => r.type === 'Follow' && r.json.object === peer.actorUri('ap3'));
    await eventually('the rejection taken', async () => {
      const r = await relationship(alice, ap3.id);
      return !r.following && !r.requested;
    });
  });

  it('alice unfollows: the remote server gets the Undo and drops her', async () => {
    const ap2 = await remoteAccount(alice, 'ap2');
    await alice.post(`/api/v1/accounts/${ap2.id}/unfollow`);
    await peer.waitFor((r) => r.type === 'Undo' && r.actor === aliceId());
    await eventually('alice gone from the followers there', () => peer.followersOf('ap2').length === 0);
    assert.equal((await relationship(alice, ap2.id)).following, false);
  });

  it('the remote actor unfollows: alice loses the follower', async () => {
    const me = await alice.get<Account>('/api/v1/accounts/verify_credentials');
    await peer.unfollow('ap1', aliceId(), ap1Follow);
    await eventually('ap1 no longer a follower', async () => (await alice.get<Account[]>(`/api/v1/accounts/${me.id}/followers`)).length === 0);
  });

  it('bob approves followers by hand: a remote follow waits as a request, and authorize sends the Accept', async () => {
    await bob.post('/api/v1/accounts/update_credentials', { locked: true });
    const person = await peer.lookupActor(`${t.url}/channel/bob`);
    assert.equal(person.manuallyApprovesFollowers, true);
    await peer.follow('ap1', `${t.url}/channel/bob`);
    const requests = await eventually('the request listed', async () => {
      const list = await bob.get<Account[]>('/api/v1/follow_requests');
      return list.length ? list : undefined;
    });
    assert.equal(requests[0]!.acct, peer.address('ap1'));
    assert.equal(peer.received.some((r) => r.type === 'Accept' && r.actor === `${t.url}/channel/bob`), false, 'no Accept before bob answers');
    await bob.post(`/api/v1/follow_requests/${requests[0]!.id}/authorize`);
    await peer.waitFor((r) => r.type === 'Accept' && r.actor === `${t.url}/channel/bob`);
    assert.equal((await relationship(bob, requests[0]!.id)).followed_by, true);
  });
});
