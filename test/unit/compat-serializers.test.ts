import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { compatUser, NO_RELATION, screenName, type UserFacts } from '../../server/serializers/compat/user.js';
import { compatStatus, emptyActivities, parseAttach, type StatusFacts } from '../../server/serializers/compat/status.js';
import { compatEntities } from '../../server/serializers/compat/entities.js';
import { cursorEnvelope } from '../../server/serializers/compat/cursor.js';
import { atomFeed, rssFeed } from '../../server/serializers/compat/feed.js';
import { rateLimitJson, rateLimitXml, unmeteredRateLimit } from '../../server/serializers/compat/rate-limit.js';
import { compatConfig } from '../../server/serializers/compat/config.js';
import { ftsQuery } from '../../server/store/fts.js';
import { ITEM_DEFAULTS } from '../../server/store/items.js';
import type { ItemRow, XchanRow } from '../../server/store/rows.js';
import { renderXml } from '../../server/http/xml.js';

const xchan = (id: number, nick: string, name = nick): XchanRow =>
  ({ xchan_id: id, xchan_hash: `h${id}`, xchan_name: name, xchan_addr: `${nick}@hub.example`, xchan_url: `http://hub.example/channel/${nick}`, xchan_photo_s: 's.png', xchan_photo_m: 'm.png', xchan_photo_l: 'l.png', xchan_network: 'zot6', xchan_name_date: '2024-01-02 03:04:05' }) as XchanRow;

const facts = (x: XchanRow, extra: Partial<UserFacts> = {}): UserFacts => ({ xchan: x, local: true, created: '2018-10-10 20:19:24', locked: false, counts: { followers: 3, friends: 2, statuses: 7, favourites: 1 }, relation: NO_RELATION, ...extra });

test('user: Twitter types, dates and the viewer relation', () => {
  const u = compatUser(facts(xchan(42, 'alice', 'Alice')), {});
  assert.equal(u.id, 42);
  assert.equal(u.id_str, '42');
  assert.equal(u.screen_name, 'alice');
  assert.equal(compatUser(facts(xchan(43, 'bob'), { local: false })).screen_name, 'bob@hub.example', 'someone elsewhere goes by their address');
  assert.equal(u.created_at, 'Wed Oct 10 20:19:24 +0000 2018');
  assert.equal(u.followers_count, 3);
  assert.equal(u.following, false);
  assert.equal(u.verified, false);
  assert.equal(u.statusnet_profile_url, 'http://hub.example/channel/alice');
  const seen = compatUser(facts(xchan(42, 'alice'), { relation: { viewerUid: 5, abookId: 9, following: true, followRequestSent: false, blocking: false, self: false } }), { omit: ['uid'] });
  assert.deepEqual([seen.following, seen.verified, seen.cid, 'uid' in seen], [true, true, 9, false]);
  const lean = compatUser(facts(xchan(1, 'x')), { entities: false, omit: ['verified'] });
  assert.ok(!('entities' in lean) && !('verified' in lean) && !('status' in lean));
  assert.ok(!('self' in compatUser(facts(xchan(1, 'x'), { relation: { ...NO_RELATION, self: true } }))), 'never a key named self');
  assert.equal(screenName({ xchan_addr: '', xchan_name: 'Only Name' }), 'Only Name');
  const withProfile = compatUser(facts(xchan(1, 'x'), { profile: { location: 'Lyon', description: 'bio', homepage: 'https://x.example' } }));
  assert.deepEqual([withProfile.location, withProfile.description, withProfile.url], ['Lyon', 'bio', 'https://x.example']);
});

function item(over: Partial<ItemRow>): ItemRow {
  return { ...ITEM_DEFAULTS, id: 7, uid: 1, parent: 7, mid: 'm7', thr_parent: 'm7', item_thread_top: 1, created: '2024-10-21 16:31:24', plink: 'http://hub.example/p/7', ...over } as ItemRow;
}

