import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { bearerFetch, mastodonToken, registerMastodonApp, tokenRequest } from '../helpers/mastodon.js';

// From the attacker's side of the Mastodon API: private and direct posts never reach anyone outside
// their audience on any endpoint; a token acts only for the channel it was approved for; scopes hold.

let t: TestHub;
type Api = ReturnType<typeof bearerFetch>;
let alice: Api;
let bob: Api;
let carol: Api;
let aliceRead: Api;
const anon: Api = (path, init = {}) => fetch(t.url + path, init);
const SECRET_PRIVATE = 'private-plum-4417';
const SECRET_DIRECT = 'direct-damson-9902';
let privateId = '';
let directId = '';
let replyId = '';

async function json(api: Api, path: string, init: RequestInit & { json?: unknown } = {}): Promise<{ status: number; body: any; text: string }> {
  const res = await api(path, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

before(async () => {
  t = await startHub({ channels: ['alice'] });
  await t.addChannel('alicework');
  await t.addChannel('bob');
  await t.addChannel('carol');
  const s = await webLogin(t, 'alice');
  alice = bearerFetch(t, await mastodonToken(t, s, { channel: 'alice' }));
  aliceRead = bearerFetch(t, await mastodonToken(t, s, { channel: 'alice', scope: 'read' }));
  bob = bearerFetch(t, await mastodonToken(t, s, { channel: 'bob' }));
  carol = bearerFetch(t, await mastodonToken(t, s, { channel: 'carol' }));
  // bob and alice are connected; carol follows nobody and nobody follows carol.
  const aliceId = (await json(bob, '/api/v1/accounts/lookup?acct=alice')).body.id;
  const bobId = (await json(alice, '/api/v1/accounts/lookup?acct=bob')).body.id;
  await json(bob, `/api/v1/accounts/${aliceId}/follow`, { method: 'POST' });
  await json(alice, `/api/v1/follow_requests/${bobId}/authorize`, { method: 'POST' });
  privateId = (await json(alice, '/api/v1/statuses', { method: 'POST', json: { status: `${SECRET_PRIVATE} #secrettag`, visibility: 'private' } })).body.id;
  directId = (await json(alice, '/api/v1/statuses', { method: 'POST', json: { status: `@bob ${SECRET_DIRECT} #secrettag`, visibility: 'direct' } })).body.id;
  replyId = (await json(bob, '/api/v1/statuses', { method: 'POST', json: { status: `re ${SECRET_DIRECT}`, in_reply_to_id: directId } })).body.id;
  await json(bob, `/api/v1/statuses/${directId}/favourite`, { method: 'POST' });
});
after(() => t.stop());

test('the audience sees private and direct posts', async () => {
  const p = await json(bob, `/api/v1/statuses/${privateId}`);
  assert.equal(p.status, 200);
  assert.equal(p.body.visibility, 'private');
  const d = await json(bob, `/api/v1/statuses/${directId}`);
  assert.equal(d.body.visibility, 'direct');
  const conv = await json(bob, '/api/v1/conversations');
  assert.ok(conv.body.some((c: { last_status: { id: string } }) => c.last_status.id === directId));
  assert.ok(replyId);
});

test('outside the audience: no endpoint shows a private or direct post, nor what answers it', async () => {
  const aliceId = (await json(carol, '/api/v1/accounts/lookup?acct=alice')).body.id;
  const paths = [
    `/api/v1/statuses/${privateId}`, `/api/v1/statuses/${directId}`, `/api/v1/statuses/${replyId}`,
    `/api/v1/statuses/${directId}/context`, `/api/v1/statuses/${replyId}/context`, `/api/v1/statuses/${privateId}/context`,
    `/api/v1/statuses/${directId}/favourited_by`, `/api/v1/statuses/${directId}/reblogged_by`, `/api/v1/statuses/${directId}/history`,
    `/api/v1/statuses/${directId}/source`,
    '/api/v1/timelines/home', '/api/v1/timelines/public', '/api/v1/timelines/public?local=true', '/api/v1/timelines/tag/secrettag',
    `/api/v1/accounts/${aliceId}/statuses`, `/api/v1/accounts/${aliceId}/statuses?pinned=true`, `/api/v1/accounts/${aliceId}/statuses?only_media=true`,
    '/api/v1/conversations', '/api/v1/notifications', '/api/v1/bookmarks', '/api/v1/favourites',
    `/api/v2/search?q=${SECRET_PRIVATE}`, `/api/v2/search?q=${SECRET_DIRECT}`, '/api/v2/search?q=damson&type=statuses',
  ];
  let asked = 0;
  for (const [who, api] of [['carol', carol], ['anonymous', anon]] as const) {
    for (const path of paths) {
      const r = await json(api, path);
      asked++;
      assert.ok(![SECRET_PRIVATE, SECRET_DIRECT].some((s) => r.text.includes(s)), `${who} ${path} leaks: ${r.text.slice(0, 200)}`);
      assert.ok(r.status === 200 || r.status === 404 || r.status === 401, `${who} ${path}: ${r.status}`);
    }
  }
  assert.equal(asked, paths.length * 2);
  // Acting on them is as if they did not exist.
  for (const action of ['favourite', 'reblog', 'bookmark', 'pin']) {
    assert.equal((await json(carol, `/api/v1/statuses/${directId}/${action}`, { method: 'POST' })).status, 404, action);
  }
  assert.equal((await json(carol, '/api/v1/statuses', { method: 'POST', json: { status: 'sneaking in', in_reply_to_id: directId } })).status, 404);
  assert.equal((await json(carol, `/api/v1/statuses/${directId}`, { method: 'DELETE' })).status, 404);
  assert.equal((await json(carol, `/api/v1/statuses/${directId}`, { method: 'PUT', json: { status: 'mine now' } })).status, 404);
  assert.equal((await json(bob, `/api/v1/statuses/${directId}`, { method: 'PUT', json: { status: 'mine now' } })).status, 404, 'the audience cannot edit either');
});

test('a private post leaves out the channels that connect later', async () => {
  // DESIGN leaves this open; the Mastodon API takes the audience when the post is written.
  const carolId = (await json(alice, '/api/v1/accounts/lookup?acct=carol')).body.id;
  await json(alice, `/api/v1/accounts/${carolId}/follow`, { method: 'POST' });
  const r = await json(carol, `/api/v1/statuses/${privateId}`);
  assert.equal(r.status, 404);
});

test('a token for one channel cannot act as another channel of the same account', async () => {
  const asWork = await json(alice, '/api/v1/accounts/verify_credentials?channel=alicework');
  assert.equal(asWork.status, 403);
  const post = await json(alice, '/api/v1/statuses?channel=alicework', { method: 'POST', json: { status: 'as work' } });
  assert.equal(post.status, 403);
  const form = await alice('/api/v1/statuses', { method: 'POST', body: new URLSearchParams({ status: 'as work', channel: 'alicework' }) });
  assert.equal(form.status, 403);
  const same = await json(alice, '/api/v1/accounts/verify_credentials?channel=alice');
  assert.equal(same.body.acct, 'alice');
  // A bearer token means nothing to the other APIs (they never take it for a login).
  const compat = await alice('/api/account/verify_credentials.json');
  assert.equal(compat.status, 401);
  // Deleting bob's post is refused.
  const bobPost = (await json(bob, '/api/v1/statuses', { method: 'POST', json: { status: 'bob public' } })).body.id;
  assert.equal((await json(alice, `/api/v1/statuses/${bobPost}`, { method: 'DELETE' })).status, 404);
});

test('a read-only token cannot write; an app token has no channel; bad tokens are 401 where a user is needed', async () => {
  assert.equal((await json(aliceRead, '/api/v1/timelines/home')).status, 200);
  const post = await json(aliceRead, '/api/v1/statuses', { method: 'POST', json: { status: 'nope' } });
  assert.equal(post.status, 403);
  assert.deepEqual(post.body, { error: 'This action is outside the authorized scopes' });
  for (const path of [`/api/v1/statuses/${privateId}/favourite`, '/api/v1/lists', '/api/v1/notifications/clear', '/api/v2/media']) {
    assert.equal((await json(aliceRead, path, { method: 'POST' })).status, 403, path);
  }
  assert.equal((await json(aliceRead, '/api/v1/accounts/update_credentials', { method: 'PATCH', json: { note: 'x' } })).status, 403);
  const app = await registerMastodonApp(t, { scopes: 'read' });
  const cc = (await (await tokenRequest(t, { grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret })).json()).access_token;
  assert.equal((await json(bearerFetch(t, cc), '/api/v1/timelines/home')).status, 401);
  const pub = await json(bearerFetch(t, cc), '/api/v1/timelines/public');
  assert.ok(!pub.text.includes(SECRET_PRIVATE));
  // A made-up token counts as none, as on Mastodon: a public route answers as to anyone, never more.
  const bad = await json(bearerFetch(t, 'made-up'), '/api/v1/timelines/public');
  assert.equal(bad.status, 200);
  assert.equal(bad.text, (await json(anon, '/api/v1/timelines/public')).text);
  assert.equal((await json(bearerFetch(t, 'made-up'), '/api/v1/timelines/home')).status, 401);
  // An app limited to read cannot be approved for more.
  const s = await webLogin(t, 'alice');
  const page = await s.get(`/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=urn:ietf:wg:oauth:2.0:oob&scope=write`);
  assert.equal(page.status, 400);
});

test('an unlisted post stays out of every public timeline, in every API, yet is shown on the profile and by link', async () => {
  const marker = 'unlisted-quince-5120';
  const id = (await json(alice, '/api/v1/statuses', { method: 'POST', json: { status: `${marker} #quincetag`, visibility: 'unlisted' } })).body.id;
  const listed = (await json(alice, '/api/v1/statuses', { method: 'POST', json: { status: 'listed-medlar-5121', visibility: 'public' } })).body.id;
  for (const path of ['/api/v1/timelines/public', '/api/v1/timelines/public?local=true', '/api/v1/timelines/tag/quincetag']) {
    for (const api of [carol, anon]) {
      const r = await json(api, path);
      assert.equal(r.status, 200, path);
      assert.ok(!r.text.includes(marker), `${path} lists the unlisted post`);
    }
  }
  assert.ok((await json(carol, '/api/v1/timelines/public')).text.includes('listed-medlar-5121'), 'a public post is listed');
  for (const path of ['/api/statuses/public_timeline.json', '/api/statuses/networkpublic_timeline.json', '/api/statuses/public_timeline.xml', '/api/statuses/public_timeline.atom']) {
    const res = await t.request(path, { as: 'carol' });
    const text = await res.text();
    assert.equal(res.status, 200, path);
    assert.ok(!text.includes(marker), `${path} lists the unlisted post`);
  }
  // Unlisted is not private: the author's page and its own URL still show it.
  const aliceId = (await json(carol, '/api/v1/accounts/lookup?acct=alice')).body.id;
  assert.ok((await json(carol, `/api/v1/accounts/${aliceId}/statuses`)).text.includes(marker));
  const shown = await json(anon, `/api/v1/statuses/${id}`);
  assert.equal(shown.status, 200);
  assert.equal(shown.body.visibility, 'unlisted');
  assert.ok(listed);
});
