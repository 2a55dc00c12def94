import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call } from '../helpers/compat.js';
import { form, makeImage } from '../helpers/media.js';
import { compatRoutes } from '../../server/api/compat/routes.js';

/**
 * Client libraries build objects from the keys of every answer: `User(**data)` in Python, or
 * attributes set key by key. A key named like a language keyword, the receiver (`self`) or an
 * attribute the library's model already has breaks every answer that holds such an object. This
 * walks every key of the JSON answers of every route of the compat API in one scenario.
 */
const PYTHON_KEYWORDS = ['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except',
  'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield'];
const JS_RESERVED = ['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends', 'false',
  'finally', 'for', 'function', 'if', 'implements', 'import', 'in', 'instanceof', 'interface', 'let', 'new', 'null', 'package', 'private', 'protected', 'public',
  'return', 'static', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield'];
/** The receiver, and the constructor parameters and private attributes of tweepy's models. */
const RECEIVER = ['self', 'api', '_api', '_json'];
/**
 * Twitter's own user object has `protected` and StatusNet's config `site.private`: every client
 * already copes with those two (JavaScript allows reserved words as property names since ES5).
 */
const DOCUMENTED_BY_TWITTER = new Set(['protected', 'private']);
const FORBIDDEN_EVERYWHERE = new Set([...PYTHON_KEYWORDS, ...JS_RESERVED, ...RECEIVER].filter((k) => !DOCUMENTED_BY_TWITTER.has(k)));

/** Methods and attributes tweepy's models (tweepy/models.py) set or define, by kind of object. */
const MODEL_MEMBERS: Record<string, string[]> = {
  user: ['timeline', 'friends', 'followers', 'follow', 'unfollow', 'list_memberships', 'list_ownerships', 'list_subscriptions', 'lists', 'follower_ids', 'parse', 'parse_list'],
  status: ['author', 'source_url', 'destroy', 'retweet', 'retweets', 'favorite', 'parse', 'parse_list'],
  list: ['update', 'destroy', 'timeline', 'add_member', 'remove_member', 'members', 'subscribe', 'unsubscribe', 'subscribers', 'parse', 'parse_list'],
  direct_message: ['delete', 'parse', 'parse_list'],
};

function kindOf(o: Record<string, unknown>): string | undefined {
  if ('screen_name' in o && 'followers_count' in o) return 'user';
  if ('text' in o && 'user' in o && 'created_at' in o) return 'status';
  if ('member_count' in o && 'slug' in o) return 'list';
  if (('sender_id' in o && 'recipient_id' in o) || o.type === 'message_create') return 'direct_message';
  return undefined;
}

function badKeys(value: unknown, where: string, out: Set<string>): void {
  if (Array.isArray(value)) {
    value.forEach((v) => badKeys(v, `${where}[]`, out));
    return;
  }
  if (!value || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  const kind = kindOf(o);
  for (const [k, v] of Object.entries(o)) {
    if (FORBIDDEN_EVERYWHERE.has(k)) out.add(`${where}.${k}`);
    if (kind && MODEL_MEMBERS[kind]!.includes(k)) out.add(`${where}.${k} (a ${kind} attribute of the client's model)`);
    badKeys(v, `${where}.${k}`, out);
  }
}

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
});
after(() => t.stop());