function statusFacts(i: ItemRow, over: Partial<StatusFacts> = {}): StatusFacts {
  const u = compatUser(facts(xchan(42, 'alice')));
  return { item: i, author: u, owner: u, activities: emptyActivities(), comments: 0, favorited: false, retweetedByViewer: false, counts: { retweets: 0, favorites: 0 }, terms: [], photos: new Map(), ...over };
}

test('status: text, html with title, geo, private flag, reply fields', () => {
  const s = compatStatus(statusFacts(item({ title: 'T <1>', body: '[b]bold[/b] text', html: '<b>bold</b> text', coord: '48.1 7.5', allow_gid: '<g>' })));
  assert.equal(s.text, 'T <1> bold text');
  assert.equal(s.statusnet_html, '<h4>T &lt;1&gt;</h4><b>bold</b> text');
  assert.deepEqual(s.geo, { type: 'Point', coordinates: [48.1, 7.5] });
  assert.equal(s.friendica_private, true);
  assert.equal(s.created_at, 'Mon Oct 21 16:31:24 +0000 2024');
  assert.equal(s.in_reply_to_status_id, null);
  assert.equal(s.source, 'web');
  assert.equal(compatStatus(statusFacts(item({ coord: 'nowhere' }))).geo, null);
  const reply = compatStatus(statusFacts(item({ id: 8, item_thread_top: 0, mid: 'm8', thr_parent: 'm7' }), { replyTo: { id: 7, user: compatUser(facts(xchan(43, 'bob'))) } }));
  assert.deepEqual([reply.in_reply_to_status_id, reply.in_reply_to_status_id_str, reply.in_reply_to_user_id, reply.in_reply_to_screen_name], [7, '7', 43, 'bob']);
});

test('status: attachments from item.attach, images in the body once, entities unless include_entities=false', () => {
  const key = 'a'.repeat(64);
  const i = item({
    attach: JSON.stringify([{ href: `http://hub.example/attach/${key}`, length: 120, type: 'image/png', title: 'p.png', revision: 0 }]),
    html: `<a href="http://hub.example/photos/x"><img src="http://hub.example/photo/${key}-2.png" /></a> see <a href="https://example.org/">link</a> <img src="https://elsewhere.example/i.jpg" />`,
  });
  const plain = compatStatus(statusFacts(i));
  assert.deepEqual(plain.attachments, [{ url: `http://hub.example/attach/${key}`, mimetype: 'image/png', size: 120 }, { url: 'https://elsewhere.example/i.jpg' }]);
  assert.ok(plain.entities, 'entities by default');
  const without = compatStatus(statusFacts(i), { includeEntities: false });
  assert.ok(!('entities' in without) && !('extended_entities' in without));
  const photo = { id: 77, width: 1600, height: 1200, url: `http://hub.example/photo/${key}-0.png`, pageUrl: `http://hub.example/photos/alice/image/${key}` };
  const e = compatStatus(statusFacts(i, { terms: [{ ttype: 1, term: 'tag', url: 'http://hub.example/search?tag=tag' }], photos: new Map([[key, photo]]) }));
  assert.equal(e.attachments!.length, 2, "Friendica's attachments stay with entities");
  assert.deepEqual(e.entities!.hashtags, [{ text: 'tag', indices: [e.text.length, e.text.length] }], 'not in the text: the empty range at its end');
  assert.deepEqual(e.entities!.media!.map((m) => [m.id, m.media_url]), [[77, photo.url], [2, 'https://elsewhere.example/i.jpg']], 'a photo of the hub by its media id');
  assert.deepEqual(e.entities!.media![0]!.sizes, { thumb: { w: 150, h: 150, resize: 'crop' }, small: { w: 680, h: 510, resize: 'fit' }, medium: { w: 1200, h: 900, resize: 'fit' }, large: { w: 1600, h: 1200, resize: 'fit' } });
  assert.deepEqual(e.extended_entities, { media: e.entities!.media });
  assert.deepEqual(e.entities!.urls.map((u) => u.url), ['http://hub.example/photos/x', 'https://example.org/']);
  assert.deepEqual(parseAttach('not json'), []);
  assert.deepEqual(parseAttach('[{"url":"u","mimetype":"text/plain","size":"3"}, 5, {"nohref":1}]'), [{ href: 'u', type: 'text/plain', length: 3, width: undefined, height: undefined, id: undefined }]);
});

