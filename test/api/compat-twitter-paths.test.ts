import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, basic, type TestHub } from '../helpers/hub.js';
import { call, fails, ok } from '../helpers/compat.js';
import { form, makeImage } from '../helpers/media.js';

/** The Twitter v1.1 paths Friendica lacks, and media uploads: what clients send wrong gets a clear 4xx. */
let t: TestHub;
let png: Buffer;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave'] });
  await ok(t, '/api/friendships/create.json', { as: 'alice', form: { screen_name: 'bob' } });
  await ok(t, '/api/friendships/create.json', { as: 'bob', form: { screen_name: 'alice' } });
  png = await makeImage(30, 20, 'png');
});
after(() => t.stop());

const post = (as: string, fields: Record<string, string>) => ok(t, '/api/statuses/update.json', { as, form: fields });
const userId = async (nick: string) => (await ok(t, `/api/users/show.json?screen_name=${nick}`)).id as number;

/** A raw multipart body, to send parts exactly as some libraries do. */
function multipart(parts: { headers: string[]; data: Buffer | string }[]): { body: Buffer; type: string } {
  const boundary = 'xXxBoundaryxXx';
  const chunks = parts.flatMap((p) => [Buffer.from(`--${boundary}\r\n${p.headers.join('\r\n')}\r\n\r\n`), Buffer.from(p.data), Buffer.from('\r\n')]);
  return { body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

test('media/upload: a file part without Content-Type is a file; media_data in base64; bad base64 is 400', async () => {
  const m = multipart([{ headers: ['Content-Disposition: form-data; name="media"; filename="x.png"'], data: png }]);
  const res = await t.request('/api/media/upload.json', { as: 'alice', method: 'POST', body: new Uint8Array(m.body), headers: { 'content-type': m.type } });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal((await res.json()).image.image_type, 'image/png');
  const b64 = await ok(t, '/api/media/upload.json', { as: 'alice', form: { media_data: png.toString('base64') } });
  assert.deepEqual([b64.image.w, b64.image.h], [30, 20]);
  assert.match(await fails(t, '/api/media/upload.json', 400, { as: 'alice', form: { media_data: 'not base64!' } }), /base64/);
  assert.match(await fails(t, '/api/media/upload.json', 400, { as: 'alice', form: { media_data: Buffer.from('plain text').toString('base64') } }), /image/);
});

test('media/upload in parts: INIT answers the id FINALIZE and statuses/update use; STATUS reports it', async () => {
  const init = await ok(t, '/api/1.1/media/upload.json', { as: 'alice', form: { command: 'INIT', total_bytes: String(png.length), media_type: 'image/png' } });
  const half = Math.ceil(png.length / 2);
  // Parts may come in any order; a part sent again replaces the first.
  for (const [index, part] of [[1, png.subarray(half)], [0, Buffer.alloc(3)], [0, png.subarray(0, half)]] as const) {
    const res = await t.request('/api/1.1/media/upload.json', { as: 'alice', method: 'POST', body: form({ command: 'APPEND', media_id: init.media_id_string, segment_index: String(index) }, { media: { data: part, name: 'blob' } }) });
    assert.equal(res.status, 204, await res.text());
  }
  const done = await ok(t, '/api/1.1/media/upload.json', { as: 'alice', form: { command: 'FINALIZE', media_id: init.media_id_string } });
  assert.deepEqual([done.media_id, done.size, done.image.w], [init.media_id, png.length, 30]);
  const status = await ok(t, `/api/1.1/media/upload.json?command=STATUS&media_id=${init.media_id}`, { as: 'alice' });
  assert.equal(status.processing_info.state, 'succeeded');
  const s = await post('alice', { status: 'in parts', media_ids: init.media_id_string });
  assert.equal(s.entities.media[0].id, init.media_id);
  await fails(t, `/api/1.1/media/upload.json?command=STATUS&media_id=${init.media_id}`, 404, { as: 'bob' });
});

test('media/upload in parts refuses what does not add up, and other channels\' uploads', async () => {
  const u = (as: string, fields: Record<string, string>) => call(t, '/api/media/upload.json', { as, form: fields });
  const append = (as: string, id: string, index: string, data: Buffer) =>
    t.request('/api/media/upload.json', { as, method: 'POST', body: form({ command: 'APPEND', media_id: id, segment_index: index }, { media: { data, name: 'blob' } }) });
  assert.equal((await u('alice', { command: 'INIT', media_type: 'image/png' })).status, 400);
  assert.equal((await u('alice', { command: 'INIT', total_bytes: '10' })).status, 400);
  assert.equal((await u('alice', { command: 'INIT', total_bytes: String(10 ** 12), media_type: 'image/png' })).status, 400);
  assert.equal((await u('alice', { command: 'STRETCH' })).status, 400);
  assert.equal((await call(t, '/api/media/upload.json', { as: 'alice' })).status, 400, 'GET is for STATUS only');
  const id = (await u('alice', { command: 'INIT', total_bytes: String(png.length), media_type: 'image/png' })).body.media_id_string;
  assert.equal((await append('bob', id, '0', png)).status, 404, "bob cannot add to alice's upload");
  assert.equal((await append('alice', id, '1000', png)).status, 400);
  assert.equal((await append('alice', '99999999', '0', png)).status, 404);
  assert.equal((await append('alice', id, '0', Buffer.concat([png, png]))).status, 400, 'more than total_bytes');
  assert.equal((await append('alice', id, '1', png.subarray(0, 10))).status, 204);
  assert.match(await fails(t, '/api/media/upload.json', 400, { as: 'alice', form: { command: 'FINALIZE', media_id: id } }), /segment 0 is missing/);
  assert.equal((await append('alice', id, '0', png.subarray(10, 20))).status, 204);
  assert.match(await fails(t, '/api/media/upload.json', 400, { as: 'alice', form: { command: 'FINALIZE', media_id: id } }), /received 20 of/);
  const junk = (await u('alice', { command: 'INIT', total_bytes: '5', media_type: 'image/png' })).body.media_id_string;
  assert.equal((await append('alice', junk, '0', Buffer.from('hello'))).status, 204);
  assert.match(await fails(t, '/api/media/upload.json', 400, { as: 'alice', form: { command: 'FINALIZE', media_id: junk } }), /image/);
  await fails(t, '/api/media/upload.json', 404, { as: 'alice', form: { command: 'FINALIZE', media_id: junk } });
  await fails(t, '/api/statuses/update.json', 400, { as: 'alice', form: { status: 'x', media_ids: junk } });
  // At most 20 uploads in progress per channel.
  for (let i = 0; i < 20; i++) assert.equal((await u('carol', { command: 'INIT', total_bytes: '10', media_type: 'image/png' })).status, 200);
  assert.match(await fails(t, '/api/media/upload.json', 400, { as: 'carol', form: { command: 'INIT', total_bytes: '10', media_type: 'image/png' } }), /in progress/);
  assert.equal((await u('dave', { command: 'INIT', total_bytes: '10', media_type: 'image/png' })).status, 200, 'other channels are not held back');
});

test('direct_messages/events: Twitter\'s JSON body; one id for both sides; paging; a clear 4xx for bad events', async () => {
  const bob = await userId('bob');
  const json = (as: string, body: unknown, path = '/api/1.1/direct_messages/events/new.json') =>
    t.request(path, { as, method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const event = (text: string, recipient: unknown = String(bob)) => ({ event: { type: 'message_create', message_create: { target: { recipient_id: recipient }, message_data: { text } } } });
  const sent = [];
  for (const text of ['one #x', 'two', 'three']) {
    const res = await json('alice', event(text));
    assert.equal(res.status, 200);
    sent.push((await res.json()).event);
  }
  assert.deepEqual(sent[0].message_create.message_data.entities.hashtags, [{ text: 'x', indices: [4, 6] }]);
  assert.equal(sent[0].message_create.sender_id, String(await userId('alice')));
  assert.match(sent[0].created_timestamp, /^\d{13}$/);
  const page1 = await ok(t, '/api/1.1/direct_messages/events/list.json?count=2', { as: 'bob' });
  assert.deepEqual(page1.events.map((e: any) => e.message_create.message_data.text), ['three', 'two'], "bob sees them under alice's ids");
  assert.deepEqual(page1.events.map((e: any) => e.id), [sent[2].id, sent[1].id]);
  const page2 = await ok(t, `/api/1.1/direct_messages/events/list.json?count=2&cursor=${page1.next_cursor}`, { as: 'bob' });
  assert.deepEqual(page2.events.map((e: any) => e.id), [sent[0].id]);
  assert.equal('next_cursor' in page2, false);
  const del = await t.request(`/api/1.1/direct_messages/events/destroy.json?id=${sent[0].id}`, { as: 'alice', method: 'DELETE' });
  assert.equal(del.status, 204);
  await fails(t, `/api/1.1/direct_messages/events/show.json?id=${sent[0].id}`, 404, { as: 'alice' });
  assert.equal((await ok(t, `/api/1.1/direct_messages/events/show.json?id=${sent[0].id}`, { as: 'bob' })).event.id, sent[0].id, 'bob keeps his copy');

  for (const [body, status] of [['{"event":', 400], [{}, 400], [{ event: { type: 'typing' } }, 400], [event('x', 'bob'), 400], [event('   '), 400],
    [event('x', '99999999'), 404], [event('x', String(await userId('alice'))), 400],
    [{ event: { type: 'message_create', message_create: { target: { recipient_id: String(bob) }, message_data: { text: 'x', attachment: { type: 'media', media: { id: '1' } } } } } }, 400]] as const) {
    assert.equal((await json('alice', body)).status, status, JSON.stringify(body));
  }
  assert.equal((await json('alice', event('as a number', bob))).status, 200, 'recipient_id may be a number');
  const asForm = await call(t, '/api/direct_messages/events/new.json', { as: 'alice', form: { 'event[type]': 'message_create', 'event[message_create][target][recipient_id]': String(bob), 'event[message_create][message_data][text]': 'form fields' } });
  assert.equal(asForm.status, 200, asForm.text);
  await fails(t, '/api/direct_messages/events/show.json', 400, { as: 'alice' });
  await fails(t, '/api/direct_messages/events/list.json?cursor=abc', 400, { as: 'alice' });
});

test('lists: members must be connections; slug with the owner; other users\' lists stay private', async () => {
  const list = await ok(t, '/api/lists/create.json', { as: 'alice', form: { name: 'Book Club' } });
  assert.equal(list.slug, 'book-club');
  await fails(t, '/api/lists/members/create.json', 400, { as: 'alice', form: { list_id: list.id_str, screen_name: 'dave' } });
  await fails(t, '/api/lists/members/create.json', 404, { as: 'bob', form: { list_id: list.id_str, screen_name: 'alice' } });
  await fails(t, '/api/lists/members/create.json', 400, { as: 'alice', form: { list_id: list.id_str } });
  assert.equal((await ok(t, '/api/lists/show.json?slug=book-club&owner_screen_name=alice', { as: 'alice' })).id, list.id);
  await fails(t, '/api/lists/show.json?slug=book-club&owner_screen_name=bob', 403, { as: 'alice' });
  await fails(t, '/api/lists/show.json?slug=nothing', 404, { as: 'alice' });
  await fails(t, '/api/lists/show.json', 400, { as: 'alice' });
  assert.deepEqual(await ok(t, '/api/lists/members.json?slug=book-club', { as: 'alice' }), { users: [], next_cursor: 0, next_cursor_str: '0', previous_cursor: 0, previous_cursor_str: '0', total_count: 0 });
});

test('statuses/lookup, retweets and unretweet', async () => {
  const pub = await post('bob', { status: 'public from bob' });
  const secret = await post('carol', { status: 'carol only', 'contact_allow[]': '0' }).catch(() => undefined);
  const mapped = await ok(t, `/api/statuses/lookup.json?id=${pub.id},99999&map=true`, { as: 'alice' });
  assert.deepEqual(Object.keys(mapped.id), [String(pub.id), '99999']);
  assert.equal(mapped.id['99999'], null);
  await fails(t, '/api/statuses/lookup.json?id=abc', 400, { as: 'alice' });
  await fails(t, `/api/statuses/lookup.json?id=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, 400, { as: 'alice' });
  assert.deepEqual(await ok(t, '/api/statuses/lookup.json', { as: 'alice' }), []);
  void secret;

  const rt = await ok(t, `/api/statuses/retweet/${pub.id}.json`, { as: 'alice', method: 'POST' });
  assert.equal(rt.retweeted, true);
  const counted = await ok(t, `/api/statuses/show/${pub.id}.json`, { as: 'carol' });
  assert.deepEqual([counted.retweet_count, counted.retweeted], [1, false], 'counted for everyone, retweeted only for alice');
  assert.deepEqual((await ok(t, `/api/statuses/retweets/${pub.id}.json?count=5`, { as: 'carol' })).map((s: any) => s.id), [rt.id]);
  const undone = await ok(t, `/api/statuses/unretweet/${rt.id}.json`, { as: 'alice', method: 'POST' });
  assert.deepEqual([undone.id, undone.retweeted, undone.retweet_count], [pub.id, false, 0], "named by the retweet's own id, answers the original");
  assert.equal((await ok(t, `/api/statuses/unretweet/${pub.id}.json`, { as: 'alice', method: 'POST' })).retweeted, false, 'nothing to undo is fine');
  await fails(t, '/api/statuses/unretweet.json', 400, { as: 'alice', method: 'POST' });
  await fails(t, '/api/statuses/retweets/99999.json', 404, { as: 'alice' });
});

test('friendships/lookup, rate limits, settings, configuration', async () => {
  const rel = await ok(t, '/api/friendships/lookup.json?screen_name=bob,dave,nobody', { as: 'alice' });
  assert.deepEqual(rel.map((r: any) => [r.screen_name, r.connections]), [['bob', ['following', 'followed_by']], ['dave', ['none']]]);
  await fails(t, '/api/friendships/lookup.json', 400, { as: 'alice' });
  const limits = await ok(t, '/api/application/rate_limit_status.json?resources=statuses,lists', { as: 'alice' });
  assert.deepEqual(Object.keys(limits.resources).sort(), ['lists', 'statuses']);
  assert.equal(limits.resources.statuses['/statuses/show/:id'].remaining, limits.resources.statuses['/statuses/show/:id'].limit);
  const settings = await ok(t, '/api/account/settings.json', { as: 'bob' });
  assert.deepEqual([settings.screen_name, settings.time_zone.name, settings.protected], ['bob', 'UTC', false]);
  assert.equal((await ok(t, '/api/help/configuration.json', { as: 'bob' })).photo_size_limit, t.hub.limits.maxUploadBytes);
  const anonymous = await fetch(`${t.url}/api/help/configuration.json`);
  assert.equal(anonymous.status, 401);
  assert.equal((await fetch(`${t.url}/api/help/test.xml`, { headers: { authorization: basic('bob') } }).then((r) => r.text())).includes('<ok>true</ok>'), true);
});
