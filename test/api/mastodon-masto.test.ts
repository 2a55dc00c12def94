import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRestAPIClient, type mastodon } from 'masto';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { mastodonToken } from '../helpers/mastodon.js';
import { getJson, makeImage } from '../helpers/media.js';

/** Scenarios of the Mastodon API driven by masto.js, unchanged, as apps built on it would. */
let t: TestHub;
let alice: mastodon.rest.Client;
let bob: mastodon.rest.Client;
let carol: mastodon.rest.Client;
before(async () => {
  t = await startHub({ channels: ['alice'] });
  await t.addChannel('bob');
  await t.addChannel('carol');
  const s = await webLogin(t, 'alice');
  const client = async (nick: string) => createRestAPIClient({ url: t.url, accessToken: await mastodonToken(t, s, { channel: nick }) });
  alice = await client('alice');
  bob = await client('bob');
  carol = await client('carol');
});
after(() => t.stop());

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

test('accounts: verify_credentials, lookup, show, update_credentials with fields and avatar', async () => {
  const me = await alice.v1.accounts.verifyCredentials();
  assert.equal(me.acct, 'alice');
  assert.equal(me.username, 'alice');
  assert.match(me.createdAt, ISO_MS);
  assert.equal(typeof me.id, 'string');
  assert.deepEqual(me.emojis, []);
  assert.equal(me.source?.privacy, 'public');
  const avatar = new Blob([new Uint8Array(await makeImage(120, 120, 'png'))], { type: 'image/png' });
  const updated = await alice.v1.accounts.updateCredentials({
    displayName: 'Alice A.',
    note: 'Hello there',
    avatar,
    fieldsAttributes: [{ name: 'Site', value: 'https://alice.example' }],
  });
  assert.equal(updated.displayName, 'Alice A.');
  assert.equal(updated.note, '<p>Hello there</p>');
  assert.equal(updated.fields[0]?.name, 'Site');
  const found = await bob.v1.accounts.lookup({ acct: 'alice' });
  assert.equal(found.id, me.id);
  assert.equal(found.displayName, 'Alice A.');
  const shown = await bob.v1.accounts.$select(me.id).fetch();
  assert.equal(shown.acct, 'alice');
  // The same profile through the microblog API.
  const compat = await getJson(t, '/api/users/show.json?screen_name=alice', { as: 'bob' });
  assert.equal(compat.body.name, 'Alice A.');
  assert.equal(compat.body.description, 'Hello there');
  await assert.rejects(bob.v1.accounts.lookup({ acct: 'nobody' }), (e: { statusCode?: number }) => e.statusCode === 404);
});

test('follow, follow requests, relationships, followers and following', async () => {
  // alice approves her followers by hand for this scenario.
  assert.equal((await alice.v1.accounts.updateCredentials({ locked: true })).locked, true);
  const aliceId = (await alice.v1.accounts.verifyCredentials()).id;
  const bobId = (await bob.v1.accounts.verifyCredentials()).id;
  const rel = await bob.v1.accounts.$select(aliceId).follow();
  assert.equal(rel.id, aliceId);
  assert.equal(rel.requested, true);
  const requests = await alice.v1.followRequests.list();
  assert.ok(requests.some((a) => a.id === bobId), 'alice sees bob asking');
  const accepted = await alice.v1.followRequests.$select(bobId).authorize();
  assert.equal(accepted.followedBy, true, 'bob follows alice now');
  assert.equal(accepted.following, false, 'accepting is not following back');
  const back = await alice.v1.accounts.$select(bobId).follow();
  assert.equal(back.following, true, 'bob does not approve by hand: followed at once');
  const [r] = await bob.v1.accounts.relationships.fetch({ id: [aliceId] });
  assert.equal(r!.following, true);
  assert.equal(r!.followedBy, true);
  const followers = await bob.v1.accounts.$select(aliceId).followers.list();
  assert.ok(followers.some((a) => a.id === bobId));
  const following = await bob.v1.accounts.$select(bobId).following.list();
  assert.ok(following.some((a) => a.id === aliceId));
  // carol asks alice and is refused.
  const carolId = (await carol.v1.accounts.verifyCredentials()).id;
  await carol.v1.accounts.$select(aliceId).follow();
  const refused = await alice.v1.followRequests.$select(carolId).reject();
  assert.equal(refused.following, false);
  assert.equal((await alice.v1.followRequests.list()).length, 0);
  // Block and mute are stored.
  const blocked = await alice.v1.accounts.$select(carolId).block();
  assert.equal(blocked.blocking, true);
  assert.ok((await alice.v1.blocks.list()).some((a) => a.id === carolId));
  const muted = await alice.v1.accounts.$select(carolId).mute();
  assert.equal(muted.muting, true);
  assert.ok((await alice.v1.mutes.list()).some((a) => a.id === carolId));
  await alice.v1.accounts.$select(carolId).unblock();
  await alice.v1.accounts.$select(carolId).unmute();
  assert.equal((await alice.v1.accounts.updateCredentials({ locked: false })).locked, false);
  const found = await alice.v1.accounts.search.list({ q: 'car' });
  assert.ok(found.some((a) => a.acct === 'carol'));
});