test('entities: indices in code points of the text, each occurrence once', () => {
  const text = '😀 #one and #two, #one again @bob http://x.example/a';
  const e = compatEntities(text, { hashtags: ['one', 'two', 'one'], mentions: [{ id: 2, id_str: '2', name: 'Bob', screen_name: 'bob' }], links: ['http://x.example/a'], media: [] });
  const cps = [...text];
  const at = (i: [number, number]) => cps.slice(i[0], i[1]).join('');
  assert.deepEqual(e.hashtags.map((h) => at(h.indices)), ['#one', '#two', '#one']);
  assert.deepEqual(e.hashtags.map((h) => h.indices[0]), [2, 11, 17], 'code points, not UTF-16 units');
  assert.equal(at(e.user_mentions[0]!.indices), '@bob');
  assert.equal(at(e.urls[0]!.indices), 'http://x.example/a');
  assert.equal('media' in e, false, 'no media key without pictures');
  assert.deepEqual(compatEntities('#onex', { hashtags: ['one'], mentions: [], links: [], media: [] }).hashtags[0]!.indices, [5, 5], 'whole words only');
});

test('status: a retweet reads "RT @author: text" with the original in retweeted_status; Twitter counters', () => {
  const original = compatStatus(statusFacts(item({ id: 5, html: 'hello #world' }), { terms: [{ ttype: 1, term: 'world', url: '' }] }));
  const rt = compatStatus(statusFacts(item({ id: 9, html: 'shared' }), { retweeted: original, retweetedByViewer: true, counts: { retweets: 0, favorites: 2 } }));
  assert.equal(rt.text, 'RT @alice: hello #world');
  assert.equal(rt.retweeted_status!.id, 5);
  assert.deepEqual(rt.entities!.user_mentions.map((m) => [m.screen_name, m.indices]), [['alice', [3, 9]]]);
  assert.deepEqual(rt.entities!.hashtags, [{ text: 'world', indices: [17, 23] }]);
  assert.deepEqual([rt.retweeted, rt.retweet_count, rt.favorite_count], [true, 0, 2]);
});

test('status XML: namespaced elements and nested user lists', () => {
  const u = compatUser(facts(xchan(43, 'bob')));
  const acts = emptyActivities();
  acts.like.push(u);
  const xml = renderXml('status', compatStatus(statusFacts(item({ html: 'x' }), { activities: acts })), { namespaces: true });
  const doc = new XMLParser({ ignoreAttributes: false }).parse(xml);
  assert.equal(doc.status['friendica:activities'].like.user.screen_name, 'bob');
  assert.equal(doc.status['friendica:activities'].dislike, '');
  assert.equal(doc.status['statusnet:conversation_id'], 7);
  assert.equal(doc.status.user.screen_name, 'alice');
});

test('cursor envelope rules', () => {
  const env = (keys: number[], cursor: number, hasMore: boolean, total: number) => cursorEnvelope('ids', { items: keys, keys, cursor, hasMore, total });
  assert.deepEqual(env([47], -1, true, 2), { ids: [47], next_cursor: 47, next_cursor_str: '47', previous_cursor: 0, previous_cursor_str: '0', total_count: 2 });
  assert.deepEqual(env([45], 47, false, 2), { ids: [45], next_cursor: 0, next_cursor_str: '0', previous_cursor: -45, previous_cursor_str: '-45', total_count: 2 });
  assert.deepEqual(env([], -1, false, 0), { ids: [], next_cursor: -1, next_cursor_str: '-1', previous_cursor: 0, previous_cursor_str: '0', total_count: 0 });
  assert.equal(env([], 30, false, 2).previous_cursor, -30);
});

