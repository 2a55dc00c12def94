import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { CallResult, ClientHub } from '../helpers/client-hub.js';
import { obtainAccessTokenAt } from '../helpers/client-oauth.js';

/**
 * The npm `twitter` package, unchanged, against the hub: the same ground as the Python scenarios.
 * It has no OAuth dance of its own; its tokens come from the dance the test does as a client would.
 * Its `rest_base` and `media_base` options point it at the hub.
 */
const require = createRequire(import.meta.url);
type Client = { get(path: string, params?: object): Promise<any>; post(path: string, params?: object): Promise<any> };
const Twitter = require('twitter') as new (opts: Record<string, unknown>) => Client;

export async function runTwitterNpmScenario(h: ClientHub, tag: string): Promise<CallResult[]> {
  const results: CallResult[] = [];
  const step = async <T>(call: string, fn: () => Promise<T>, detail?: (v: T) => string): Promise<T | undefined> => {
    try {
      const v = await fn();
      results.push({ call, ok: true, detail: detail ? detail(v) : null });
      return v;
    } catch (err) {
      const e = err as Error | { message: string }[];
      results.push({ call, ok: false, error: Array.isArray(e) ? JSON.stringify(e) : `${(e as Error).message}`, trace: (e as Error).stack });
      return undefined;
    }
  };
  const app = await h.browser.registerApp('npm twitter', 'https://client.example/npm');
  const token = await step('OAuth 1.0a dance (request_token, authorize, access_token) for the client', () => obtainAccessTokenAt(h, app), (tk) => `screen_name ${tk.screen_name}`);
  if (!token) return results;
  const client = new Twitter({
    consumer_key: app.key, consumer_secret: app.secret, access_token_key: token.key, access_token_secret: token.secret,
    rest_base: `${h.base}/api/1.1`, media_base: `${h.base}/api/1.1`, request_options: h.cert ? { ca: h.cert.cert } : {},
  });
  const ids = (list: { id: number }[]) => list.map((s) => s.id);
  const bob = h.ids.bob;
  const bobStatus = h.bobStatus;

  await step('get account/verify_credentials', async () => {
    const me = await client.get('account/verify_credentials', {});
    assert.equal(me.screen_name, 'alice');
    assert.ok(!('self' in me));
  });
  const text = `${tag} says hi to @bob about #hearthtag`;
  const first = await step('post statuses/update', async () => {
    const st = await client.post('statuses/update', { status: text });
    assert.equal(st.text, text);
    const [start, end] = st.entities.hashtags[0].indices;
    assert.equal([...st.text].slice(start, end).join(''), '#hearthtag');
    return st;
  }, (st) => `id ${st.id_str}`);
  const reply = await step('post statuses/update (in_reply_to_status_id)', async () => {
    const st = await client.post('statuses/update', { status: `${tag} replies`, in_reply_to_status_id: first!.id_str });
    assert.equal(st.in_reply_to_status_id_str, first!.id_str);
    return st;
  });
  const withMedia = (st: any, mediaId?: string) => {
    assert.equal(st.entities.media.length, 1);
    assert.deepEqual(st.extended_entities.media, st.entities.media);
    if (mediaId) assert.equal(st.entities.media[0].id_str, mediaId);
    return st;
  };
  const multipart = await step('post media/upload (media)', () => client.post('media/upload', { media: h.imageBytes }), (m) => `media_id ${m.media_id_string}`);
  await step('post statuses/update (media_ids from media/upload)', async () => withMedia(await client.post('statuses/update', { status: `${tag} with a picture`, media_ids: multipart!.media_id_string }), multipart!.media_id_string));
  const b64 = await step('post media/upload (media_data, base64)', () => client.post('media/upload', { media_data: h.imageBytes.toString('base64') }), (m) => `media_id ${m.media_id_string}`);
  await step('post statuses/update (media_ids from media_data)', async () => withMedia(await client.post('statuses/update', { status: `${tag} base64 picture`, media_ids: b64!.media_id_string }), b64!.media_id_string));
  const chunked = await step('post media/upload INIT, APPEND x2, FINALIZE', async () => {
    const init = await client.post('media/upload', { command: 'INIT', total_bytes: String(h.imageBytes.length), media_type: 'image/png' });
    const half = Math.ceil(h.imageBytes.length / 2);
    for (const [i, part] of [h.imageBytes.subarray(0, half), h.imageBytes.subarray(half)].entries()) {
      await client.post('media/upload', { command: 'APPEND', media_id: init.media_id_string, segment_index: String(i), media: Buffer.from(part) });
    }
    const fin = await client.post('media/upload', { command: 'FINALIZE', media_id: init.media_id_string });
    assert.equal(fin.media_id_string, init.media_id_string, 'FINALIZE answers the id INIT gave');
    return fin;
  }, (m) => `media_id ${m.media_id_string}`);
  await step('get media/upload STATUS', async () => assert.equal((await client.get('media/upload', { command: 'STATUS', media_id: chunked!.media_id_string })).processing_info.state, 'succeeded'));
  await step('post statuses/update (media_ids from the chunked upload)', async () => withMedia(await client.post('statuses/update', { status: `${tag} chunked picture`, media_ids: chunked!.media_id_string }), chunked!.media_id_string));
  await step('post statuses/update_with_media', async () => withMedia(await client.post('statuses/update_with_media', { status: `${tag} update_with_media`, media: h.imageBytes })));

  await step('get statuses/home_timeline', async () => assert.ok(ids(await client.get('statuses/home_timeline', { count: 50 })).includes(first!.id)));
  await step('get statuses/user_timeline', async () => assert.ok(ids(await client.get('statuses/user_timeline', { screen_name: 'alice', count: 50 })).includes(first!.id)));
  await step('get statuses/mentions_timeline', async () => assert.ok(ids(await client.get('statuses/mentions_timeline', { count: 50 })).includes(bobStatus)));
  await step('get statuses/show/:id', async () => assert.equal((await client.get(`statuses/show/${first!.id_str}`, {})).text, text));
  await step('get statuses/lookup', async () => assert.deepEqual(ids(await client.get('statuses/lookup', { id: `${first!.id_str},${bobStatus}` })).sort(), [first!.id, bobStatus].sort()));
  await step('post statuses/destroy/:id', async () => {
    assert.equal((await client.post(`statuses/destroy/${reply!.id_str}`, {})).id_str, reply!.id_str);
    await assert.rejects(client.get(`statuses/show/${reply!.id_str}`, {}), /404/);
  });

  const rt = await step('post statuses/retweet/:id', async () => {
    const st = await client.post(`statuses/retweet/${bobStatus}`, {});
    assert.equal(st.retweeted_status.id, bobStatus);
    assert.match(st.text, /^RT @bob: /);
    return st;
  }, (st) => st.text);
  await step('get statuses/retweets/:id', async () => assert.ok(ids(await client.get(`statuses/retweets/${bobStatus}`, {})).includes(rt!.id)));
  await step('post statuses/unretweet/:id', async () => assert.equal((await client.post(`statuses/unretweet/${bobStatus}`, {})).retweeted, false));
  await step('post favorites/create', async () => assert.equal((await client.post('favorites/create', { id: String(bobStatus) })).favorited, true));
  await step('get favorites/list', async () => assert.ok(ids(await client.get('favorites/list', {})).includes(bobStatus)));
  await step('post favorites/destroy', async () => assert.equal((await client.post('favorites/destroy', { id: String(bobStatus) })).favorited, false));

  const dmText = `${tag} direct message, exactly this`;
  // The package posts forms only, and signs nested form fields wrongly (its OAuth signer flattens one
  // level and signs "[object Object]" below): the event goes as one form field holding its JSON.
  const dm = await step('post direct_messages/events/new (the event JSON in a form field)', async () => {
    const answer = await client.post('direct_messages/events/new', { event: JSON.stringify({ type: 'message_create', message_create: { target: { recipient_id: String(bob) }, message_data: { text: dmText } } }) });
    assert.equal(answer.event.message_create.message_data.text, dmText);
    return answer.event;
  }, (e) => `id ${e.id}`);
  await step('get direct_messages/events/list', async () => assert.ok((await client.get('direct_messages/events/list', {})).events.some((e: any) => e.id === dm!.id)));
  await step('get direct_messages/events/show', async () => assert.equal((await client.get('direct_messages/events/show', { id: dm!.id })).event.message_create.message_data.text, dmText));
  await step('post direct_messages/events/destroy', () => client.post('direct_messages/events/destroy', { id: dm!.id }));
  const legacy = await step('post direct_messages/new', async () => {
    const sent = await client.post('direct_messages/new', { screen_name: 'bob', text: dmText });
    assert.equal(sent.text, dmText);
    return sent;
  });
  await step('get direct_messages/sent', async () => assert.ok(ids(await client.get('direct_messages/sent', {})).includes(legacy!.id)));
  await step('get direct_messages', async () => assert.ok((await client.get('direct_messages', {})).some((d: any) => d.sender_screen_name === 'bob')));

  await step('post friendships/create', async () => assert.equal((await client.post('friendships/create', { screen_name: 'carol' })).screen_name, 'carol'));
  await step('get friendships/show', async () => assert.equal((await client.get('friendships/show', { source_screen_name: 'alice', target_screen_name: 'carol' })).relationship.source.following, true));
  await step('get friendships/lookup', async () => {
    const rel = await client.get('friendships/lookup', { screen_name: 'bob,carol' });
    assert.deepEqual(rel.find((r: any) => r.screen_name === 'bob').connections.sort(), ['followed_by', 'following']);
  });
  await step('post friendships/destroy', async () => assert.equal((await client.post('friendships/destroy', { screen_name: 'carol' })).screen_name, 'carol'));
  await step('get friends/ids', async () => assert.ok((await client.get('friends/ids', {})).ids.includes(bob)));
  await step('get followers/ids', async () => assert.ok((await client.get('followers/ids', {})).ids.includes(bob)));
  await step('get friends/list', async () => assert.ok((await client.get('friends/list', {})).users.some((u: any) => u.screen_name === 'bob')));
  await step('get followers/list', async () => assert.ok((await client.get('followers/list', {})).users.some((u: any) => u.screen_name === 'bob')));
  await step('get users/show', async () => assert.equal((await client.get('users/show', { screen_name: 'bob' })).id, bob));
  await step('get users/lookup', async () => assert.deepEqual((await client.get('users/lookup', { screen_name: 'bob' })).map((u: any) => u.id), [bob]));
  await step('get users/search', async () => assert.ok((await client.get('users/search', { q: 'bob' })).some((u: any) => u.id === bob)));
  await step('get search/tweets', async () => assert.ok(ids((await client.get('search/tweets', { q: tag, count: 50 })).statuses).includes(first!.id)));

  const list = await step('post lists/create', () => client.post('lists/create', { name: `${tag} list` }), (l) => `id ${l.id_str}`);
  await step('get lists/list', async () => assert.ok((await client.get('lists/list', {})).some((l: any) => l.id === list!.id)));
  await step('get lists/show', async () => assert.equal((await client.get('lists/show', { list_id: list!.id_str })).name, `${tag} list`));
  await step('post lists/update', async () => assert.equal((await client.post('lists/update', { list_id: list!.id_str, name: `${tag} renamed` })).name, `${tag} renamed`));
  await step('post lists/members/create', async () => assert.equal((await client.post('lists/members/create', { list_id: list!.id_str, screen_name: 'bob' })).member_count, 1));
  await step('get lists/members', async () => assert.deepEqual((await client.get('lists/members', { list_id: list!.id_str })).users.map((u: any) => u.id), [bob]));
  await step('get lists/statuses', async () => assert.ok(ids(await client.get('lists/statuses', { list_id: list!.id_str })).includes(bobStatus)));
  await step('post lists/members/destroy', async () => assert.equal((await client.post('lists/members/destroy', { list_id: list!.id_str, screen_name: 'bob' })).member_count, 0));
  await step('get lists/ownerships', async () => assert.ok((await client.get('lists/ownerships', {})).lists.some((l: any) => l.id === list!.id)));
  await step('get lists/subscriptions', async () => assert.deepEqual((await client.get('lists/subscriptions', {})).lists, []));
  await step('post lists/destroy', async () => assert.equal((await client.post('lists/destroy', { list_id: list!.id_str })).id, list!.id));

  await step('get application/rate_limit_status', async () => assert.ok((await client.get('application/rate_limit_status', {})).resources.statuses['/statuses/home_timeline'].remaining > 0));
  await step('get account/settings', async () => assert.equal((await client.get('account/settings', {})).screen_name, 'alice'));
  await step('get help/configuration', async () => assert.ok((await client.get('help/configuration', {})).photo_sizes.large.w > 0));
  await step('get blocks/ids, mutes/users/ids', async () => {
    assert.deepEqual((await client.get('blocks/ids', {})).ids, []);
    assert.deepEqual((await client.get('mutes/users/ids', {})).ids, []);
  });
  return results;
}
