import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type Account = { id: string; acct: string; display_name: string; note: string };
type Status = { id: string; content: string; account: Account; favourites_count: number };
type Relationship = { id: string; following: boolean; requested: boolean; followed_by: boolean };

describe('remote actors are remembered, refreshed when they change, and forgotten when their account is deleted', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  const accounts: Record<string, Account> = {};

  before(async () => {
    t = await startFederatingHub(['alice']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2', 'ap3', 'ap4', 'ap5'] });
    alice = mastodonClient(t, 'alice');
    // ap1, ap2 and ap5 follow alice and alice follows them back; ap3 and ap4 leave her follow unanswered.
    peer.ignoreFollowsFor.add('ap3');
    peer.ignoreFollowsFor.add('ap4');
    for (const name of ['ap1', 'ap2', 'ap3', 'ap4', 'ap5']) {
      if (!peer.ignoreFollowsFor.has(name)) {
        const follow = await peer.follow(name, aliceId());
        await peer.waitFor((r) => r.type === 'Accept' && r.actor === aliceId() && JSON.stringify(r.json.object).includes(follow));
      }
      const found = await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address(name))}&resolve=true&type=accounts`);
      accounts[name] = found.accounts.find((a) => a.acct === peer.address(name))!;
      assert.ok(accounts[name], name);
      await alice.post(`/api/v1/accounts/${accounts[name].id}/follow`);
      if (!peer.ignoreFollowsFor.has(name)) await eventually(`alice follows ${name}`, () => peer.followersOf(name).includes(aliceId()));
    }
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  const account = (name: string) => alice.get<Account>(`/api/v1/accounts/${accounts[name]!.id}`);
  /** Alice's relationship to an account; none (all false) for an account that is gone. */
  const relationship = async (name: string): Promise<Relationship> =>
    (await alice.get<Relationship[]>(`/api/v1/accounts/relationships?id[]=${accounts[name]!.id}`))[0] ?? { id: accounts[name]!.id, following: false, requested: false, followed_by: false };
  const home = () => alice.get<Status[]>('/api/v1/timelines/home');
  const inHome = (text: string) => eventually(`"${text}" in alice's home`, async () => (await home()).find((s) => s.content.includes(text)));

  it('an actor seen again within a day is taken as remembered; seen after a day, it is fetched again', async () => {
    assert.equal((await account('ap1')).display_name, 'Peer ap1');
    peer.setProfile('ap1', { displayName: 'Ap One, renamed quietly' });
    await peer.post('ap1', { content: '<p>First post after the rename</p>' });
    await inHome('First post after the rename');
    assert.equal((await account('ap1')).display_name, 'Peer ap1', 'not fetched again within a day');
    // A day later (the record's fetch time moved back a day and a minute).
    t.hub.db.prepare('UPDATE fed_actor SET fetched = fetched - ? WHERE xchan_hash = ?').run(24 * 3600_000 + 60_000, peer.actorUri('ap1'));
    await peer.post('ap1', { content: '<p>Second post, a day later</p>' });
    await inHome('Second post, a day later');
    assert.equal((await account('ap1')).display_name, 'Ap One, renamed quietly');
  });

  it('Update(Person) from the actor itself changes what the hub shows of it at once', async () => {
    peer.setProfile('ap2', { displayName: 'Ap Two, renamed', summary: 'A new bio' });
    await peer.sendProfileUpdate('ap2', [aliceId()]);
    await eventually('the new name', async () => (await account('ap2')).display_name === 'Ap Two, renamed');
  });

  it("Update(Person) of someone else's account is ignored", async () => {
    const forged = await peer.signedPost(`${aliceId()}/inbox`, {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${peer.actorUri('ap5')}/activities/forged-update`,
      type: 'Update',
      actor: peer.actorUri('ap5'),
      object: { id: peer.actorUri('ap2'), type: 'Person', name: 'Forged by ap5', preferredUsername: 'ap2', inbox: `${peer.actorUri('ap2')}/inbox` },
    }, { as: 'ap5' });
    assert.equal(forged.status, 202);
    // ap5's own rename, sent after the forgery, shows that the hub has handled what came before.
    peer.setProfile('ap5', { displayName: 'Ap Five, renamed' });
    await peer.sendProfileUpdate('ap5', [aliceId()]);
    await eventually("ap5's own rename", async () => (await account('ap5')).display_name === 'Ap Five, renamed');
    await sleep(200);
    assert.equal((await account('ap2')).display_name, 'Ap Two, renamed');
  });

  it('Delete(Person): the follows end both ways and what the account wrote, liked or shared goes, as on Mastodon', async () => {
    await peer.post('ap1', { content: '<p>A post of ap1 that goes with the account</p>' });
    const theirs = await inHome('A post of ap1 that goes with the account');
    const mine = await alice.post<{ id: string; uri: string }>('/api/v1/statuses', { status: 'Tea at five?' });
    await peer.waitFor((r) => r.type === 'Create' && String((r.json.object as { content?: string }).content).includes('Tea at five'));
    await peer.post('ap1', { content: '<p>A reply of ap1</p>', inReplyTo: mine.uri, mentions: [aliceId()] });
    await peer.like('ap1', mine.uri, aliceId());
    await eventually('the reply and the like arrived', async () => {
      const c = await alice.get<{ descendants: Status[] }>(`/api/v1/statuses/${mine.id}/context`);
      const s = await alice.get<Status>(`/api/v1/statuses/${mine.id}`);
      return c.descendants.length === 1 && s.favourites_count === 1;
    });
    assert.deepEqual(await relationship('ap1').then((r) => [r.following, r.followed_by]), [true, true]);

    await peer.deleteActor('ap1', [aliceId()]);

    await eventually('the follows ended', async () => {
      const r = await relationship('ap1');
      return !r.following && !r.followed_by && !r.requested;
    });
    assert.equal((await alice.raw(`/api/v1/accounts/${accounts.ap1!.id}`)).status, 404, 'the account is gone');
    assert.equal((await alice.raw(`/api/v1/statuses/${theirs.id}`)).status, 404);
    assert.ok(!(await home()).some((s) => s.account.acct === peer.address('ap1')));
    const context = await alice.get<{ descendants: Status[] }>(`/api/v1/statuses/${mine.id}/context`);
    assert.deepEqual(context.descendants, []);
    assert.equal((await alice.get<Status>(`/api/v1/statuses/${mine.id}`)).favourites_count, 0);
    const me = await alice.get<Account>('/api/v1/accounts/verify_credentials');
    const followers = await alice.get<Account[]>(`/api/v1/accounts/${me.id}/followers`);
    assert.ok(!followers.some((a) => a.acct === peer.address('ap1')));
    // Her posts no longer go to the deleted account.
    const read = async (url: string) => (await (await fetch(url, { headers: { accept: 'application/activity+json' } })).json()) as { first?: string; orderedItems?: string[] };
    const collection = await read(`${aliceId()}/followers`);
    assert.ok(collection.first, 'the followers are on pages');
    const firstPage = await read(collection.first);
    assert.ok(Array.isArray(firstPage.orderedItems), JSON.stringify(firstPage));
    assert.ok(!firstPage.orderedItems.includes(peer.actorUri('ap1')));
  });

  it('Delete(Person) whose key went with the account (never seen before): taken when the account answers 410 Gone', async () => {
    assert.equal((await relationship('ap3')).requested, true);
    await peer.deleteActor('ap3', [aliceId()]);
    await eventually("alice's request to a deleted account ended", async () => !(await relationship('ap3')).requested);
  });

  it('an unsigned Delete(Person) of an account that still exists changes nothing', async () => {
    const r = await peer.signedPost(`${aliceId()}/inbox`, {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${peer.actorUri('ap4')}/activities/unsigned-delete`,
      type: 'Delete',
      actor: peer.actorUri('ap4'),
      object: peer.actorUri('ap4'),
    });
    assert.equal(r.status, 401);
    await sleep(200);
    assert.equal((await relationship('ap4')).requested, true);
  });
});