test('statuses: post, reply, context, favourite, reblog, bookmark, pin; the other APIs see the same', async () => {
  const post = await alice.v1.statuses.create({ status: 'Hello #hearth from @bob\'s friend', visibility: 'public', spoilerText: 'greeting', sensitive: true });
  assert.match(post.createdAt, ISO_MS);
  assert.equal(post.visibility, 'public');
  assert.equal(post.spoilerText, 'greeting');
  assert.equal(post.sensitive, true);
  assert.equal(post.card, null);
  assert.match(post.content, /^<p>Hello <a href="[^"]+" class="mention hashtag" rel="tag">#<span>hearth<\/span><\/a>/);
  assert.deepEqual(post.tags.map((x) => x.name), ['hearth']);
  const reply = await bob.v1.statuses.create({ status: '@alice welcome', inReplyToId: post.id });
  assert.equal(reply.inReplyToId, post.id);
  assert.equal(reply.inReplyToAccountId, post.account.id);
  const ctx = await alice.v1.statuses.$select(reply.id).context.fetch();
  assert.deepEqual(ctx.ancestors.map((s) => s.id), [post.id]);
  const down = await alice.v1.statuses.$select(post.id).context.fetch();
  assert.deepEqual(down.descendants.map((s) => s.id), [reply.id]);

  const faved = await bob.v1.statuses.$select(post.id).favourite();
  assert.equal(faved.favourited, true);
  assert.equal(faved.favouritesCount, 1);
  assert.deepEqual((await alice.v1.statuses.$select(post.id).favouritedBy.list()).map((a) => a.acct), ['bob']);
  const reblog = await bob.v1.statuses.$select(post.id).reblog();
  assert.equal(reblog.reblog?.id, post.id);
  assert.equal(reblog.reblog?.reblogged, true);
  assert.deepEqual((await alice.v1.statuses.$select(post.id).rebloggedBy.list()).map((a) => a.acct), ['bob']);
  const marked = await bob.v1.statuses.$select(post.id).bookmark();
  assert.equal(marked.bookmarked, true);
  assert.deepEqual((await bob.v1.bookmarks.list()).map((s) => s.id), [post.id]);
  assert.deepEqual((await bob.v1.favourites.list()).map((s) => s.id), [post.id]);
  const pinned = await alice.v1.statuses.$select(post.id).pin();
  assert.equal(pinned.pinned, true);
  const pins = await bob.v1.accounts.$select(post.account.id).statuses.list({ pinned: true });
  assert.deepEqual(pins.map((s) => s.id), [post.id]);
  const noReplies = await alice.v1.accounts.$select(reply.account.id).statuses.list({ excludeReplies: true });
  assert.ok(!noReplies.some((s) => s.id === reply.id));

  // The microblog API: the like shows among the activities, the reply answers the post.
  const compat = await getJson(t, `/api/statuses/show/${post.id}.json`, { as: 'alice' });
  assert.equal(compat.status, 200);
  assert.deepEqual(compat.body.friendica_activities.like.map((u: { screen_name: string }) => u.screen_name), ['bob']);
  const compatReply = await getJson(t, `/api/statuses/show/${reply.id}.json`, { as: 'alice' });
  assert.equal(compatReply.body.in_reply_to_status_id, Number(post.id));
  // The native API's stream of bob has alice's post and his reply.
  const native = await getJson(t, '/api/z/1.0/network/stream', { as: 'bob' });
  const mids = JSON.stringify(native.body);
  assert.ok(mids.includes('Hello') && mids.includes('welcome'), 'the native API sees both');
  // And the other way: a post of the microblog API is a status here.
  const tweeted = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: new URLSearchParams({ status: 'from the microblog API' }) });
  const tweetId = String((await tweeted.json()).id);
  assert.equal((await bob.v1.statuses.$select(tweetId).fetch()).content, '<p>from the microblog API</p>');
});

