import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer, type Received } from '../helpers/fedify-peer.js';
import { deliveriesSettled, eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type Account = { id: string; acct: string };
type Status = { id: string; content: string; visibility: string; uri: string; account: Account };

/**
 * Who gets a post that is not public, both ways: followers-only posts and posts for a privacy
 * group. The independent server's actors have no shared inbox here, so each delivery shows whom it
 * was for.
 */
describe('followers-only and privacy-group posts between Hearth and an independent server', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  let bob: ReturnType<typeof mastodonClient>;
  let carol: ReturnType<typeof mastodonClient>;
  const actor = (nick: string) => `${t.url}/channel/${nick}`;
  const accounts: Record<string, Account> = {};

  const remoteAccount = async (client: ReturnType<typeof mastodonClient>, name: string) => {
    const found = await client.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address(name))}&resolve=true&type=accounts`);
    const account = found.accounts.find((a) => a.acct === peer.address(name));
    assert.ok(account, `${name} found`);
    return account;
  };

  before(async () => {
    t = await startFederatingHub(['alice', 'bob', 'carol']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2', 'ap3'], sharedInbox: false });
    alice = mastodonClient(t, 'alice');
    bob = mastodonClient(t, 'bob');
    carol = mastodonClient(t, 'carol');
    // ap1 and ap2 follow alice; alice follows ap1 and ap3 (who does not follow her); carol follows ap1.
    for (const name of ['ap1', 'ap2']) {
      await peer.follow(name, actor('alice'));
      await eventually(`${name} follows alice`, () => peer.received.some((r) => r.type === 'Accept' && r.inbox === name));
    }
    for (const name of ['ap1', 'ap3']) {
      accounts[name] = await remoteAccount(alice, name);
      await alice.post(`/api/v1/accounts/${accounts[name]!.id}/follow`);
      await eventually(`alice follows ${name}`, () => peer.followersOf(name).includes(actor('alice')));
    }
    accounts.ap2 = await remoteAccount(alice, 'ap2');
    await carol.post(`/api/v1/accounts/${(await remoteAccount(carol, 'ap1')).id}/follow`);
    await eventually('carol follows ap1', () => peer.followersOf('ap1').includes(actor('carol')));
    await deliveriesSettled(t);
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  const creates = (text: string) => peer.received.filter((r) => r.type === 'Create' && String((r.json.object as { content?: string }).content).includes(text));
  const note = (r: Received) => r.json.object as { to?: unknown; cc?: unknown; id: string };
  const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
  /** Waits for the first delivery of a post, then for the rest; answers the inboxes it reached. */
  const deliveredTo = async (text: string) => {
    await peer.waitFor((r) => r.type === 'Create' && String((r.json.object as { content?: string }).content).includes(text));
    await deliveriesSettled(t);
    return creates(text).map((r) => r.inbox).sort();
  };

  describe('followers-only', () => {
    it("alice's private post reaches her followers elsewhere, addressed to her followers collection, and nobody else", async () => {
      await alice.post('/api/v1/statuses', { status: 'Only for my followers', visibility: 'private' });
      assert.deepEqual(await deliveredTo('Only for my followers'), ['ap1', 'ap2'], 'ap3, whom alice follows, is no follower of hers');
      for (const r of creates('Only for my followers')) {
        assert.deepEqual(list(note(r).to), [`${actor('alice')}/followers`]);
        assert.ok(![...list(note(r).to), ...list(note(r).cc), ...list(r.json.to), ...list(r.json.cc)].includes('as:Public'), 'never public');
      }
      const id = note(creates('Only for my followers')[0]!).id;
      assert.equal((await fetch(id, { headers: { accept: 'application/activity+json' } })).status, 401, 'the Note is not served to anonymous fetches');
      assert.equal((await peer.signedGet(id, { as: 'ap2' })).status, 200, 'a follower fetches it signed');
    });

    it("ap1's followers-only post is seen by the channels following ap1, in every view, and by nobody else", async () => {
      await peer.post('ap1', { content: '<p>Followers of ap1 only</p>', audience: 'followers' });
      const home = (client: ReturnType<typeof mastodonClient>) => client.get<Status[]>('/api/v1/timelines/home');
      const mine = await eventually("in alice's home", async () => (await home(alice)).find((s) => s.content.includes('Followers of ap1 only')));
      assert.equal(mine.visibility, 'private');
      assert.ok((await home(carol)).some((s) => s.id === mine.id), "in carol's home: she follows ap1 too");
      assert.equal((await carol.raw(`/api/v1/statuses/${mine.id}`)).status, 200);
      // The native API's network stream of both followers, and of nobody else.
      const stream = async (nick: string) => {
        const r = await t.request('/api/z/1.0/network/stream', { as: nick });
        assert.equal(r.status, 200);
        return ((await r.json()) as { body: string }[]).some((i) => i.body.includes('Followers of ap1 only'));
      };
      assert.equal(await stream('alice'), true, "alice's network stream");
      assert.equal(await stream('carol'), true, "carol's network stream");
      assert.equal(await stream('bob'), false, "bob's network stream");
      // bob, who does not follow ap1, anonymous visitors and the public timelines never see it.
      assert.equal((await bob.raw(`/api/v1/statuses/${mine.id}`)).status, 404);
      assert.ok(!(await home(bob)).some((s) => s.id === mine.id));
      assert.equal((await fetch(`${t.url}/api/v1/statuses/${mine.id}`)).status, 404);
      for (const path of ['/api/v1/timelines/public', '/api/v1/timelines/public?remote=true']) {
        assert.ok(!(await alice.get<Status[]>(path)).some((s) => s.id === mine.id), path);
        assert.ok(!((await (await fetch(`${t.url}${path}`)).json()) as Status[]).some((s) => s.id === mine.id), `${path}, anonymous`);
      }
      const compat = await t.request(`/api/statuses/show/${mine.id}.json`, { as: 'bob' });
      assert.equal(compat.status, 404, 'the microblog API hides it from bob too');
    });
  });

  describe('privacy groups with remote members', () => {
    const assertOnlyFor = async (text: string, who: string) => {
      assert.deepEqual(await deliveredTo(text), [who], `only ${who} gets "${text}"`);
      const n = note(creates(text)[0]!);
      assert.deepEqual(list(n.to), [peer.actorUri(who)], 'addressed to the member by name');
      assert.deepEqual(list(n.cc), []);
    };

    it('a Mastodon list with a remote member: the native API posts to it, only the member gets it', async () => {
      const lst = await alice.post<{ id: string }>('/api/v1/lists', { title: 'Close friends' });
      await alice.post(`/api/v1/lists/${lst.id}/accounts`, { account_ids: [accounts.ap1!.id] });
      const members = await alice.get<Account[]>(`/api/v1/lists/${lst.id}/accounts`);
      assert.deepEqual(members.map((m) => m.acct), [peer.address('ap1')]);
      const groups = (await (await t.request('/api/z/1.0/group', { as: 'alice' })).json()) as { id: string; hash: string; gname: string }[];
      const group = groups.find((g) => g.gname === 'Close friends')!;
      const nativeMembers = (await (await t.request(`/api/z/1.0/group_members?group_id=${group.id}`, { as: 'alice' })).json()) as { xchan_hash: string; xchan_network: string }[];
      assert.deepEqual(nativeMembers.map((m) => [m.xchan_hash, m.xchan_network]), [[peer.actorUri('ap1'), 'activitypub']]);
      const form = new URLSearchParams({ body: 'For the close friends list' });
      form.append('group_allow[]', group.hash);
      const r = await t.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: form });
      assert.equal(r.status, 200, await r.text());
      await assertOnlyFor('For the close friends list', 'ap1');
    });

    it('ext/group_create with a remote member, and the microblog API posts to the group: only the member gets it', async () => {
      const created = await t.request('/api/ext/group_create.json', {
        as: 'alice',
        method: 'POST',
        body: new URLSearchParams({ name: 'Hikers', json: JSON.stringify({ name: 'Hikers', user: [{ id: Number(accounts.ap2!.id) }] }) }),
      });
      const answer = (await created.json()) as { status: string; gid: number; 'wrong users': unknown[] };
      assert.equal(created.status, 200, JSON.stringify(answer));
      assert.equal(answer.status, 'ok', JSON.stringify(answer));
      const show = (await (await t.request(`/api/ext/group_show.json?gid=${answer.gid}`, { as: 'alice' })).json()) as { user: { screen_name: string }[] }[];
      assert.deepEqual(show[0]!.user.map((u) => u.screen_name), [peer.address('ap2')]);
      const posted = await t.request('/api/statuses/update.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ status: 'Hike on Sunday', 'group_allow[]': String(answer.gid) }) });
      assert.equal(posted.status, 200, await posted.text());
      await assertOnlyFor('Hike on Sunday', 'ap2');
    });

    it('ext/group_update puts a remote follower in and takes the other out', async () => {
      const groups = (await (await t.request('/api/ext/group_show.json', { as: 'alice' })).json()) as { gid: number; name: string }[];
      const hikers = groups.find((g) => g.name === 'Hikers')!;
      const r = await t.request('/api/ext/group_update.json', {
        as: 'alice',
        method: 'POST',
        body: new URLSearchParams({ gid: String(hikers.gid), name: 'Hikers', json: JSON.stringify({ gid: hikers.gid, name: 'Hikers', user: [{ id: Number(accounts.ap1!.id) }] }) }),
      });
      assert.equal(r.status, 200, await r.text());
      const posted = await t.request('/api/statuses/update.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ status: 'Hike moved to Monday', 'group_allow[]': String(hikers.gid) }) });
      assert.equal(posted.status, 200, await posted.text());
      await assertOnlyFor('Hike moved to Monday', 'ap1');
    });
  });
});
