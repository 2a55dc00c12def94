import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRestAPIClient, createStreamingAPIClient, type mastodon } from 'masto';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { mastodonToken } from '../helpers/mastodon.js';
import { streamsOf } from '../../server/services/mastodon/streaming.js';

/** Waits until the hub has this many streams open (masto.js connects when first iterated). */
async function streamsOpen(n: number): Promise<void> {
  while (streamsOf(t.hub).streamCount < n) await new Promise((r) => setTimeout(r, 20));
}

/** Streaming over WebSocket with masto.js, and the SSE paths with fetch. */
let t: TestHub;
const tokens: Record<string, string> = {};
const rest: Record<string, mastodon.rest.Client> = {};
before(async () => {
  t = await startHub({ channels: ['alice'] });
  await t.addChannel('bob');
  await t.addChannel('carol');
  const s = await webLogin(t, 'alice');
  for (const nick of ['alice', 'bob', 'carol']) {
    tokens[nick] = await mastodonToken(t, s, { channel: nick });
    rest[nick] = createRestAPIClient({ url: t.url, accessToken: tokens[nick] });
  }
  const aliceId = (await rest.bob!.v1.accounts.lookup({ acct: 'alice' })).id;
  const bobId = (await rest.alice!.v1.accounts.lookup({ acct: 'bob' })).id;
  // They follow each other (neither approves followers by hand).
  await rest.bob!.v1.accounts.$select(aliceId).follow();
  await rest.alice!.v1.accounts.$select(bobId).follow();
});
after(() => t.stop());

/** Collects a stream's events into a list until told to stop. */
function collect(sub: AsyncIterable<mastodon.streaming.Event>): { events: mastodon.streaming.Event[]; until(pred: (e: mastodon.streaming.Event) => boolean): Promise<mastodon.streaming.Event> } {
  const events: mastodon.streaming.Event[] = [];
  const waiters: { pred: (e: mastodon.streaming.Event) => boolean; resolve: (e: mastodon.streaming.Event) => void }[] = [];
  void (async () => {
    for await (const e of sub) {
      events.push(e);
      for (const w of [...waiters]) if (w.pred(e)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(e); }
    }
  })().catch(() => undefined);
  return {
    events,
    until: (pred) => new Promise((resolve) => {
      const hit = events.find(pred);
      if (hit) return resolve(hit);
      waiters.push({ pred, resolve });
    }),
  };
}

test('WebSocket: user, public:local and hashtag streams get updates, notifications, edits and deletes', async () => {
  const streamOf = (nick: string) => createStreamingAPIClient({ streamingApiUrl: t.url.replace(/^http/, 'ws'), accessToken: tokens[nick], retry: false });
  const bobStream = streamOf('bob');
  const carolStream = streamOf('carol');
  const bobUser = collect(bobStream.user.subscribe());
  const bobPublic = collect(bobStream.public.local.subscribe());
  const carolUser = collect(carolStream.user.subscribe());
  const carolPublic = collect(carolStream.public.local.subscribe());
  const carolTag = collect(carolStream.hashtag.subscribe({ tag: 'news' }));
  const aliceNotes = collect(streamOf('alice').user.notification.subscribe());
  await streamsOpen(6);

  const pub = await rest.alice!.v1.statuses.create({ status: 'public #news' });
  const seen = await bobUser.until((e) => e.event === 'update' && e.payload.id === pub.id);
  assert.equal((seen.payload as mastodon.v1.Status).account.acct, 'alice');
  await bobPublic.until((e) => e.event === 'update' && e.payload.id === pub.id);
  await carolPublic.until((e) => e.event === 'update' && e.payload.id === pub.id);
  await carolTag.until((e) => e.event === 'update' && e.payload.id === pub.id);

  const priv = await rest.alice!.v1.statuses.create({ status: 'followers only', visibility: 'private' });
  const direct = await rest.alice!.v1.statuses.create({ status: '@bob just you', visibility: 'direct' });
  await bobUser.until((e) => e.event === 'update' && e.payload.id === priv.id);
  await bobUser.until((e) => e.event === 'update' && e.payload.id === direct.id);

  await rest.bob!.v1.statuses.$select(pub.id).favourite();
  const note = await aliceNotes.until((e) => e.event === 'notification');
  assert.equal((note.payload as mastodon.v1.Notification).type, 'favourite');

  await rest.alice!.v1.statuses.$select(pub.id).update({ status: 'public #news, edited' });
  await bobUser.until((e) => e.event === 'status.update' && e.payload.id === pub.id);
  await rest.alice!.v1.statuses.$select(pub.id).remove();
  await bobUser.until((e) => e.event === 'delete' && e.payload === pub.id);
  await carolPublic.until((e) => e.event === 'delete' && e.payload === pub.id);

  // A marker post after the private ones: when it reached carol, the private ones would have too.
  const last = await rest.alice!.v1.statuses.create({ status: 'public again' });
  await carolPublic.until((e) => e.event === 'update' && e.payload.id === last.id);
  for (const list of [carolUser.events, carolPublic.events, carolTag.events]) {
    assert.ok(!list.some((e) => e.event === 'update' && [priv.id, direct.id].includes(e.payload.id)), 'carol never gets the private or direct post');
  }
  assert.ok(!bobPublic.events.some((e) => e.event === 'update' && [priv.id, direct.id].includes(e.payload.id)), 'private posts stay off the public stream');
  bobStream.close();
  carolStream.close();
});

async function sseEvents(path: string, token: string | undefined, stopWhen: (events: { event: string; data: string }[]) => boolean, act: () => Promise<void>) {
  const ctl = new AbortController();
  const res = await fetch(t.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: ctl.signal });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const reader = res.body!.getReader();
  const events: { event: string; data: string }[] = [];
  let buf = '';
  await act();
  while (!stopWhen(events)) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += new TextDecoder().decode(value);
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data !== undefined) events.push({ event, data });
    }
  }
  ctl.abort();
  return events;
}

test('SSE: direct stream gets conversations for the audience only; the public stream needs no token', async () => {
  let directId = '';
  const events = await sseEvents('/api/v1/streaming/direct', tokens.bob, (e) => e.some((x) => x.event === 'conversation'), async () => {
    directId = (await rest.alice!.v1.statuses.create({ status: '@bob a secret', visibility: 'direct' })).id;
  });
  assert.equal(JSON.parse(events.find((e) => e.event === 'conversation')!.data).last_status.id, directId);
  let pubId = '';
  const pub = await sseEvents('/api/v1/streaming/public/local', undefined, (e) => e.some((x) => x.event === 'update' && JSON.parse(x.data).id === pubId), async () => {
    await rest.alice!.v1.statuses.create({ status: '@bob another secret', visibility: 'direct' });
    pubId = (await rest.alice!.v1.statuses.create({ status: 'for all' })).id;
  });
  assert.ok(!pub.some((e) => e.data.includes('another secret')));
  assert.equal((await fetch(`${t.url}/api/v1/streaming/user`)).status, 401);
  assert.equal((await fetch(`${t.url}/api/v1/streaming/user`, { headers: { authorization: 'Bearer wrong' } })).status, 401);
  assert.equal((await fetch(`${t.url}/api/v1/streaming/user?channel=carol`, { headers: { authorization: `Bearer ${tokens.bob}` } })).status, 403);
  assert.equal(await (await fetch(`${t.url}/api/v1/streaming/health`)).text(), 'OK');
});