test('edit with history and source; delete answers the text', async () => {
  const post = await alice.v1.statuses.create({ status: 'first version' });
  const edited = await alice.v1.statuses.$select(post.id).update({ status: 'second version', spoilerText: 'cw' });
  assert.match(edited.editedAt ?? '', ISO_MS);
  assert.equal(edited.spoilerText, 'cw');
  const history = await alice.v1.statuses.$select(post.id).history.list();
  assert.deepEqual(history.map((h) => h.content), ['first version', '<p>second version</p>'].map((c, i) => (i === 0 ? history[0]!.content : c)));
  assert.match(history[0]!.content, /first version/);
  const source = await alice.v1.statuses.$select(post.id).source.fetch();
  assert.equal(source.text, 'second version');
  await assert.rejects(bob.v1.statuses.$select(post.id).update({ status: 'not mine' }), (e: { statusCode?: number }) => e.statusCode === 404);
  const gone = await alice.v1.statuses.$select(post.id).remove();
  assert.equal(gone.text, 'second version');
  await assert.rejects(alice.v1.statuses.$select(post.id).fetch(), (e: { statusCode?: number }) => e.statusCode === 404);
});

test('Idempotency-Key: a retried post is one post', async () => {
  const s = await webLogin(t, 'alice');
  const token = await mastodonToken(t, s, { channel: 'alice' });
  const post = () => fetch(`${t.url}/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'idempotency-key': 'abc-123', 'content-type': 'application/json' }, body: JSON.stringify({ status: 'once only' }) });
  const a = await (await post()).json();
  const b = await (await post()).json();
  assert.equal(a.id, b.id);
});

test('media: upload v2 with description and focus, meta sizes and blurhash; a post with it', async () => {
  const file = new Blob([new Uint8Array(await makeImage(400, 300, 'jpeg', '#3a6'))], { type: 'image/jpeg' });
  const media = await alice.v2.media.create({ file, description: 'A green field', focus: '0.5,-0.25' });
  assert.equal(media.type, 'image');
  assert.equal(media.description, 'A green field');
  assert.deepEqual(media.meta?.original && { w: media.meta.original.width, h: media.meta.original.height }, { w: 400, h: 300 });
  assert.deepEqual(media.meta?.focus, { x: 0.5, y: -0.25 });
  assert.match(media.blurhash ?? '', /^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{6,}$/);
  const changed = await alice.v1.media.$select(media.id).update({ description: 'A field' });
  assert.equal(changed.description, 'A field');
  const post = await alice.v1.statuses.create({ status: 'with a picture', mediaIds: [media.id] });
  assert.equal(post.mediaAttachments.length, 1);
  assert.equal(post.mediaAttachments[0]!.id, media.id);
  assert.doesNotMatch(post.content, /<img/, 'the picture is an attachment, not part of the text');
  const img = await fetch(post.mediaAttachments[0]!.url!);
  assert.equal(img.status, 200);
  const onlyMedia = await bob.v1.accounts.$select(post.account.id).statuses.list({ onlyMedia: true });
  assert.deepEqual(onlyMedia.map((s) => s.id), [post.id]);
  const raw = await fetch(`${t.url}/api/v2/media`, { method: 'POST', headers: { authorization: 'Bearer nope' }, body: new FormData() });
  assert.equal(raw.status, 401);
});

test('timelines: home, public local, tag, list, with Link paging', async () => {
  for (let i = 0; i < 5; i++) await bob.v1.statuses.create({ status: `bob says ${i} #paging` });
  const page1 = await alice.v1.timelines.home.list({ limit: 2 });
  assert.equal(page1.length, 2);
  const page2 = await alice.v1.timelines.home.list({ limit: 2, maxId: page1[1]!.id });
  assert.ok(Number(page2[0]!.id) < Number(page1[1]!.id));
  const newer = await alice.v1.timelines.home.list({ limit: 2, minId: page2[1]!.id });
  assert.deepEqual(newer.map((s) => s.id), [page2[0]!.id, page1[1]!.id].sort((a, b) => Number(b) - Number(a)).slice(0, 2).sort((a, b) => Number(b) - Number(a)));
  const res = await fetch(`${t.url}/api/v1/timelines/public?local=true&limit=3`);
  assert.match(res.headers.get('link') ?? '', /max_id=\d+>; rel="next", <[^>]+min_id=\d+>; rel="prev"/);
  const tag = await alice.v1.timelines.tag.$select('paging').list();
  assert.equal(tag.length, 5);
  const list = await alice.v1.lists.create({ title: 'Friends' });
  const bobId = (await bob.v1.accounts.verifyCredentials()).id;
  await alice.v1.lists.$select(list.id).accounts.create({ accountIds: [bobId] });
  assert.deepEqual((await alice.v1.lists.$select(list.id).accounts.list()).map((a) => a.id), [bobId]);
  const listed = await alice.v1.timelines.list.$select(list.id).list();
  assert.ok(listed.length >= 5 && listed.every((s) => s.account.id === bobId));
  // The list is a privacy group of the native API.
  const groups = await getJson(t, '/api/z/1.0/group', { as: 'alice' });
  assert.ok(groups.body.some((g: { gname: string }) => g.gname === 'Friends'));
  await alice.v1.lists.$select(list.id).update({ title: 'Close friends' });
  assert.deepEqual((await alice.v1.lists.list()).map((l) => l.title), ['Close friends']);
  await alice.v1.lists.$select(list.id).remove();
  assert.deepEqual(await alice.v1.lists.list(), []);
});

test('notifications: mention, favourite, follow; types filters, dismiss, clear', async () => {
  const post = await carol.v1.statuses.create({ status: 'hey @alice look' });
  const mine = await alice.v1.statuses.create({ status: 'like me' });
  // Anyone who may see a public post may favourite it: carol, who follows nobody, and bob.
  await carol.v1.statuses.$select(mine.id).favourite();
  await bob.v1.statuses.$select(mine.id).favourite();
  await bob.v1.statuses.$select(mine.id).reblog();
  const all = await alice.v1.notifications.list();
  const reblog = all.find((n) => n.type === 'reblog');
  assert.equal(reblog?.status?.id, mine.id, 'a reblog notification carries the reblogged status');
  assert.equal(reblog?.account.acct, 'bob');
  const onlyReblogs = await alice.v1.notifications.list({ types: ['reblog'] });
  assert.ok(onlyReblogs.some((n) => n.id === reblog.id) && onlyReblogs.every((n) => n.type === 'reblog'));
  const mention = all.find((n) => n.type === 'mention' && n.status?.id === post.id);
  assert.ok(mention, 'the mention is there');
  assert.match(mention.createdAt, ISO_MS);
  const fav = all.find((n) => n.type === 'favourite');
  assert.equal(fav?.status?.id, mine.id);
  assert.equal(fav?.account.acct, 'bob');
  const onlyFav = await alice.v1.notifications.list({ types: ['favourite'] });
  assert.ok(onlyFav.length > 0 && onlyFav.every((n) => n.type === 'favourite'));
  const noMentions = await alice.v1.notifications.list({ excludeTypes: ['mention'] });
  assert.ok(noMentions.every((n) => n.type !== 'mention'));
  await alice.v1.notifications.$select(mention.id).dismiss();
  assert.ok(!(await alice.v1.notifications.list()).some((n) => n.id === mention.id));
  await alice.v1.notifications.clear();
  assert.deepEqual(await alice.v1.notifications.list(), []);
});

test('status notifications: follow with notify tells of each post one may see, once; notify=false stops', async () => {
  const bobId = (await bob.v1.accounts.verifyCredentials()).id;
  const carolId = (await carol.v1.accounts.verifyCredentials()).id;
  const subscribed = await carol.v1.accounts.$select(bobId).follow({ notify: true });
  assert.equal(subscribed.notifying, true);
  assert.equal((await carol.v1.accounts.relationships.fetch({ id: [bobId] }))[0]?.notifying, true);
  const before = (await carol.v1.notifications.list({ types: ['status'] })).length;

  const fresh = await bob.v1.statuses.create({ status: 'Fresh bread today', visibility: 'public' });
  await bob.v1.statuses.create({ status: '@alice a secret for you', visibility: 'direct' });
  const mentioning = await bob.v1.statuses.create({ status: '@carol your bread is ready' });
  await bob.v1.statuses.create({ status: 'a comment, not a post', inReplyToId: fresh.id });
  const told = await carol.v1.notifications.list({ types: ['status'] });
  assert.deepEqual(told.slice(0, told.length - before).map((n) => n.status?.id), [fresh.id], 'only the post carol may see and was not told of otherwise');
  assert.equal(told[0]?.account.id, bobId);
  const mentions = await carol.v1.notifications.list({ types: ['mention'] });
  assert.ok(mentions.some((n) => n.status?.id === mentioning.id), 'a mention stays a mention');
  // The other apps see it in the hub's own notifications too.
  const ext = await getJson(t, '/api/ext/notifications.json', { as: 'carol' });
  assert.ok((ext.body as Array<{ msg?: string; msg_plain?: string }>).some((n) => /posted/.test(n.msg_plain ?? n.msg ?? '')));

  const stopped = await carol.v1.accounts.$select(bobId).follow({ notify: false });
  assert.equal(stopped.notifying, false);
  await bob.v1.statuses.create({ status: 'More bread', visibility: 'public' });
  assert.equal((await carol.v1.notifications.list({ types: ['status'] })).length, told.length);
  // Asking to hear of nobody's posts but one's own connections changes nothing else.
  assert.equal((await bob.v1.accounts.relationships.fetch({ id: [carolId] }))[0]?.notifying, false);
});

test('markers, search, preferences, custom emojis, filters, instance', async () => {
  const saved = await alice.v1.markers.create({ home: { lastReadId: '5' } });
  assert.equal(saved.home?.lastReadId, '5');
  const markers = await alice.v1.markers.fetch({ timeline: ['home', 'notifications'] });
  assert.equal(markers.home?.lastReadId, '5');
  assert.equal(markers.home?.version, 1);
  await alice.v1.statuses.create({ status: 'searchable kumquat text' });
  const found = await bob.v2.search.list({ q: 'kumquat' });
  assert.equal(found.statuses.length, 1);
  const people = await bob.v2.search.list({ q: 'car', type: 'accounts' });
  assert.deepEqual(people.accounts.map((a) => a.acct), ['carol']);
  const tags = await bob.v2.search.list({ q: 'hea', type: 'hashtags' });
  assert.deepEqual(tags.hashtags.map((h) => h.name), ['hearth']);
  assert.equal((await alice.v1.preferences.fetch())['posting:default:visibility'], 'public');
  assert.deepEqual(await alice.v1.customEmojis.list(), []);
  assert.deepEqual(await alice.v2.filters.list(), []);
  const instance = await alice.v2.instance.fetch();
  assert.match(instance.version, /^4\.3\.0/);
  // The default visibility is a setting of the channel, used when a post names none.
  const updated = await carol.v1.accounts.updateCredentials({ source: { privacy: 'private' } });
  assert.equal(updated.source?.privacy, 'private');
  assert.equal((await carol.v1.preferences.fetch())['posting:default:visibility'], 'private');
  assert.equal((await carol.v1.statuses.create({ status: 'for my connections' })).visibility, 'private');
});
