import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call, fails, ids, ok, parseXml } from '../helpers/compat.js';
import { form, makeImage } from '../helpers/media.js';
import { getItem } from '../../server/store/items.js';
import { VERB } from '../../server/services/verbs.js';

let t: TestHub;
let groupId = 0;

async function post(as: string, fields: Record<string, string | string[]>): Promise<any> {
  return ok(t, '/api/statuses/update.json', { as, form: fields });
}

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  await ok(t, '/api/friendships/create.json', { as: 'alice', form: { screen_name: 'bob' } });
  await ok(t, '/api/friendships/create.json', { as: 'bob', form: { screen_name: 'alice' } });
  groupId = (await ok(t, '/api/lists/create.json', { as: 'alice', form: { name: 'Team' } })).id;
});
after(() => t.stop());

test('statuses/update: text, title, source, coordinates; JSON and XML', async () => {
  const s = await post('alice', { status: 'Status content #hearth see https://example.org/x', title: 'A title', source: 'TestClient', lat: '48.5', long: '7.25' });
  assert.equal(typeof s.id, 'number');
  assert.equal(s.id_str, String(s.id));
  assert.equal(s.text, 'A title Status content #hearth see https://example.org/x');
  assert.equal(s.source, 'TestClient');
  assert.equal(s.friendica_title, 'A title');
  assert.match(s.statusnet_html, /^<h4>A title<\/h4>Status content #hearth/);
  assert.deepEqual(s.geo, { type: 'Point', coordinates: [48.5, 7.25] });
  assert.equal(s.user.screen_name, 'alice');
  assert.equal(s.friendica_private, false);
  assert.equal(s.in_reply_to_status_id, null);
  assert.match(s.created_at, /^\w{3} \w{3} \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/);
  assert.deepEqual(Object.keys(s.friendica_activities), ['like', 'dislike', 'attendyes', 'attendno', 'attendmaybe']);
  // Twitter's status fields, entities included by default.
  assert.deepEqual([s.retweet_count, s.favorite_count, s.favorited, s.retweeted, s.lang], [0, 0, false, false, 'und']);
  assert.deepEqual(s.coordinates, { type: 'Point', coordinates: [7.25, 48.5] }, 'GeoJSON order');
  assert.deepEqual(s.entities.hashtags, [{ text: 'hearth', indices: [23, 30] }]);
  assert.deepEqual(s.entities.urls, [{ url: 'https://example.org/x', expanded_url: 'https://example.org/x', display_url: 'example.org/x', indices: [35, 56] }]);
  assert.deepEqual([s.entities.symbols, s.entities.user_mentions], [[], []]);
  assert.equal('extended_entities' in s, false, 'only statuses with pictures have extended_entities');

  const withEntities = await ok(t, `/api/statuses/show/${s.id}.json?include_entities=true`, { as: 'alice' });
  assert.deepEqual(withEntities.entities, s.entities);
  const without = await ok(t, `/api/statuses/show/${s.id}.json?include_entities=false`, { as: 'alice' });
  assert.equal('entities' in without, false, 'include_entities=false leaves them out');

  const x = await call(t, '/api/statuses/update.xml', { as: 'alice', form: { status: 'in XML' } });
  assert.equal(x.status, 200);
  const doc = parseXml(x.text);
  assert.equal(doc.status.text, 'in XML');
  assert.equal(doc.status.source, 'api', 'no source given: api');
  assert.equal(doc.status.user.screen_name, 'alice');
  assert.ok('friendica:activities' in doc.status);
});

test('statuses/update: replies (Twidere -1 is not a reply), refusals', async () => {
  const top = await post('alice', { status: 'top' });
  const reply = await post('bob', { status: 'reply from bob', in_reply_to_status_id: String(top.id) });
  assert.equal(reply.in_reply_to_status_id, top.id);
  assert.equal(reply.in_reply_to_user_id, top.user.id);
  assert.equal(reply.statusnet_conversation_id, top.id);
  const nested = await post('alice', { status: 'reply to the reply', in_reply_to_status_id: String(reply.id) });
  assert.equal(nested.in_reply_to_status_id, reply.id);
  assert.equal(nested.in_reply_to_screen_name, 'bob');
  const notReply = await post('alice', { status: 'not a reply', in_reply_to_status_id: '-1' });
  assert.equal(notReply.in_reply_to_status_id, null);
  assert.equal(notReply.statusnet_conversation_id, notReply.id);

  await fails(t, '/api/statuses/update.json', 404, { as: 'bob', form: { status: 'x', in_reply_to_status_id: '99999' } });
  await fails(t, '/api/statuses/update.json', 400, { as: 'bob', form: { status: 'x', in_reply_to_status_id: 'abc' } });
  await fails(t, '/api/statuses/update.json', 400, { as: 'alice', form: { status: '   ' } });
  await fails(t, '/api/statuses/update.json', 400, { as: 'alice', form: { status: 'x', lat: 'north', long: '7' } });
  await fails(t, '/api/statuses/update.json', 400, { as: 'alice', form: { status: 'x', 'group_allow[]': '99999' } });
  await fails(t, '/api/statuses/update.json', 400, { as: 'alice', form: { status: 'x', media_ids: '123456' } });
  await fails(t, '/api/statuses/update.json', 405, { as: 'alice' });
});

test('statuses/update: group_allow[] by id or hash makes the status private to the group', async () => {
  const { addGroupMember, getGroup } = await import('../../server/store/groups.js');
  addGroupMember(t.hub.db, t.channels.alice!.channel_id, groupId, t.channels.bob!.channel_hash);
  const hash = getGroup(t.hub.db, t.channels.alice!.channel_id, groupId)!.hash;
  const byId = await post('alice', { status: 'team only', 'group_allow[]': String(groupId) });
  const byHash = await post('alice', { status: 'team only too', group_allow: hash });
  for (const s of [byId, byHash]) {
    assert.equal(s.friendica_private, true);
    await ok(t, `/api/statuses/show/${s.id}.json`, { as: 'bob' });
    await fails(t, `/api/statuses/show/${s.id}.json`, 404, { as: 'carol' });
  }
  assert.equal(getItem(t.hub.db, byId.id)!.allow_gid, `<${hash}>`);
});

test('media/upload then statuses/update media_ids; update_with_media', async () => {
  const png = await makeImage(40, 30, 'png');
  const up = await call(t, '/api/media/upload.json', { as: 'alice', body: form({}, { media: { data: png, name: 'pic.png', type: 'image/png' } }) });
  assert.equal(up.status, 200, up.text);
  assert.equal(typeof up.body.media_id, 'number');
  assert.equal(up.body.media_id_string, String(up.body.media_id));
  assert.deepEqual([up.body.image.w, up.body.image.h, up.body.image.image_type], [40, 30, 'image/png']);
  assert.equal(up.body.size, png.length);
  assert.match(up.body.image.friendica_preview_url, /^http:\/\/127\.0\.0\.1:\d+\/photo\//);
  const upXml = await call(t, '/api/media/upload.xml', { as: 'alice', method: 'PUT', body: form({}, { media: { data: png, name: 'pic.png', type: 'image/png' } }) });
  assert.equal(parseXml(upXml.text).media.image.w, '40');

  const s = await post('alice', { status: 'with a picture', media_ids: String(up.body.media_id) });
  assert.equal(s.attachments.length, 1);
  assert.equal(s.attachments[0].mimetype, 'image/png');
  assert.match(s.attachments[0].url, /^http:\/\/127\.0\.0\.1:\d+\/attach\/[0-9a-f]{64}$/);
  const e = await ok(t, `/api/statuses/show/${s.id}.json`, { as: 'bob' });
  assert.equal(e.entities.media.length, 1);
  const m = e.entities.media[0];
  assert.equal(m.type, 'photo');
  assert.equal(m.id, up.body.media_id, 'the media id media/upload answered');
  assert.equal(m.media_url, `${t.url}/photo/${/[0-9a-f]{64}/.exec(s.attachments[0].url)![0]}-0.png`);
  assert.deepEqual(m.sizes.large, { w: 40, h: 30, resize: 'fit' });
  assert.deepEqual(m.indices, [e.text.length, e.text.length], 'not in the text: the empty range at its end');
  assert.deepEqual(e.extended_entities, { media: e.entities.media });
  assert.equal(e.attachments.length, 1, "Friendica's attachments stay");
  await fails(t, '/api/statuses/update.json', 400, { as: 'bob', form: { status: 'stealing', media_ids: String(up.body.media_id) } });

  const withMedia = await call(t, '/api/statuses/update_with_media.json', { as: 'alice', body: form({ status: 'uploaded along' }, { 'media[]': { data: png, name: 'a.png', type: 'image/png' } }) });
  assert.equal(withMedia.status, 200, withMedia.text);
  assert.equal(withMedia.body.attachments.length, 1);
  const noMedia = await call(t, '/api/statuses/update_with_media.json', { as: 'alice', body: form({ status: 'no file' }) });
  assert.equal(noMedia.status, 400);
  const notImage = await call(t, '/api/media/upload.json', { as: 'alice', body: form({}, { media: { data: 'not an image', name: 'x.png', type: 'image/png' } }) });
  assert.equal(notImage.status, 400, notImage.text);
  await fails(t, '/api/media/upload.json', 400, { as: 'alice', method: 'POST', body: form({ nothing: 'here' }) });
});

test('statuses/show: path id or id parameter, conversation, 400 and 404', async () => {
  const top = await post('alice', { status: 'show me' });
  const reply = await post('bob', { status: 'shown reply', in_reply_to_status_id: String(top.id) });
  assert.equal((await ok(t, `/api/statuses/show/${top.id}.json`, { as: 'bob' })).text, 'show me');
  assert.equal((await ok(t, `/api/statuses/show.json?id=${top.id}`, { as: 'bob' })).text, 'show me');
  const xml = parseXml((await call(t, `/api/statuses/show/${top.id}.xml`, { as: 'bob' })).text);
  assert.equal(xml.status.id, String(top.id));
  assert.deepEqual(ids(await ok(t, `/api/statuses/show/${reply.id}.json?conversation=1`, { as: 'bob' })), [reply.id, top.id]);
  await fails(t, '/api/statuses/show.json', 400, { as: 'bob' });
  await fails(t, '/api/statuses/show/0.json', 400, { as: 'bob' });
  await fails(t, '/api/statuses/show/99999.json', 404, { as: 'bob' });
  await fails(t, '/api/statuses/show/99999.xml', 404, { as: 'bob' });
});

test('statuses/destroy: own statuses and statuses in own threads; others 403, unknown 404', async () => {
  const mine = await post('alice', { status: 'to delete' });
  const reply = await post('bob', { status: 'bob answers', in_reply_to_status_id: String(mine.id) });
  const bobs = await post('bob', { status: 'bob keeps this' });
  await fails(t, `/api/statuses/destroy/${bobs.id}.json`, 403, { as: 'alice', method: 'POST' });
  await fails(t, '/api/statuses/destroy.json', 400, { as: 'alice', method: 'POST' });
  await fails(t, '/api/statuses/destroy/99999.json', 404, { as: 'alice', method: 'POST' });
  const gone = await ok(t, `/api/statuses/destroy.json?id=${reply.id}`, { as: 'alice', method: 'DELETE' });
  assert.equal(gone.id, reply.id, 'the thread owner removed a comment and got it back as it was');
  assert.equal(gone.user.screen_name, 'bob');
  await fails(t, `/api/statuses/show/${reply.id}.json`, 404, { as: 'bob' });
  await ok(t, `/api/statuses/destroy/${mine.id}.json`, { as: 'alice', method: 'POST' });
  assert.equal(getItem(t.hub.db, mine.id)!.item_deleted, 1);
  await ok(t, `/api/statuses/show/${bobs.id}.json`, { as: 'bob' });
});

test('statuses/retweet: a share embedding the original; private ones and repeats refused', async () => {
  const orig = await post('alice', { status: 'worth sharing' });
  const share = await ok(t, `/api/statuses/retweet/${orig.id}.json`, { as: 'bob', method: 'POST' });
  assert.notEqual(share.id, orig.id);
  assert.equal(share.user.screen_name, 'bob');
  assert.equal(share.retweeted_status.id, orig.id);
  assert.equal(share.retweeted_status.user.screen_name, 'alice');
  assert.equal(share.retweeted_status.text, 'worth sharing');
  assert.equal(getItem(t.hub.db, share.id)!.verb, VERB.SHARE);
  assert.ok(ids(await ok(t, '/api/statuses/user_timeline.json', { as: 'bob' })).includes(share.id));
  await fails(t, `/api/statuses/retweet/${orig.id}.json`, 403, { as: 'bob', method: 'PUT' });
  const priv = await post('alice', { status: 'team secret', 'group_allow[]': String(groupId) });
  await fails(t, `/api/statuses/retweet.json?id=${priv.id}`, 403, { as: 'bob', method: 'POST' });
  await fails(t, `/api/statuses/retweet.json?id=${priv.id}`, 404, { as: 'carol', method: 'POST' });
  await fails(t, '/api/statuses/retweet.json', 400, { as: 'bob', method: 'POST' });
  const xml = await call(t, `/api/statuses/retweet/${(await post('alice', { status: 'again' })).id}.xml`, { as: 'carol', method: 'POST' });
  assert.equal(parseXml(xml.text).status.retweeted_status.text, 'again');
});

test('favorites: create and destroy star a status for the caller only; favorites lists them', async () => {
  const a = await post('alice', { status: 'star me' });
  const own = await post('bob', { status: 'bob stars his own' });
  const starred = await ok(t, `/api/favorites/create/${a.id}.json`, { as: 'bob', method: 'POST' });
  assert.equal(starred.favorited, true);
  await ok(t, `/api/favorites/create.json?id=${own.id}`, { as: 'bob', method: 'PUT' });
  assert.deepEqual(ids(await ok(t, '/api/favorites.json', { as: 'bob' })), [own.id, a.id]);
  assert.equal((await ok(t, `/api/statuses/show/${a.id}.json`, { as: 'alice' })).favorited, false, "bob's star is not alice's");
  assert.deepEqual(await ok(t, '/api/favorites.json', { as: 'alice' }), []);
  assert.deepEqual(await ok(t, '/api/favorites.json?screen_name=bob', { as: 'bob' }), [], 'user_id/screen_name give an empty list');
  assert.deepEqual(await ok(t, '/api/favorites.json?user_id=1', { as: 'bob' }), []);
  const unstarred = await ok(t, `/api/favorites/destroy/${a.id}.json`, { as: 'bob', method: 'DELETE' });
  assert.equal(unstarred.favorited, false);
  assert.deepEqual(ids(await ok(t, '/api/favorites.json', { as: 'bob' })), [own.id]);
  assert.equal((await ok(t, '/api/account/verify_credentials.json', { as: 'bob' })).favourites_count, 1);
  const xml = parseXml((await call(t, '/api/favorites.xml', { as: 'bob' })).text);
  assert.equal(xml.statuses.status[0].favorited, 'true');
  await fails(t, '/api/favorites/create.json', 400, { as: 'bob', method: 'POST' });
  await fails(t, '/api/favorites/create/99999.json', 404, { as: 'bob', method: 'POST' });
  await fails(t, '/api/favorites/destroy/abc.json', 400, { as: 'bob', method: 'POST' });

  // favorite_count counts the owner's own star and other channels' stars; favorited is the viewer's.
  const counted = await post('alice', { status: 'count my stars' });
  const seen = async (as: string) => {
    const s = await ok(t, `/api/statuses/show/${counted.id}.json`, { as });
    const inTimeline = (await ok(t, '/api/statuses/user_timeline.json?screen_name=alice&count=5', { as })).find((x: { id: number }) => x.id === counted.id);
    assert.deepEqual([inTimeline.favorite_count, inTimeline.favorited], [s.favorite_count, s.favorited], 'a timeline says what statuses/show says');
    return [s.favorite_count, s.favorited];
  };
  await ok(t, `/api/favorites/create/${counted.id}.json`, { as: 'bob', method: 'POST' });
  assert.deepEqual(await seen('alice'), [1, false]);
  assert.deepEqual(await seen('bob'), [1, true]);
  await ok(t, `/api/favorites/create/${counted.id}.json`, { as: 'alice', method: 'POST' });
  assert.deepEqual(await seen('alice'), [2, true]);
  assert.deepEqual(await seen('bob'), [2, true]);
  await ok(t, `/api/favorites/destroy/${counted.id}.json`, { as: 'bob', method: 'POST' });
  assert.deepEqual(await seen('bob'), [1, false]);
  assert.deepEqual(await seen('alice'), [1, true]);
});

test('search for a hashtag: newest first, any case, each status once however often it carries the tag, paged', async () => {
  const first = await post('alice', { status: 'a #Wombat' });
  const second = await post('bob', { status: 'another #wombat' });
  await post('alice', { status: 'a wombat without its tag' });
  const third = await post('bob', { status: 'and a #WOMBAT' });
  // A received post may carry the tag twice (#Wombat and #wombat: two term rows).
  t.hub.db.prepare("INSERT INTO term (aid, uid, oid, otype, ttype, term, url) SELECT aid, uid, oid, otype, ttype, 'wombat', url FROM term WHERE oid = ? AND ttype = 1").run(second.id);
  const search = async (params: string) => ids(await ok(t, `/api/search.json?q=%23wOmBaT${params}`, { as: 'carol' }));
  assert.deepEqual(await search(''), [third.id, second.id, first.id]);
  assert.deepEqual(await search('&rpp=1'), [third.id]);
  assert.deepEqual(await search('&count=2&page=2'), [first.id]);
  assert.deepEqual(await search(`&max_id=${third.id - 1}`), [second.id, first.id]);
  assert.deepEqual(await search(`&since_id=${first.id}&count=1`), [third.id]);
  assert.deepEqual(await search(`&since_id=${first.id}&max_id=${third.id - 1}`), [second.id]);
});

test('search and search/tweets: words and hashtags over what the caller may see; FTS syntax is text', async () => {
  const a = await post('alice', { status: 'Searching for the quokka #marsupial' });
  const b = await post('bob', { status: 'another quokka sighting' });
  assert.deepEqual(ids(await ok(t, '/api/search.json?q=quokka', { as: 'carol' })), [b.id, a.id]);
  const tweets = await ok(t, '/api/search/tweets.json?q=QUOK', { as: 'carol' });
  assert.deepEqual(ids(tweets.statuses), [b.id, a.id], 'prefix, any case');
  assert.deepEqual([tweets.search_metadata.query, tweets.search_metadata.max_id, tweets.search_metadata.count], ['QUOK', b.id, 20], "Twitter's envelope");
  assert.equal('next_results' in tweets.search_metadata, false, 'one page');
  const paged = await ok(t, '/api/1.1/search/tweets.json?q=quokka&count=1', { as: 'carol' });
  assert.deepEqual(ids(paged.statuses), [b.id]);
  assert.equal(paged.search_metadata.next_results, `?max_id=${b.id - 1}&q=quokka&count=1&include_entities=1`);
  assert.deepEqual(ids(await ok(t, '/api/search.json?q=quokka%20sighting', { as: 'carol' })), [b.id], 'every word');
  assert.deepEqual(ids(await ok(t, '/api/search.json?q=%23marsupial', { as: 'carol' })), [a.id]);
  assert.deepEqual(ids(await ok(t, '/api/search.json?q=quokka&rpp=1', { as: 'carol' })), [b.id]);
  assert.deepEqual(ids(await ok(t, `/api/search.json?q=quokka&max_id=${a.id}`, { as: 'carol' })), [a.id]);
  for (const q of ['"', 'quokka"', 'NEAR(quokka', 'title:quokka', '*', 'a OR', '(', '-quokka', '^quokka']) {
    const r = await call(t, `/api/search.json?q=${encodeURIComponent(q)}`, { as: 'carol' });
    assert.equal(r.status, 200, `${q}: ${r.text}`);
    assert.ok(Array.isArray(r.body), q);
  }
  await fails(t, '/api/search.json', 400, { as: 'carol' });
  await fails(t, '/api/search/tweets.json?q=%20', 400, { as: 'carol' });
  const xml = parseXml((await call(t, '/api/search.xml?q=quokka', { as: 'carol' })).text);
  assert.equal(xml.statuses.status.length, 2);
});
