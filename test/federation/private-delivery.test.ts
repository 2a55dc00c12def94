import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer, type Received } from '../helpers/fedify-peer.js';
import { eventually, mastodonClient, queueSettled, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';
import { call } from '../helpers/compat.js';

type Account = { id: string; acct: string };
type Status = { id: string; uri: string; content: string };

const PUBLIC = ['https://www.w3.org/ns/activitystreams#Public', 'as:Public', 'Public'];
const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/**
 * Deliveries of posts that are not public. alice approves her followers by hand. Three servers:
 * the member's (ap1: an approved follower, in her group, mentioned in her direct post), a
 * follower's (cp1: an approved follower, in neither) and an outsider's (bp1 asked to follow and
 * waits, bp2 followed and was blocked, bp3 follows bob and is mentioned in the group post). Each
 * post reaches the servers of its audience, addressed to that audience only; the others get
 * nothing of it (the post, its comments, its edit or deletion), though they get what is theirs.
 */
describe('no private post leaks by delivery', () => {
  let t: TestHub;
  let member: FedifyPeer;
  let follower: FedifyPeer;
  let outsider: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  let bob: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  /** Texts and id paths of the posts only their audience may get; those the follower may get too. */
  const secrets: string[] = [];
  const ids: string[] = [];
  const forFollowers: string[] = [];

  before(async () => {
    t = await startFederatingHub(['alice', 'bob']);
    member = await FedifyPeer.start({ actors: ['ap1'] });
    follower = await FedifyPeer.start({ actors: ['cp1'] });
    outsider = await FedifyPeer.start({ actors: ['bp1', 'bp2', 'bp3'] });
    alice = mastodonClient(t, 'alice');
    bob = mastodonClient(t, 'bob');
    await alice.post('/api/v1/accounts/update_credentials', { locked: true });
    const approve = async (p: FedifyPeer, name: string) => {
      await p.follow(name, aliceId());
      const request = await eventually(`${name}'s request`, async () => (await alice.get<Account[]>('/api/v1/follow_requests')).find((a) => a.acct === p.address(name)));
      await alice.post(`/api/v1/follow_requests/${request.id}/authorize`);
      await p.waitFor((r) => r.type === 'Accept' && r.actor === aliceId() && JSON.stringify(r.json).includes(p.actorUri(name)));
      return request;
    };
    await approve(member, 'ap1');
    await approve(follower, 'cp1');
    const bp2 = await approve(outsider, 'bp2');
    await alice.post(`/api/v1/accounts/${bp2.id}/block`);
    await outsider.follow('bp1', aliceId());
    await eventually("bp1's request waits", async () => (await alice.get<Account[]>('/api/v1/follow_requests')).some((a) => a.acct === outsider.address('bp1')));
    await outsider.follow('bp3', `${t.url}/channel/bob`);
    await outsider.waitFor((r) => r.type === 'Accept' && r.actor === `${t.url}/channel/bob`);
  });
  after(async () => {
    for (const p of [outsider, follower, member]) await p.close();
    await t.stop();
  });

  const account = async (p: FedifyPeer, name: string) => (await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(p.address(name))}&resolve=true&type=accounts`)).accounts[0]!;
  const createOf = (p: FedifyPeer, secret: string) => p.waitFor((r) => r.type === 'Create' && String((r.json.object as { content?: string })?.content).includes(secret));
  const addressing = (r: Received) => {
    const o = r.json.object as Record<string, unknown>;
    return [...list(r.json.to), ...list(r.json.cc), ...list(o.to), ...list(o.cc)];
  };
  const remember = (secret: string, status: Status, o: { followers?: boolean } = {}) => {
    secrets.push(secret, new URL(status.uri).pathname);
    ids.push(status.uri);
    if (o.followers) forFollowers.push(secret, new URL(status.uri).pathname);
  };

  it('a followers-only post reaches the approved followers, addressed to the followers and not to Public', async () => {
    const secret = 'leak-check followers-only';
    const s = await alice.post<Status>('/api/v1/statuses', { status: secret, visibility: 'private' });
    remember(secret, s, { followers: true });
    for (const p of [member, follower]) {
      const to = addressing(await createOf(p, secret));
      assert.ok(to.includes(`${aliceId()}/followers`), JSON.stringify(to));
      assert.ok(!to.some((a) => PUBLIC.includes(a)), `addressed to Public: ${JSON.stringify(to)}`);
    }
  });

  it("a post to a privacy group reaches its member, by name only, even when its text names someone outside the group", async () => {
    const ap1 = await account(member, 'ap1');
    const group = await alice.post<{ id: string }>('/api/v1/lists', { title: 'inner circle' });
    await alice.post(`/api/v1/lists/${group.id}/accounts`, { account_ids: [ap1.id] });
    const secret = 'leak-check group post';
    const r = await call(t, '/api/statuses/update.json', { as: 'alice', form: { status: `${secret} cc @${outsider.address('bp3')}`, 'group_allow[]': group.id } });
    assert.equal(r.status, 200, r.text);
    remember(secret, await alice.get<Status>(`/api/v1/statuses/${r.body.id}`));
    const got = await createOf(member, secret);
    const to = addressing(got);
    assert.ok(to.includes(member.actorUri('ap1')), JSON.stringify(to));
    assert.ok(!to.some((a) => PUBLIC.includes(a) || a.endsWith('/followers')), `addressed beyond the group: ${JSON.stringify(to)}`);
    assert.ok(!to.includes(outsider.actorUri('bp3')), 'the mentioned outsider is addressed');
  });

  it('a direct post reaches the mentioned actor only', async () => {
    const secret = 'leak-check direct message';
    const s = await alice.post<Status>('/api/v1/statuses', { status: `@${member.address('ap1')} ${secret}`, visibility: 'direct' });
    remember(secret, s);
    const got = await createOf(member, secret);
    const to = addressing(got);
    assert.ok(!to.some((a) => PUBLIC.includes(a) || a.endsWith('/followers')), JSON.stringify(to));
  });

  it('comments, edits and deletes of those posts go where the posts went', async () => {
    const [followersOnly, groupPost, direct] = ids;
    const statusOf = async (uri: string) => (await alice.get<Status[]>('/api/v1/timelines/home?limit=40')).find((s) => s.uri === uri)!;
    // alice comments on each; ap1 replies to the group post, and alice answers the reply.
    for (const [k, uri] of [followersOnly, groupPost, direct].entries()) {
      const secret = `leak-check comment ${k}`;
      const parent = await statusOf(uri!);
      const c = await alice.post<Status>('/api/v1/statuses', { status: secret, in_reply_to_id: parent.id, visibility: k === 2 ? 'direct' : 'private' });
      remember(secret, c, { followers: k === 0 });
      await createOf(member, secret);
    }
    await member.post('ap1', { content: '<p>leak-check reply of ap1</p>', inReplyTo: groupPost, audience: 'direct', to: [aliceId()] });
    const reply = await eventually('the reply in the thread', async () => {
      const ctx = await alice.get<{ descendants: Status[] }>(`/api/v1/statuses/${(await statusOf(groupPost!)).id}/context`);
      return ctx.descendants.find((d) => d.content.includes('leak-check reply of ap1'));
    });
    secrets.push('leak-check reply of ap1');
    const answer = await alice.post<Status>('/api/v1/statuses', { status: 'leak-check answer to ap1', in_reply_to_id: reply.id });
    remember('leak-check answer to ap1', answer);
    await createOf(member, 'leak-check answer to ap1');
    // An edit and a delete.
    const edited = await statusOf(groupPost!);
    assert.equal((await alice.raw(`/api/v1/statuses/${edited.id}`, { method: 'PUT', json: { status: 'leak-check group post, edited' } })).status, 200);
    await member.waitFor((r) => r.type === 'Update' && String((r.json.object as { content?: string })?.content).includes('leak-check group post, edited'));
    assert.equal((await alice.raw(`/api/v1/statuses/${(await statusOf(direct!)).id}`, { method: 'DELETE' })).status, 200);
    await member.waitFor((r) => r.type === 'Delete' && JSON.stringify(r.json).includes(direct!));
  });

  it("the servers outside got nothing of them, though they got the public posts sent after them", async () => {
    await bob.post('/api/v1/statuses', { status: 'leak-check public marker of bob' });
    await alice.post('/api/v1/statuses', { status: 'leak-check public marker of alice' });
    await createOf(outsider, 'leak-check public marker of bob');
    await createOf(follower, 'leak-check public marker of alice');
    await queueSettled(t);
    const delivered = (p: FedifyPeer) => p.requests.filter((r) => r.method === 'POST').map((r) => r.body).join('\n');
    for (const s of secrets) assert.ok(!delivered(outsider).includes(s), `the outsider's server received ${s}`);
    for (const s of secrets.filter((x) => !forFollowers.includes(x))) assert.ok(!delivered(follower).includes(s), `the follower's server received ${s}`);
  });
});
