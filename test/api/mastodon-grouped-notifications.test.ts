import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRestAPIClient } from 'masto';
import { passwordToken, registerApp } from '../../server/services/oauth2.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { bearerFetch } from '../helpers/mastodon.js';

// The grouped notifications API (v2) of Mastodon 4.3, which Mastodon's own web client reads:
// favourites and reblogs of one status, and follows, come as one group each with a count and the
// accounts; other notifications come one per group.

interface Group {
  group_key: string;
  notifications_count: number;
  type: string;
  most_recent_notification_id: string;
  page_min_id?: string;
  page_max_id?: string;
  latest_page_notification_at?: string;
  sample_account_ids: string[];
  status_id?: string;
}
interface Grouped {
  accounts: { id: string; acct: string }[];
  partial_accounts?: { id: string; acct: string; avatar: string }[];
  statuses: { id: string }[];
  notification_groups: Group[];
}
interface V1Note {
  id: string;
  type: string;
  group_key: string;
}

let t: TestHub;
type Api = ReturnType<typeof bearerFetch>;
const api: Record<string, Api> = {};
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
let liked: string;
let other: string;
const mentions: string[] = [];

async function json<T>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  assert.equal(r.status, status, text);
  return JSON.parse(text) as T;
}

const get = <T>(path: string) => json<T>(api.alice!(path));

before(async () => {
  t = await startHub({ channels: ['alice'] });
  const nicks = ['alice', 'bob', 'carol', 'dave'];
  for (const nick of nicks.slice(1)) await t.addChannel(nick);
  const app = registerApp(t.hub.db, { name: 'grouped', redirectUris: ['urn:ietf:wg:oauth:2.0:oob'], scopes: 'read write follow push', website: '' });
  for (const nick of nicks) {
    tokens[nick] = passwordToken(t.hub.db, app, t.channels[nick]!, 'read write follow').token;
    api[nick] = bearerFetch(t, tokens[nick]);
    ids[nick] = (await json<{ id: string }>(api[nick]('/api/v1/accounts/verify_credentials'))).id;
  }
  // bob, carol and dave follow alice: three follows (accepted at once).
  for (const nick of ['bob', 'carol', 'dave']) await json(api[nick]!(`/api/v1/accounts/${ids.alice}/follow`, { method: 'POST' }));
  const post = async (nick: string, status: string) => (await json<{ id: string }>(api[nick]!('/api/v1/statuses', { method: 'POST', json: { status } }))).id;
  liked = await post('alice', 'a post many like');
  other = await post('alice', 'another post');
  for (const nick of ['bob', 'carol', 'dave']) await json(api[nick]!(`/api/v1/statuses/${liked}/favourite`, { method: 'POST' }));
  for (const nick of ['bob', 'carol']) await json(api[nick]!(`/api/v1/statuses/${liked}/reblog`, { method: 'POST' }));
  await json(api.dave!(`/api/v1/statuses/${other}/favourite`, { method: 'POST' }));
  mentions.push(await post('carol', '@alice first mention'), await post('carol', '@alice second mention'));
});
after(() => t.stop());

const byKind = (groups: Group[], type: string, statusId?: string) => groups.filter((g) => g.type === type && (statusId === undefined || g.status_id === statusId));

