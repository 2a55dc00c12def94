import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call as compat } from '../helpers/compat.js';
import { call as native } from '../helpers/native.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { webLogin } from '../helpers/web-session.js';
import { connect } from '../../server/services/connections.js';
import { createItem } from '../../server/services/items.js';
import { toAclString } from '../../server/util/ids.js';

/**
 * DESIGN.md: anyone who may see a public post may like, share and reply to it; the owner can
 * restrict comments per post and per channel. bob does not follow alice and alice does not follow
 * bob; dave and alice follow each other (a connection). Every API, as the person who reacts.
 */
let t: TestHub;
const masto: Record<string, ReturnType<typeof bearerFetch>> = {};

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'dave'] });
  const { alice, dave } = t.channels;
  connect(t.hub, alice!, dave!.channel_hash);
  connect(t.hub, dave!, alice!.channel_hash);
  const session = await webLogin(t, 'alice');
  for (const nick of ['alice', 'bob', 'dave']) masto[nick] = bearerFetch(t, await mastodonToken(t, session, { channel: nick }));
});
after(() => t?.stop());

let seq = 0;
/** A public post of alice's (comments closed when asked), made as the UI's composer does. */
async function alicePost(opts: { closed?: boolean } = {}): Promise<number> {
  const form: Record<string, string> = { body: `alice says ${++seq}` };
  if (opts.closed) form.nocomment = '1';
  const r = await native(t, 'alice', 'item/update', { form });
  assert.equal(r.status, 200, r.text);
  return Number(r.json.item.id);
}

/** What one person can do to a post through each API: the HTTP status of each attempt. */
async function attempts(as: string, id: number) {
  const out: Record<string, number> = {};
  out.nativeReply = (await native(t, as, 'item/update', { form: { body: `a reply by ${as}`, parent: String(id) } })).status;
  out.compatReply = (await compat(t, '/api/statuses/update.json', { as, form: { status: `a reply by ${as}`, in_reply_to_status_id: String(id) } })).status;
  out.compatLike = (await compat(t, '/api/ext/activity/like.json', { as, form: { id: String(id) } })).status;
  out.mastodonReply = (await masto[as]!('/api/v1/statuses', { method: 'POST', json: { status: `a toot reply by ${as}`, in_reply_to_id: String(id) } })).status;
  out.mastodonFavourite = (await masto[as]!(`/api/v1/statuses/${id}/favourite`, { method: 'POST' })).status;
  return out;
}

const ALL_OK = { nativeReply: 200, compatReply: 200, compatLike: 200, mastodonReply: 200, mastodonFavourite: 200 };
// As each API answered a refusal before: native 403, compat statuses/update 403 and ext/activity 400, Mastodon 403.
const REFUSED = { nativeReply: 403, compatReply: 403, compatLike: 400, mastodonReply: 403, mastodonFavourite: 403 };
// A post the caller cannot see is unknown to it.
const UNSEEN = { nativeReply: 404, compatReply: 404, compatLike: 400, mastodonReply: 404, mastodonFavourite: 404 };

test('someone who follows nobody likes, replies to and shares a public post, in every API', async () => {
  const id = await alicePost();
  assert.deepEqual(await attempts('bob', id), ALL_OK);
  const shared = await compat(t, `/api/statuses/retweet/${id}.json`, { as: 'bob', method: 'POST' });
  assert.equal(shared.status, 200, shared.text);
  const other = await alicePost();
  assert.equal((await masto.bob!(`/api/v1/statuses/${other}/reblog`, { method: 'POST' })).status, 200);

  // alice sees it all: the replies, the likes and the shares, and is told.
  const thread = await masto.alice!(`/api/v1/statuses/${id}/context`).then((r) => r.json());
  assert.equal(thread.descendants.filter((s: { account: { acct: string } }) => s.account.acct === 'bob').length, 3);
  const status = await masto.alice!(`/api/v1/statuses/${id}`).then((r) => r.json());
  assert.equal(status.favourites_count, 1);
  assert.equal(status.reblogs_count, 1);
  const kinds = (await masto.alice!('/api/v1/notifications').then((r) => r.json())).filter((n: { account: { acct: string } }) => n.account.acct === 'bob').map((n: { type: string }) => n.type);
  for (const kind of ['mention', 'favourite', 'reblog']) assert.ok(kinds.includes(kind), `alice is told of bob's ${kind}`);
});

test('a post for connections only stays out of reach of others, as before', async () => {
  const { alice, dave } = t.channels;
  const hidden = createItem(t.hub, alice!, { body: 'for dave', acl: { allow_cid: toAclString([alice!.channel_hash, dave!.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' } });
  assert.deepEqual(await attempts('bob', hidden.id), UNSEEN);
  assert.equal((await compat(t, `/api/statuses/retweet/${hidden.id}.json`, { as: 'bob', method: 'POST' })).status, 404);
  assert.equal((await masto.bob!(`/api/v1/statuses/${hidden.id}/reblog`, { method: 'POST' })).status, 404);
  assert.deepEqual(await attempts('dave', hidden.id), ALL_OK, 'dave, who may see it, may answer it');
});

test('comments closed on one post: nobody else may reply to or like it, in every API', async () => {
  const id = await alicePost({ closed: true });
  assert.deepEqual(await attempts('bob', id), REFUSED);
  assert.deepEqual(await attempts('dave', id), REFUSED, 'not even a connection');
  const open = await alicePost();
  assert.deepEqual(await attempts('bob', open), ALL_OK, 'her other posts stay open');
  assert.equal((await native(t, 'alice', 'item/update', { form: { body: 'my own reply', parent: String(id) } })).status, 200, 'alice herself still may');
});

/** alice's choice of who may comment, made through the API the UI's Settings use. */
async function commentsFrom(policy: string) {
  const r = await compat(t, '/api/account/settings.json', { as: 'alice', form: { comment_policy: policy } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.comment_policy, policy);
}

test('comments restricted on the channel: to connections, then to nobody, then open again', async () => {
  const before = await alicePost();
  assert.equal((await compat(t, '/api/account/settings.json', { as: 'alice' })).body.comment_policy, 'anyone', 'anyone who sees a post may comment by default');

  await commentsFrom('connections');
  const later = await alicePost();
  for (const id of [before, later]) {
    assert.deepEqual(await attempts('bob', id), REFUSED, `bob on post ${id}`);
    assert.deepEqual(await attempts('dave', id), ALL_OK, `dave on post ${id}`);
  }

  await commentsFrom('nobody');
  const third = await alicePost();
  assert.deepEqual(await attempts('dave', third), REFUSED);
  assert.equal((await native(t, 'alice', 'item/update', { form: { body: 'my own reply', parent: String(third) } })).status, 200, 'alice herself still may');
  const perm = await native(t, 'alice', `perm_allowed?perm=post_comments&xchan=${encodeURIComponent(t.channels.dave!.channel_hash)}`);
  assert.deepEqual(perm.json, [{ perm: 'post_comments', allowed: false }], 'the native API reports the limit');

  await commentsFrom('anyone');
  assert.deepEqual(await attempts('bob', third), ALL_OK);
});

test('account/settings refuses an unknown comment policy and keeps the one set', async () => {
  const r = await compat(t, '/api/account/settings.json', { as: 'alice', form: { comment_policy: 'friends' } });
  assert.equal(r.status, 400);
  assert.match(r.body.error, /comment_policy/);
  assert.equal((await compat(t, '/api/account/settings.json', { as: 'alice', form: { protected: 'maybe' } })).status, 400);
  assert.equal((await compat(t, '/api/account/settings.json', { as: 'alice' })).body.comment_policy, 'anyone');
});