test('no answer of the compat API has a key that breaks client models', { timeout: 120_000 }, async () => {
  const answers: { path: string; body: unknown }[] = [];
  const called = new Set<string>();
  const go = async (path: string, opts: Parameters<typeof call>[2] = {}) => {
    const a = await call(t, path, { as: 'alice', ...opts });
    assert.ok(a.status < 300, `${opts.method ?? (opts.form || opts.body ? 'POST' : 'GET')} ${path}: ${a.status} ${a.text.slice(0, 200)}`);
    answers.push({ path, body: a.body });
    called.add(path.replace(/^\/api\//, '').replace(/(\/\d+)?\.json.*$/, '').replace(/^ext\/activity\/\w+$/, 'ext/activity/:verb'));
    return a.body;
  };
  const png = await makeImage(32, 24, 'png');
  const image = (name = 'media') => form({}, { [name]: { data: png, name: 'p.png', type: 'image/png' } });

  // Something of everything: connections, posts with entities and media, a reply, a share, a
  // like, a star, messages, a list and a group, photos, notifications.
  await go('/api/friendships/create.json', { form: { screen_name: 'bob' } });
  await call(t, '/api/friendships/create.json', { as: 'bob', form: { screen_name: 'alice' } });
  const bobId = (await go('/api/users/show.json?screen_name=bob') as any).id;
  const bobPost = (await call(t, '/api/statuses/update.json', { as: 'bob', form: { status: 'hi @alice #tag https://example.org/' } })).body;
  await call(t, '/api/direct_messages/new.json', { as: 'bob', form: { screen_name: 'alice', text: 'psst' } });
  const media = await go('/api/media/upload.json', { body: image() }) as any;
  const post = await go('/api/statuses/update.json', { form: { status: 'hello @bob #tag', media_ids: media.media_id_string } }) as any;
  await go('/api/statuses/update_with_media.json', { body: (() => { const f = image(); f.append('status', 'with media'); return f; })() });
  const reply = await go('/api/statuses/update.json', { form: { status: 'a reply', in_reply_to_status_id: String(bobPost.id) } }) as any;
  await go(`/api/statuses/retweet/${bobPost.id}.json`, { method: 'POST' });
  await go(`/api/ext/activity/like.json`, { form: { id: String(bobPost.id) } });
  await go(`/api/favorites/create/${bobPost.id}.json`, { method: 'POST' });
  const dm = await go('/api/direct_messages/new.json', { form: { screen_name: 'bob', text: 'hi', title: 'subject' } }) as any;
  const event = await go('/api/direct_messages/events/new.json', { body: JSON.stringify({ event: { type: 'message_create', message_create: { target: { recipient_id: String(bobId) }, message_data: { text: 'event #x' } } } }), headers: { 'content-type': 'application/json' } }) as any;
  const list = await go('/api/lists/create.json', { form: { name: 'Friends' } }) as any;
  await go('/api/lists/members/create.json', { form: { list_id: list.id_str, screen_name: 'bob' } });
  await go('/api/ext/group_create.json', { form: { json: JSON.stringify({ name: 'Group', user: [{ id: bobId }] }) } });
  const inAlbum = (album: string) => { const f = image(); f.append('album', album); return f; };
  const photo = await go('/api/ext/photo/create.json', { body: inAlbum('Album') }) as any;
  const other = await go('/api/ext/photo/create.json', { body: inAlbum('Other') }) as any;
  const notes = await call(t, '/api/ext/notifications.json', { as: 'alice' });

  // Every read.
  for (const path of [
    'help/test', 'compat/config', 'compat/version', 'account/verify_credentials', 'account/rate_limit_status', 'application/rate_limit_status', 'account/settings',
    'help/configuration', 'statuses/home_timeline', 'statuses/friends_timeline', 'statuses/public_timeline', 'statuses/networkpublic_timeline',
    'statuses/user_timeline', 'statuses/mentions', 'statuses/replies', 'statuses/mentions_timeline', 'favorites', 'favorites/list', 'search?q=tag',
    'search/tweets?q=tag', `statuses/show/${post.id}`, `statuses/retweets/${bobPost.id}`, `statuses/lookup?id=${post.id},${bobPost.id}&map=true`,
    `conversation/show/${bobPost.id}`, `compat/conversation/${bobPost.id}`, `lists/statuses?list_id=${list.id}`, 'users/show?screen_name=bob',
    `users/lookup?user_id=${bobId}`, 'users/search?q=bob', `externalprofile/show?profileurl=${encodeURIComponent(`${t.url}/channel/bob`)}`,
    'followers/ids', 'friends/ids', 'followers/list', 'friends/list', 'statuses/followers', 'statuses/friends', 'friendships/incoming',
    'friendships/show?target_screen_name=bob', 'friendships/lookup?screen_name=bob', 'blocks/list', 'blocks/ids', 'mutes/users/ids', 'mutes/users/list',
    'lists/ownerships', 'lists/list', `lists/show?list_id=${list.id}`, `lists/members?list_id=${list.id}`, 'lists/subscriptions', 'saved_searches/list',
    'direct_messages', 'direct_messages/all', 'direct_messages/sent', `direct_messages/conversation?uri=${encodeURIComponent(dm.friendica_parent_uri)}`,
    'direct_messages/events/list', `direct_messages/events/show?id=${event.event.id}`, 'ext/direct_messages_search?searchstring=hi',
    `ext/direct_messages_setseen?id=${dm.id}`, 'ext/group_show', 'ext/notifications', 'ext/profile/show', 'ext/photos/list', `ext/photo?photo_id=${photo.id}`,
    `ext/photo/posts?photo_id=${photo.id}`, 'ext/photoalbum/posts?album=Album',
    `media/upload?command=STATUS&media_id=${media.media_id}`,
  ]) await go(`/api/${path.replace(/^([^?]+)/, '$1.json')}`);
  // The other writes, undoing what was done.
  const noteWithItem = (notes.body as { id: number; iid?: number }[]).find((n) => n.iid);
  if (noteWithItem) {
    await go('/api/ext/notifications/seen.json', { form: { id: String(noteWithItem.id) } });
    await go('/api/ext/notification/seen.json', { form: { id: String(noteWithItem.id) } });
  }
  await go('/api/account/update_profile.json', { form: { description: 'about me' } });
  await go('/api/account/update_profile_image.json', { body: image('image') });
  await go(`/api/statuses/unretweet/${bobPost.id}.json`, { method: 'POST' });
  await go(`/api/favorites/destroy/${bobPost.id}.json`, { method: 'POST' });
  await go('/api/friendships/create.json', { form: { screen_name: 'carol' } });
  await go('/api/friendships/destroy.json', { form: { screen_name: 'carol' } });
  await go('/api/lists/update.json', { form: { list_id: list.id_str, name: 'Close friends' } });
  await go('/api/lists/members/destroy.json', { form: { list_id: list.id_str, screen_name: 'bob' } });
  await go('/api/lists/destroy.json', { form: { list_id: list.id_str } });
  const groups = await go('/api/ext/group_show.json') as { gid: number; name: string }[];
  await go('/api/ext/group_update.json', { form: { json: JSON.stringify({ name: 'Group', gid: groups[0]!.gid, user: [] }) } });
  await go('/api/ext/group_delete.json', { form: { gid: String(groups[0]!.gid), name: 'Group' } });
  await go('/api/ext/photo/update.json', { form: { photo_id: photo.id, album: 'Album', desc: 'described' } });
  await go('/api/ext/photoalbum/update.json', { form: { album: 'Album', album_new: 'Renamed' } });
  await go(`/api/ext/photo/delete.json?photo_id=${other.id}`, { method: 'DELETE' });
  await go('/api/ext/photoalbum/delete.json', { form: { album: 'Renamed' } });
  await go(`/api/direct_messages/events/destroy.json?id=${event.event.id}`, { method: 'DELETE' });
  await go('/api/direct_messages/destroy.json', { form: { id: String(dm.id) } });
  await go(`/api/statuses/destroy/${reply.id}.json`, { method: 'POST' });

  const skipped = compatRoutes.map((r) => r.path).filter((p) => !called.has(p) && !['oauth/request_token', 'oauth/access_token'].includes(p));
  assert.deepEqual(skipped, [], 'every route is part of the scenario');
  const bad = new Set<string>();
  for (const a of answers) badKeys(a.body, a.path.replace(/\?.*$/, ''), bad);
  assert.deepEqual([...bad], [], 'keys that break client models');
});
