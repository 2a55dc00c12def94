import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call as compat } from '../helpers/compat.js';
import { call as native } from '../helpers/native.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { webLogin } from '../helpers/web-session.js';

/**
 * DESIGN.md: a follow is accepted at once unless the channel approves followers by hand (then it
 * is `locked` and follows are requests). Seen from every API, as the people who follow.
 */
const NICKS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace'] as const;
type Nick = (typeof NICKS)[number];

let t: TestHub;
const masto = {} as Record<Nick, ReturnType<typeof bearerFetch>>;
const ids = {} as Record<Nick, string>;

before(async () => {
  t = await startHub({ channels: [...NICKS] });
  const session = await webLogin(t, 'alice');
  for (const nick of NICKS) {
    masto[nick] = bearerFetch(t, await mastodonToken(t, session, { channel: nick }));
    ids[nick] = (await (await masto[nick]('/api/v1/accounts/verify_credentials')).json()).id;
  }
});
after(() => t?.stop());

interface Relationship {
  following: boolean;
  requested: boolean;
  followed_by: boolean;
  requested_by: boolean;
}

const facts = (r: Relationship) => ({ following: r.following, requested: r.requested, followed_by: r.followed_by, requested_by: r.requested_by });
const rel = (following: boolean, requested: boolean, followedBy: boolean, requestedBy: boolean) => ({ following, requested, followed_by: followedBy, requested_by: requestedBy });

async function mastodon(as: Nick, path: string, method = 'GET') {
  const res = await masto[as](path, { method });
  const body = await res.json();
  assert.equal(res.status, 200, `${method} ${path} as ${as}: ${JSON.stringify(body)}`);
  return body;
}

/** How `as` relates to `other`, as GET /api/v1/accounts/relationships says. */
async function relation(as: Nick, other: Nick) {
  const [r] = (await mastodon(as, `/api/v1/accounts/relationships?id[]=${ids[other]}`)) as Relationship[];
  return facts(r!);
}

const follow = async (as: Nick, other: Nick) => facts(await mastodon(as, `/api/v1/accounts/${ids[other]}/follow`, 'POST'));
const unfollow = async (as: Nick, other: Nick) => facts(await mastodon(as, `/api/v1/accounts/${ids[other]}/unfollow`, 'POST'));

/** The Mastodon notifications of `as` caused by `from`, by type. */
async function notifiedBy(as: Nick, from: Nick): Promise<string[]> {
  const list = (await mastodon(as, '/api/v1/notifications')) as { type: string; account: { acct: string } }[];
  return list.filter((n) => n.account.acct === from).map((n) => n.type);
}

async function followRequests(as: Nick): Promise<string[]> {
  return ((await mastodon(as, '/api/v1/follow_requests')) as { acct: string }[]).map((a) => a.acct);
}