test('favourites and reblogs of one status, and follows, come grouped with counts and sample accounts; mentions one by one', async () => {
  const page = await get<Grouped>('/api/v2/notifications');
  const groups = page.notification_groups;
  const [favs] = byKind(groups, 'favourite', liked);
  assert.ok(favs, JSON.stringify(groups));
  assert.equal(byKind(groups, 'favourite', liked).length, 1);
  assert.equal(favs.notifications_count, 3);
  assert.deepEqual(favs.sample_account_ids, [ids.dave, ids.carol, ids.bob], 'newest first');
  assert.match(favs.group_key, /^favourite-/);
  const [reblogs] = byKind(groups, 'reblog', liked);
  assert.equal(reblogs?.notifications_count, 2);
  assert.deepEqual(reblogs?.sample_account_ids, [ids.carol, ids.bob]);
  assert.notEqual(reblogs?.group_key, favs.group_key);
  const [otherFav] = byKind(groups, 'favourite', other);
  assert.equal(otherFav?.notifications_count, 1);
  assert.notEqual(otherFav?.group_key, favs.group_key, 'another status, another group');
  const [follows] = byKind(groups, 'follow');
  assert.equal(follows?.notifications_count, 3);
  assert.deepEqual(new Set(follows?.sample_account_ids), new Set([ids.bob, ids.carol, ids.dave]));
  assert.equal(follows?.status_id, undefined);
  const mentionGroups = byKind(groups, 'mention');
  assert.deepEqual(mentionGroups.map((g) => g.status_id), [...mentions].reverse());
  for (const g of mentionGroups) {
    assert.equal(g.notifications_count, 1);
    assert.equal(g.group_key, `ungrouped-${g.most_recent_notification_id}`);
  }
  assert.equal(groups.length, 6);
  // Newest first; each group with its page's edge ids and the time of its latest notification there.
  const newest = groups.map((g) => Number(g.page_max_id));
  assert.deepEqual(newest, [...newest].sort((a, b) => b - a));
  for (const g of groups) {
    assert.ok(Number(g.page_min_id) <= Number(g.page_max_id) && g.page_max_id === g.most_recent_notification_id, JSON.stringify(g));
    assert.match(g.latest_page_notification_at ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
  // Every account and status a group names is in the answer, once.
  const accountIds = page.accounts.map((a) => a.id);
  assert.equal(new Set(accountIds).size, accountIds.length);
  for (const g of groups) for (const id of g.sample_account_ids) assert.ok(accountIds.includes(id), `account ${id}`);
  const statusIds = page.statuses.map((s) => s.id);
  assert.deepEqual(new Set(statusIds), new Set([liked, other, ...mentions]));
  assert.equal(statusIds.length, 4);
  // The v1 list names the same groups, as Mastodon's streaming and v1 notifications do.
  const v1 = await get<V1Note[]>('/api/v1/notifications');
  assert.deepEqual(new Set(v1.filter((n) => n.type === 'favourite').map((n) => n.group_key)), new Set([favs.group_key, otherFav!.group_key]));
  assert.ok(v1.filter((n) => n.type === 'mention').every((n) => n.group_key === `ungrouped-${n.id}`));
});

test('grouped_types, types, exclude_types, account_id and expand_accounts', async () => {
  const onlyFavs = (await get<Grouped>('/api/v2/notifications?grouped_types[]=favourite')).notification_groups;
  assert.equal(byKind(onlyFavs, 'favourite', liked).length, 1);
  const reblogs = byKind(onlyFavs, 'reblog');
  assert.equal(reblogs.length, 2, 'reblogs not grouped');
  assert.ok(reblogs.every((g) => g.notifications_count === 1 && g.group_key === `ungrouped-${g.most_recent_notification_id}`));
  assert.equal(byKind(onlyFavs, 'follow').length, 3);
  const typed = (await get<Grouped>('/api/v2/notifications?types[]=favourite&types[]=follow')).notification_groups;
  assert.deepEqual(new Set(typed.map((g) => g.type)), new Set(['favourite', 'follow']));
  const excluded = (await get<Grouped>('/api/v2/notifications?exclude_types[]=mention&exclude_types[]=follow')).notification_groups;
  assert.deepEqual(new Set(excluded.map((g) => g.type)), new Set(['favourite', 'reblog']));
  const fromDave = (await get<Grouped>(`/api/v2/notifications?account_id=${ids.dave}`)).notification_groups;
  assert.deepEqual(fromDave.map((g) => g.type).sort(), ['favourite', 'favourite', 'follow']);
  const partial = await get<Grouped>('/api/v2/notifications?expand_accounts=partial_avatars');
  const [favs] = byKind(partial.notification_groups, 'favourite', liked);
  assert.ok(partial.accounts.some((a) => a.id === favs!.sample_account_ids[0]), 'the latest account in full');
  const partialIds = partial.partial_accounts!.map((a) => a.id);
  for (const id of favs!.sample_account_ids.slice(1)) assert.ok(partialIds.includes(id) || partial.accounts.some((a) => a.id === id));
  assert.ok(partial.partial_accounts!.every((a) => typeof a.avatar === 'string' && !('note' in a)));
  const bad = await api.alice!('/api/v2/notifications?expand_accounts=everything');
  assert.equal(bad.status, 400);
});

/** The URL a Link header gives for a relation, as a path. */
function link(res: Response, rel: string): string | undefined {
  const m = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(res.headers.get('link') ?? '');
  return m ? new URL(m[1]!).pathname + new URL(m[1]!).search : undefined;
}

test('paging by groups: Link header with the edge ids, every notification in exactly one page of its group, min_id and since_id', async () => {
  const v1 = await get<V1Note[]>('/api/v1/notifications?limit=80');
  const pages: Grouped[] = [];
  let path: string | undefined = '/api/v2/notifications?limit=2';
  while (path) {
    const res = await api.alice!(path);
    const page = await json<Grouped>(res);
    const groups = page.notification_groups;
    assert.ok(groups.length >= 1 && groups.length <= 2, `${groups.length} groups`);
    const prev = new URL(link(res, 'prev')!, t.url).searchParams;
    assert.equal(prev.get('min_id'), String(Math.max(...groups.map((g) => Number(g.page_max_id)))));
    assert.equal(prev.get('limit'), '2');
    path = link(res, 'next');
    pages.push(page);
    assert.ok(pages.length < 20, 'paging ends');
    if (!path) break;
    // The next page starts below the oldest group's newest notification here; a full page ends exactly there.
    const next = new URL(path, t.url).searchParams;
    assert.equal(next.get('max_id'), String(Math.min(...groups.map((g) => Number(g.page_max_id)))));
    assert.equal(next.get('max_id'), String(Math.min(...groups.map((g) => Number(g.page_min_id)))));
  }
  // The last page said so: it has no next link, and reached down to the oldest notification.
  assert.equal(Math.min(...pages.at(-1)!.notification_groups.map((g) => Number(g.page_min_id))), Math.min(...v1.map((n) => Number(n.id))));
  assert.ok(pages.length >= 3);
  // Each notification lies between the edge ids of its group on exactly one page.
  for (const n of v1) {
    const homes = pages.filter((p) => p.notification_groups.some((g) => g.group_key === n.group_key && Number(g.page_min_id) <= Number(n.id) && Number(n.id) <= Number(g.page_max_id)));
    assert.equal(homes.length, 1, `notification ${n.id} (${n.type}) on ${homes.length} pages: ${JSON.stringify(pages.map((p) => p.notification_groups.map((g) => [g.group_key, g.page_min_id, g.page_max_id])))}`);
  }
  // Groups seen again on a later page count only what lies at or below that page.
  const firstFavs = pages.flatMap((p) => byKind(p.notification_groups, 'favourite', liked));
  assert.equal(firstFavs[0]!.notifications_count, 3);
  // min_id: the groups just above it, newest first; since_id: the newest groups above it.
  const oldest = Math.min(...v1.map((n) => Number(n.id)));
  const up = (await get<Grouped>(`/api/v2/notifications?min_id=${oldest}&limit=2`)).notification_groups;
  assert.equal(up.length, 2);
  assert.ok(Number(up[0]!.page_max_id) > Number(up[1]!.page_max_id));
  assert.ok(up.every((g) => Number(g.page_min_id) > oldest));
  const all = (await get<Grouped>('/api/v2/notifications')).notification_groups;
  const since = (await get<Grouped>(`/api/v2/notifications?since_id=${oldest}&limit=2`)).notification_groups;
  assert.deepEqual(since.map((g) => g.group_key), all.slice(0, 2).map((g) => g.group_key));
});

test('one group, its accounts page by page, and the masto.js client reading groups', async () => {
  const groups = (await get<Grouped>('/api/v2/notifications')).notification_groups;
  const favs = byKind(groups, 'favourite', liked)[0]!;
  const one = await get<Grouped>(`/api/v2/notifications/${favs.group_key}`);
  assert.equal(one.notification_groups.length, 1);
  const g = one.notification_groups[0]!;
  assert.equal(g.notifications_count, 3);
  assert.equal(g.status_id, liked);
  assert.equal(g.page_min_id, undefined, 'no page ids outside a page');
  assert.deepEqual(one.statuses.map((s) => s.id), [liked]);
  const mention = byKind(groups, 'mention')[0]!;
  assert.equal((await get<Grouped>(`/api/v2/notifications/${mention.group_key}`)).notification_groups[0]!.status_id, mention.status_id);
  const accounts = await get<{ acct: string }[]>(`/api/v2/notifications/${favs.group_key}/accounts`);
  assert.deepEqual(accounts.map((a) => a.acct), ['dave', 'carol', 'bob']);
  const res = await api.alice!(`/api/v2/notifications/${favs.group_key}/accounts?limit=2`);
  assert.deepEqual((await json<{ acct: string }[]>(res)).map((a) => a.acct), ['dave', 'carol']);
  const rest = await get<{ acct: string }[]>(link(res, 'next')!);
  assert.deepEqual(rest.map((a) => a.acct), ['bob']);
  for (const key of ['favourite-1-7', 'nonsense', 'ungrouped-999999', `favourite-${liked}-12`]) {
    assert.equal((await api.alice!(`/api/v2/notifications/${key}`)).status, 404, key);
  }
  // Nobody else sees alice's groups.
  assert.equal((await api.bob!(`/api/v2/notifications/${favs.group_key}`)).status, 404);
  assert.deepEqual(await json(api.bob!(`/api/v2/notifications/${favs.group_key}/accounts`)), []);
  const masto = createRestAPIClient({ url: t.url, accessToken: tokens.alice });
  const listed = await masto.v2.notifications.list({ limit: 40 });
  const mf = listed.notificationGroups.find((x) => x.groupKey === favs.group_key);
  assert.equal(mf?.notificationsCount, 3);
  assert.equal(mf?.type, 'favourite');
  assert.equal((mf as unknown as { statusId?: string }).statusId, liked);
});

test('unread_count counts groups (v2) and notifications (v1) above the notifications marker', async () => {
  const groups = (await get<Grouped>('/api/v2/notifications')).notification_groups;
  const v1 = await get<V1Note[]>('/api/v1/notifications?limit=80');
  assert.deepEqual(await get('/api/v2/notifications/unread_count'), { count: groups.length });
  assert.deepEqual(await get('/api/v1/notifications/unread_count'), { count: v1.length });
  assert.deepEqual(await get('/api/v2/notifications/unread_count?limit=2'), { count: 2 });
  assert.deepEqual(await get('/api/v2/notifications/unread_count?types[]=mention'), { count: 2 });
  // Reading up to the first mention leaves the second one unread.
  const first = byKind(groups, 'mention').at(-1)!;
  await json(api.alice!('/api/v1/markers', { method: 'POST', json: { notifications: { last_read_id: first.most_recent_notification_id } } }));
  assert.deepEqual(await get('/api/v2/notifications/unread_count'), { count: 1 });
  assert.deepEqual(await get('/api/v1/notifications/unread_count'), { count: 1 });
  await json(api.alice!('/api/v1/markers', { method: 'POST', json: { notifications: { last_read_id: '0' } } }));
});

test('dismissing a group deletes its notifications, and only those', async () => {
  const before = await get<V1Note[]>('/api/v1/notifications?limit=80');
  const groups = (await get<Grouped>('/api/v2/notifications')).notification_groups;
  const favs = byKind(groups, 'favourite', liked)[0]!;
  // Someone else cannot dismiss them.
  await json(api.bob!(`/api/v2/notifications/${favs.group_key}/dismiss`, { method: 'POST' }));
  assert.equal((await get<V1Note[]>('/api/v1/notifications?limit=80')).length, before.length);
  assert.deepEqual(await json(api.alice!(`/api/v2/notifications/${favs.group_key}/dismiss`, { method: 'POST' })), {});
  const after1 = await get<V1Note[]>('/api/v1/notifications?limit=80');
  assert.deepEqual(after1.map((n) => n.id), before.filter((n) => n.group_key !== favs.group_key).map((n) => n.id));
  assert.equal(before.length - after1.length, 3);
  assert.equal((await api.alice!(`/api/v2/notifications/${favs.group_key}`)).status, 404);
  const mention = byKind(groups, 'mention')[0]!;
  await json(api.alice!(`/api/v2/notifications/${mention.group_key}/dismiss`, { method: 'POST' }));
  const after2 = await get<V1Note[]>('/api/v1/notifications?limit=80');
  assert.deepEqual(after2.map((n) => n.id), after1.filter((n) => n.id !== mention.most_recent_notification_id).map((n) => n.id));
  assert.equal((await api.alice!('/api/v2/notifications/nonsense/dismiss', { method: 'POST' })).status, 404);
});

test('the v2 notification routes need read:notifications, dismiss write:notifications', async () => {
  const app = registerApp(t.hub.db, { name: 'narrow', redirectUris: ['urn:ietf:wg:oauth:2.0:oob'], scopes: 'read write', website: '' });
  const statusesOnly = bearerFetch(t, passwordToken(t.hub.db, app, t.channels.alice!, 'read:statuses write:statuses').token);
  for (const path of ['/api/v2/notifications', '/api/v2/notifications/unread_count', '/api/v1/notifications/unread_count', '/api/v2/notifications/follow-0', '/api/v2/notifications/follow-0/accounts']) {
    assert.equal((await statusesOnly(path)).status, 403, path);
  }
  assert.equal((await statusesOnly('/api/v2/notifications/follow-0/dismiss', { method: 'POST' })).status, 403);
  const readOnly = bearerFetch(t, passwordToken(t.hub.db, app, t.channels.alice!, 'read:notifications').token);
  assert.equal((await readOnly('/api/v2/notifications/follow-0/dismiss', { method: 'POST' })).status, 403);
  assert.equal((await readOnly('/api/v2/notifications')).status, 200);
});