test('feeds: RSS 2.0 and Atom with escaped HTML content', () => {
  const meta = { title: 'T & co', self: 'http://h/api/x.rss?a=1&b=2', alternate: 'http://h/', description: 'd', generator: 'Hearth' };
  const entries = [{ id: 'http://h/display/1', link: 'http://h/p/1', title: 'one', html: '<p>a &amp; b</p>', published: '2024-01-01 10:00:00', updated: '2024-01-02 10:00:00', authorName: 'Al', authorUri: 'http://h/channel/al' }];
  const p = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' });
  const rss = p.parse(rssFeed(meta, entries)).rss;
  assert.equal(rss['@_version'], '2.0');
  assert.equal(rss.channel.title, 'T & co');
  assert.equal(rss.channel['atom:link']['@_href'], meta.self);
  assert.equal(rss.channel.item.description, '<p>a &amp; b</p>');
  assert.equal(rss.channel.item.pubDate, 'Mon, 01 Jan 2024 10:00:00 GMT');
  const atom = p.parse(atomFeed(meta, entries)).feed;
  assert.equal(atom.updated, '2024-01-02T10:00:00Z');
  assert.equal(atom.entry.published, '2024-01-01T10:00:00Z');
  assert.equal(atom.entry.content['#text'], '<p>a &amp; b</p>');
  assert.equal(atom.entry.author.name, 'Al');
});

test('rate limit, config', () => {
  const r = unmeteredRateLimit(new Date('2024-10-21T16:33:20Z'));
  assert.deepEqual(rateLimitJson(r), { reset_time_in_seconds: 1729532000, remaining_hits: r.hourlyLimit, hourly_limit: r.hourlyLimit, reset_time: 'Mon Oct 21 17:33:20 +0000 2024' });
  assert.match(renderXml('hash', rateLimitXml(r)), /<reset-time type="datetime">2024-10-21T17:33:20Z<\/reset-time>/);
  const c = compatConfig({ name: 'N', baseUrl: 'https://hub.example/sub', textLimit: 10, platform: 'Hearth', version: '1', schemaVersion: 4 });
  assert.deepEqual([c.site.server, c.site.path, c.site.ssl, c.site.textlimit], ['hub.example', '/sub', 'always', '10']);
});

test('FTS queries quote every word so that search text cannot use FTS syntax', () => {
  assert.equal(ftsQuery('hello world'), '{title html_text} : ("hello"* AND "world"*)');
  assert.equal(ftsQuery('say "hi" NEAR(x'), '{title html_text} : ("say"* AND """hi"""* AND "NEAR(x"*)');
  assert.equal(ftsQuery('  * - ( '), undefined);
  // A word spelled out as the indexed words it begins; one without that list stays a prefix.
  assert.equal(ftsQuery('Light house', (w) => (w === 'Light' ? ['lights'] : undefined)), '{title html_text} : (("light" OR "lights") AND "house"*)');
});

test('cursor envelope: Twitter answers next_cursor 0 for an empty first page, Friendica -1', () => {
  const empty = (twitter: boolean) => cursorEnvelope('ids', { items: [], keys: [], cursor: -1, hasMore: false, total: 0, twitter }).next_cursor;
  assert.deepEqual([empty(true), empty(false)], [0, -1]);
});

test('status: tweet_mode=extended adds full_text and display_text_range (in code points)', () => {
  const s = compatStatus(statusFacts(item({ html: 'héllo 😀' })), { extended: true });
  assert.deepEqual([s.full_text, s.display_text_range, s.text], ['héllo 😀', [0, 7], 'héllo 😀']);
  assert.equal('full_text' in compatStatus(statusFacts(item({ html: 'x' }))), false);
});