/** Approving followers by hand, set as the UI's Settings set it (account/settings of the microblog API). */
async function approveByHand(nick: Nick, on: boolean) {
  const r = await compat(t, '/api/account/settings.json', { as: nick, form: { protected: on ? 'true' : 'false' } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.protected, on);
}

/** Twitter's friendships/show, from `as` to `other`. */
async function friendship(as: Nick, other: Nick) {
  const r = await compat(t, `/api/friendships/show.json?target_screen_name=${other}`, { as });
  assert.equal(r.status, 200, r.text);
  const s = r.body.relationship.source;
  return { following: s.following, followed_by: s.followed_by, following_requested: s.following_requested, following_received: s.following_received };
}

test('a channel that does not approve followers by hand is followed at once and told so', async () => {
  const account = await mastodon('bob', `/api/v1/accounts/${ids.alice}`);
  assert.equal(account.locked, false);
  assert.equal((await compat(t, '/api/users/show.json?screen_name=alice', { as: 'bob' })).body.protected, false);

  assert.deepEqual(await follow('bob', 'alice'), rel(true, false, false, false));
  assert.deepEqual(await relation('alice', 'bob'), rel(false, false, true, false));
  assert.deepEqual(await notifiedBy('alice', 'bob'), ['follow']);
  assert.deepEqual(await followRequests('alice'), []);
  assert.ok((await mastodon('bob', `/api/v1/accounts/${ids.alice}/followers`)).some((a: { acct: string }) => a.acct === 'bob'));
  assert.ok((await mastodon('bob', `/api/v1/accounts/${ids.bob}/following`)).some((a: { acct: string }) => a.acct === 'alice'));
  assert.deepEqual(await friendship('alice', 'bob'), { following: false, followed_by: true, following_requested: false, following_received: false });
  const told = (await compat(t, '/api/ext/notifications.json', { as: 'alice' })).body as { type: number; msg_plain?: string; msg?: string }[];
  assert.ok(told.some((n) => n.type === 1 && /Bob connected with you/.test(n.msg_plain ?? n.msg ?? '')), 'the microblog API tells of the new follower');
  // Following again changes nothing and tells nobody twice.
  assert.deepEqual(await follow('bob', 'alice'), rel(true, false, false, false));
  assert.deepEqual(await notifiedBy('alice', 'bob'), ['follow']);
});

test('following back is a follow of its own: two follows', async () => {
  assert.deepEqual(await follow('alice', 'bob'), rel(true, false, true, false));
  assert.deepEqual(await relation('bob', 'alice'), rel(true, false, true, false));
  assert.deepEqual(await notifiedBy('bob', 'alice'), ['follow']);
  const followersOfBob = (await mastodon('alice', `/api/v1/accounts/${ids.bob}/followers`)) as { acct: string }[];
  assert.deepEqual(followersOfBob.map((a) => a.acct), ['alice']);
});

test('a channel that approves followers by hand is locked and gets follow requests', async () => {
  await approveByHand('carol', true);
  assert.equal((await mastodon('dave', `/api/v1/accounts/${ids.carol}`)).locked, true);
  assert.equal((await mastodon('carol', '/api/v1/accounts/verify_credentials')).locked, true);
  assert.equal((await compat(t, '/api/users/show.json?screen_name=carol', { as: 'dave' })).body.protected, true);

  assert.deepEqual(await follow('dave', 'carol'), rel(false, true, false, false));
  assert.deepEqual(await relation('carol', 'dave'), rel(false, false, false, true));
  assert.deepEqual(await notifiedBy('carol', 'dave'), ['follow_request']);
  assert.deepEqual(await followRequests('carol'), ['dave']);
  assert.equal((await mastodon('carol', '/api/v1/accounts/verify_credentials')).source.follow_requests_count, 1);

  const answered = facts(await mastodon('carol', `/api/v1/follow_requests/${ids.dave}/authorize`, 'POST'));
  assert.deepEqual(answered, rel(false, false, true, false), 'dave follows carol; carol does not follow dave by this');
  assert.deepEqual(await relation('dave', 'carol'), rel(true, false, false, false));
  assert.deepEqual(await followRequests('carol'), []);
  assert.deepEqual(await notifiedBy('carol', 'dave'), ['follow'], 'the request became a follow');
});

test('following back someone who asked is no approval; authorizing is', async () => {
  assert.deepEqual(await follow('erin', 'carol'), rel(false, true, false, false));
  assert.deepEqual(await follow('carol', 'erin'), rel(true, false, false, true), 'carol follows erin; erin still asks');
  assert.deepEqual(await notifiedBy('erin', 'carol'), ['follow']);
  assert.deepEqual(await relation('erin', 'carol'), rel(false, true, true, false));
  assert.deepEqual(await followRequests('carol'), ['erin']);

  await mastodon('carol', `/api/v1/follow_requests/${ids.erin}/authorize`, 'POST');
  assert.deepEqual(await relation('erin', 'carol'), rel(true, false, true, false), 'two follows');
  assert.deepEqual(await relation('carol', 'erin'), rel(true, false, true, false));
});

test('after an unfollow nothing waits and nobody follows: requested_by is false', async () => {
  // A request withdrawn.
  assert.deepEqual(await follow('frank', 'carol'), rel(false, true, false, false));
  assert.deepEqual(await relation('carol', 'frank'), rel(false, false, false, true));
  assert.deepEqual(await unfollow('frank', 'carol'), rel(false, false, false, false));
  assert.deepEqual(await relation('carol', 'frank'), rel(false, false, false, false));
  assert.deepEqual(await followRequests('carol'), []);
  assert.deepEqual(await notifiedBy('carol', 'frank'), [], 'the request is no longer shown');
  // An accepted follow, where the other follows back.
  assert.deepEqual(await unfollow('bob', 'alice'), rel(false, false, true, false));
  assert.deepEqual(await relation('alice', 'bob'), rel(true, false, false, false));
  // A follow of a locked channel that follows back but never accepted: nothing stays waiting.
  await follow('frank', 'carol');
  await follow('carol', 'frank');
  assert.deepEqual(await relation('carol', 'frank'), rel(true, false, false, true));
  assert.deepEqual(await unfollow('frank', 'carol'), rel(false, false, true, false));
  assert.deepEqual(await relation('carol', 'frank'), rel(true, false, false, false));
  assert.deepEqual(await followRequests('carol'), []);
  const post = await mastodon('carol', '/api/v1/statuses?status=open+to+all', 'POST');
  assert.equal((await masto.frank(`/api/v1/statuses/${post.id}/favourite`, { method: 'POST' })).status, 200, 'frank may do what anyone may');
  // Asking again is a new request.
  assert.deepEqual(await follow('frank', 'carol'), rel(false, true, true, false));
  assert.deepEqual(await followRequests('carol'), ['frank']);
  const rejected = facts(await mastodon('carol', `/api/v1/follow_requests/${ids.frank}/reject`, 'POST'));
  assert.deepEqual(rejected, rel(true, false, false, false), 'carol still follows frank; his request is gone');
  assert.deepEqual(await relation('frank', 'carol'), rel(false, false, true, false));
  assert.deepEqual(await followRequests('carol'), []);
});

test('the microblog and native APIs follow by the same rules', async () => {
  const created = await compat(t, '/api/friendships/create.json', { as: 'grace', form: { screen_name: 'carol' } });
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.following, false);
  assert.equal(created.body.follow_request_sent, true);
  assert.equal(created.body.protected, true);
  assert.deepEqual(await friendship('grace', 'carol'), { following: false, followed_by: false, following_requested: true, following_received: false });
  assert.deepEqual(await friendship('carol', 'grace'), { following: false, followed_by: false, following_requested: false, following_received: true });
  const incoming = await compat(t, '/api/friendships/incoming.json', { as: 'carol' });
  assert.deepEqual(incoming.body, [Number(ids.grace)]);

  // Following back through the microblog API does not approve either.
  assert.equal((await compat(t, '/api/friendships/create.json', { as: 'carol', form: { screen_name: 'grace' } })).body.following, true);
  const abook = (await native(t, 'carol', 'abook')).json as Record<string, string>[];
  const request = abook.find((r) => r.xchan_addr?.startsWith('grace@'))!;
  assert.equal(request.abook_pending, '1', 'still waiting for carol');
  assert.equal(request.abook_unconnected, '0', 'carol follows grace');
  assert.deepEqual(await friendship('carol', 'grace'), { following: true, followed_by: false, following_requested: false, following_received: true });

  // The native API approves.
  const approved = await native(t, 'carol', 'abook/approve', { form: { abook_id: request.abook_id! } });
  assert.equal(approved.status, 200, approved.text);
  assert.equal(approved.json.abook_pending, '0');
  assert.deepEqual(await friendship('grace', 'carol'), { following: true, followed_by: true, following_requested: false, following_received: false });
  assert.ok(((await compat(t, '/api/followers/ids.json', { as: 'carol' })).body as number[]).includes(Number(ids.grace)));
  assert.ok(((await compat(t, '/api/friends/ids.json', { as: 'grace' })).body as number[]).includes(Number(ids.carol)));
  assert.equal((await native(t, 'carol', 'abook/approve', { form: { abook_id: request.abook_id! } })).status, 400, 'nothing waits any more');
  assert.equal((await native(t, 'carol', 'abook/approve', { form: {} })).status, 400);
  assert.equal((await native(t, 'carol', 'abook/approve', { form: { abook_id: '999999' } })).status, 404);

  // Unfollowing through the microblog API.
  assert.equal((await compat(t, '/api/friendships/destroy.json', { as: 'grace', form: { screen_name: 'carol' } })).status, 200);
  assert.deepEqual(await friendship('carol', 'grace'), { following: true, followed_by: false, following_requested: false, following_received: false });
  assert.equal((await compat(t, '/api/friendships/destroy.json', { as: 'grace', form: { screen_name: 'carol' } })).status, 404, 'grace follows carol no more');

  // Unlocking: follows are accepted at once again, through the Mastodon API's setting too.
  const unlocked = await masto.carol('/api/v1/accounts/update_credentials', { method: 'PATCH', json: { locked: false } });
  assert.equal((await unlocked.json()).locked, false);
  assert.equal((await compat(t, '/api/account/settings.json', { as: 'carol' })).body.protected, false);
  assert.deepEqual(await follow('grace', 'carol'), rel(true, false, true, false));
});
