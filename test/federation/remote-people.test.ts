import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type Account = { id: string; username: string; acct: string; url: string; avatar: string; display_name: string };
type Relationship = { id: string; following: boolean; followed_by: boolean; requested: boolean };
type Status = { id: string; content: string; account: Account };
type User = { id: number; id_str: string; screen_name: string; name: string; following: boolean };

/** People on another server as every API of the hub shows them, and following them from each API. */
describe('people elsewhere in the Mastodon, microblog and native APIs', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  let ap1: Account;

  before(async () => {
    t = await startFederatingHub(['alice']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2', 'ap3', 'ap4'], sharedInbox: false });
    alice = mastodonClient(t, 'alice');
    // ap1 and alice follow each other; ap1 has written a post.
    await peer.follow('ap1', aliceId());
    await peer.waitFor((r) => r.type === 'Accept' && r.inbox === 'ap1');
    const found = await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address('ap1'))}&resolve=true&type=accounts`);
    ap1 = found.accounts[0]!;
    await alice.post(`/api/v1/accounts/${ap1.id}/follow`);
    await eventually('alice follows ap1', () => peer.followersOf('ap1').includes(aliceId()));
    await peer.post('ap1', { content: '<p>A post from elsewhere</p>' });
    await eventually('the post in home', async () => (await alice.get<Status[]>('/api/v1/timelines/home')).some((s) => s.content.includes('A post from elsewhere')));
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  const compat = async <T>(path: string, init: { method?: string; form?: Record<string, string> } = {}) => {
    const r = await t.request(path, { as: 'alice', method: init.method ?? (init.form ? 'POST' : 'GET'), body: init.form ? new URLSearchParams(init.form) : undefined });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : undefined) as T, text };
  };

  describe('Mastodon API', () => {
    it('an account elsewhere: acct user@host, its url and avatar; accounts/lookup finds it by acct', async () => {
      const account = await alice.get<Account>(`/api/v1/accounts/${ap1.id}`);
      assert.equal(account.acct, peer.address('ap1'));
      assert.equal(account.username, 'ap1');
      assert.equal(account.url, peer.actorUri('ap1'));
      // The hub serves its own copy of a remote avatar (or the default one), never the remote URL.
      assert.ok(account.avatar.startsWith(`${t.url}/photo/remote/l/`), account.avatar);
      assert.equal(account.display_name, 'Peer ap1');
      const looked = await alice.get<Account>(`/api/v1/accounts/lookup?acct=${encodeURIComponent(peer.address('ap1'))}`);
      assert.equal(looked.id, ap1.id);
      const anonymous = await fetch(`${t.url}/api/v1/accounts/lookup?acct=${encodeURIComponent(`@${peer.address('ap1')}`)}`);
      assert.equal(anonymous.status, 200);
      assert.equal((await alice.raw(`/api/v1/accounts/lookup?acct=${encodeURIComponent(peer.address('nobody'))}`)).status, 404);
    });

    it('relationships, its statuses and the context of its post', async () => {
      const [rel] = await alice.get<Relationship[]>(`/api/v1/accounts/relationships?id[]=${ap1.id}`);
      assert.equal(rel!.following, true);
      assert.equal(rel!.followed_by, true);
      const statuses = await alice.get<Status[]>(`/api/v1/accounts/${ap1.id}/statuses`);
      const post = statuses.find((s) => s.content.includes('A post from elsewhere'));
      assert.ok(post, "ap1's post among its statuses");
      assert.equal(post.account.acct, peer.address('ap1'));
      const context = await alice.get<{ ancestors: Status[]; descendants: Status[] }>(`/api/v1/statuses/${post.id}/context`);
      assert.deepEqual(context, { ancestors: [], descendants: [] });
    });
  });

  describe('microblog API', () => {
    it('users/show by screen_name user@host and by id', async () => {
      const byName = await compat<User>(`/api/users/show.json?screen_name=${encodeURIComponent(peer.address('ap1'))}`);
      assert.equal(byName.status, 200, byName.text);
      assert.equal(byName.body.screen_name, peer.address('ap1'));
      assert.equal(byName.body.id_str, ap1.id);
      assert.equal(byName.body.following, true);
      const byId = await compat<User>(`/api/users/show.json?user_id=${ap1.id}`);
      assert.equal(byId.body.screen_name, peer.address('ap1'));
      const anonymous = await fetch(`${t.url}/api/users/show.json?screen_name=${encodeURIComponent(peer.address('ap1'))}`);
      assert.equal(anonymous.status, 200);
    });

    it('friendships/show with someone elsewhere', async () => {
      const r = await compat<{ relationship: { source: { following: boolean; followed_by: boolean }; target: { screen_name: string } } }>(
        `/api/friendships/show.json?target_screen_name=${encodeURIComponent(peer.address('ap1'))}`,
      );
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.relationship.source.following, true);
      assert.equal(r.body.relationship.source.followed_by, true);
      assert.equal(r.body.relationship.target.screen_name, peer.address('ap1'));
    });

    it('friendships/create follows someone elsewhere the hub has never seen (a Follow to their server), friendships/destroy unfollows', async () => {
      const created = await compat<User>('/api/friendships/create.json', { form: { screen_name: peer.address('ap2') } });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.body.screen_name, peer.address('ap2'));
      await peer.waitFor((r) => r.type === 'Follow' && r.inbox === 'ap2' && r.actor === aliceId());
      await eventually('the follow accepted', async () => (await compat<User>(`/api/users/show.json?screen_name=${encodeURIComponent(peer.address('ap2'))}`)).body.following);
      assert.deepEqual(peer.followersOf('ap2'), [aliceId()]);
      const destroyed = await compat<User>('/api/friendships/destroy.json', { form: { screen_name: peer.address('ap2') } });
      assert.equal(destroyed.status, 200, destroyed.text);
      await peer.waitFor((r) => r.type === 'Undo' && r.inbox === 'ap2');
      await eventually('alice no longer follows ap2 there', () => peer.followersOf('ap2').length === 0);
      const missing = await compat('/api/friendships/create.json', { form: { screen_name: peer.address('nobody') } });
      assert.equal(missing.status, 404, 'nobody there: 404');
    });
  });

  describe('native API', () => {
    it('xchan?address=user@host finds someone elsewhere through the federation when unknown', async () => {
      const r = await t.request(`/api/z/1.0/xchan?address=${encodeURIComponent(peer.address('ap3'))}`, { as: 'alice' });
      assert.equal(r.status, 200, await r.clone().text());
      // The portable xchan (the seed's §2.6): keys without the xchan_ prefix, the address as `address`.
      const x = (await r.json()) as { hash: string; address: string; network: string; url: string; name: string };
      assert.equal(x.hash, peer.actorUri('ap3'));
      assert.equal(x.address, peer.address('ap3'));
      assert.equal(x.network, 'activitypub');
      assert.equal(x.name, 'Peer ap3');
      const again = await t.request(`/api/z/1.0/xchan?hash=${encodeURIComponent(peer.actorUri('ap3'))}`, { as: 'alice' });
      assert.equal(again.status, 200, 'known since');
      const nobody = await t.request(`/api/z/1.0/xchan?address=${encodeURIComponent(peer.address('nobody'))}`, { as: 'alice' });
      assert.equal(nobody.status, 404);
    });

    it('abook lists connections elsewhere with their network', async () => {
      const r = await t.request('/api/z/1.0/abook', { as: 'alice' });
      const rows = (await r.json()) as { xchan_hash: string; xchan_network: string; xchan_addr: string; abook_self: string }[];
      const remote = rows.find((row) => row.xchan_hash === peer.actorUri('ap1'));
      assert.ok(remote, JSON.stringify(rows.map((row) => row.xchan_hash)));
      assert.equal(remote.xchan_network, 'activitypub');
      assert.equal(remote.xchan_addr, peer.address('ap1'));
    });
  });
});
