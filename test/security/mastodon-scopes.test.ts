import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiRoute, Method } from '../../server/http/api.js';
import { mastodonV1Routes, mastodonV2Routes } from '../../server/api/mastodon/routes.js';
import { passwordToken, registerApp } from '../../server/services/oauth2.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { bearerFetch } from '../helpers/mastodon.js';

// From the attacker's side: a token approved with one OAuth scope tries every Mastodon route. Each
// route refuses (403) every scope that does not grant what Mastodon's documentation says the route
// needs, also on the routes that answer anonymous callers; and no answer to a token without
// read:statuses carries a private or direct status, sent or received.

/** Every scope Mastodon lets an app ask for. */
const SCOPES = [
  'read', 'write', 'follow', 'push', 'profile',
  'read:accounts', 'read:blocks', 'read:bookmarks', 'read:favourites', 'read:filters', 'read:follows', 'read:lists', 'read:mutes', 'read:notifications', 'read:search', 'read:statuses',
  'write:accounts', 'write:blocks', 'write:bookmarks', 'write:conversations', 'write:favourites', 'write:filters', 'write:follows', 'write:lists', 'write:media', 'write:mutes',
  'write:notifications', 'write:reports', 'write:statuses',
];

/** What the legacy 'follow' scope grants (Mastodon's docs). */
const FOLLOW_GRANTS = ['read:follows', 'write:follows', 'read:blocks', 'write:blocks', 'read:mutes', 'write:mutes'];

/**
 * The scope each route needs, from Mastodon's API documentation and server ('a|b': either one;
 * 'none': any token). Kept here, apart from the hub's own declarations, so that a route declared
 * with a wrong scope fails, and so that a new route fails until it is listed.
 */
const NEEDS: Record<string, string> = {
  'GET /api/v1/instance': 'none',
  'POST /api/v1/apps': 'none',
  'GET /api/v1/apps/verify_credentials': 'none',
  'GET /api/v1/accounts/verify_credentials': 'read:accounts|profile',
  'PATCH /api/v1/accounts/update_credentials': 'write:accounts',
  'POST /api/v1/accounts/update_credentials': 'write:accounts',
  'GET /api/v1/accounts/lookup': 'read:accounts',
  'GET /api/v1/accounts/relationships': 'read:follows',
  'GET /api/v1/accounts/familiar_followers': 'read:follows',
  'GET /api/v1/accounts/search': 'read:accounts',
  'GET /api/v1/accounts/:id': 'read:accounts',
  'GET /api/v1/accounts/:id/statuses': 'read:statuses',
  'GET /api/v1/accounts/:id/followers': 'read:accounts',
  'GET /api/v1/accounts/:id/following': 'read:accounts',
  'POST /api/v1/accounts/:id/follow': 'write:follows',
  'POST /api/v1/accounts/:id/unfollow': 'write:follows',
  'POST /api/v1/accounts/:id/block': 'write:blocks',
  'POST /api/v1/accounts/:id/unblock': 'write:blocks',
  'POST /api/v1/accounts/:id/mute': 'write:mutes',
  'POST /api/v1/accounts/:id/unmute': 'write:mutes',
  'GET /api/v1/follow_requests': 'read:follows',
  'POST /api/v1/follow_requests/:id/authorize': 'write:follows',
  'POST /api/v1/follow_requests/:id/reject': 'write:follows',
  'GET /api/v1/blocks': 'read:blocks',
  'GET /api/v1/mutes': 'read:mutes',
  'POST /api/v1/statuses': 'write:statuses',
  'GET /api/v1/statuses/:id': 'read:statuses',
  'DELETE /api/v1/statuses/:id': 'write:statuses',
  'PUT /api/v1/statuses/:id': 'write:statuses',
  'GET /api/v1/statuses/:id/context': 'read:statuses',
  'GET /api/v1/statuses/:id/history': 'read:statuses',
  'GET /api/v1/statuses/:id/source': 'read:statuses',
  'POST /api/v1/statuses/:id/favourite': 'write:favourites',
  'POST /api/v1/statuses/:id/unfavourite': 'write:favourites',
  'POST /api/v1/statuses/:id/reblog': 'write:statuses',
  'POST /api/v1/statuses/:id/unreblog': 'write:statuses',
  'POST /api/v1/statuses/:id/bookmark': 'write:bookmarks',
  'POST /api/v1/statuses/:id/unbookmark': 'write:bookmarks',
  'POST /api/v1/statuses/:id/pin': 'write:accounts',
  'POST /api/v1/statuses/:id/unpin': 'write:accounts',
  'GET /api/v1/statuses/:id/favourited_by': 'read:accounts',
  'GET /api/v1/statuses/:id/reblogged_by': 'read:accounts',
  'POST /api/v1/media': 'write:media',
  'GET /api/v1/media/:id': 'write:media',
  'PUT /api/v1/media/:id': 'write:media',
  'GET /api/v1/timelines/home': 'read:statuses',
  'GET /api/v1/timelines/public': 'read:statuses',
  'GET /api/v1/timelines/tag/:hashtag': 'read:statuses',
  'GET /api/v1/timelines/list/:id': 'read:lists',
  'GET /api/v1/bookmarks': 'read:bookmarks',
  'GET /api/v1/favourites': 'read:favourites',
  'GET /api/v1/notifications': 'read:notifications',
  'POST /api/v1/notifications/clear': 'write:notifications',
  'GET /api/v1/notifications/unread_count': 'read:notifications',
  'GET /api/v1/notifications/:id': 'read:notifications',
  'POST /api/v1/notifications/:id/dismiss': 'write:notifications',
  'GET /api/v1/lists': 'read:lists',
  'POST /api/v1/lists': 'write:lists',
  'GET /api/v1/lists/:id': 'read:lists',
  'PUT /api/v1/lists/:id': 'write:lists',
  'DELETE /api/v1/lists/:id': 'write:lists',
  'GET /api/v1/lists/:id/accounts': 'read:lists',
  'POST /api/v1/lists/:id/accounts': 'write:lists',
  'DELETE /api/v1/lists/:id/accounts': 'write:lists',
  'GET /api/v1/conversations': 'read:statuses',
  'GET /api/v1/markers': 'read:statuses',
  'POST /api/v1/markers': 'write:statuses',
  'GET /api/v1/custom_emojis': 'none',
  'GET /api/v1/preferences': 'read:accounts',
  'GET /api/v1/filters': 'read:filters',
  'GET /api/v1/announcements': 'read',
  'GET /api/v1/followed_tags': 'read:follows',
  'GET /api/v1/scheduled_statuses': 'read:statuses',
  'GET /api/v1/endorsements': 'read:accounts',
  'GET /api/v1/domain_blocks': 'read:blocks',
  'GET /api/v1/trends/tags': 'none',
  'POST /api/v1/push/subscription': 'push',
  'GET /api/v1/push/subscription': 'push',
  'PUT /api/v1/push/subscription': 'push',
  'DELETE /api/v1/push/subscription': 'push',
  'GET /api/v1/streaming/health': 'none',
  'GET /api/v1/streaming/user': 'read:statuses',
  'GET /api/v1/streaming/user/notification': 'read:notifications',
  'GET /api/v1/streaming/public': 'read:statuses',
  'GET /api/v1/streaming/public/local': 'read:statuses',
  'GET /api/v1/streaming/public/remote': 'read:statuses',
  'GET /api/v1/streaming/hashtag': 'read:statuses',
  'GET /api/v1/streaming/hashtag/local': 'read:statuses',
  'GET /api/v1/streaming/list': 'read:statuses',
  'GET /api/v1/streaming/direct': 'read:statuses',
  'GET /api/v2/instance': 'none',
  'POST /api/v2/media': 'write:media',
  'GET /api/v2/search': 'read:search',
  'GET /api/v2/filters': 'read:filters',
  'GET /api/v2/notifications': 'read:notifications',
  'GET /api/v2/notifications/unread_count': 'read:notifications',
  'GET /api/v2/notifications/:group_key': 'read:notifications',
  'POST /api/v2/notifications/:group_key/dismiss': 'write:notifications',
  'GET /api/v2/notifications/:group_key/accounts': 'read:notifications',
};

/** Whether a token of this one scope may call a route that needs `need`. */
function grants(scope: string, need: string): boolean {
  return need.split('|').some((n) => n === 'none' || scope === n || (n.includes(':') && scope === n.split(':')[0]) || (scope === 'follow' && FOLLOW_GRANTS.includes(n)));
}

interface RouteMethod {
  key: string;
  method: Method;
  prefix: string;
  route: ApiRoute;
}

/** Every method of every route in the route tables, as the tables list them. */
function routeMethods(): RouteMethod[] {
  const out: RouteMethod[] = [];
  for (const [prefix, routes] of [['/api/v1', mastodonV1Routes], ['/api/v2', mastodonV2Routes]] as const) {
    for (const route of routes) {
      assert.notEqual(route.methods, '*', `${prefix}/${route.path} takes any method`);
      for (const method of route.methods as Method[]) out.push({ key: `${method} ${prefix}/${route.path}`, method, prefix, route });
    }
  }
  return out;
}

let t: TestHub;
/** A token of each single scope, all for one channel. */
const tokens: Record<string, string> = {};

function tokenFor(channel: string, scope: string): string {
  const app = registerApp(t.hub.db, { name: 'scope probe', redirectUris: ['urn:ietf:wg:oauth:2.0:oob'], scopes: 'read write follow push profile', website: '' });
  return passwordToken(t.hub.db, app, t.channels[channel]!, scope).token;
}

before(async () => {
  t = await startHub({ channels: ['alice'] });
  await t.addChannel('bob');
  await t.addChannel('eve');
  for (const scope of SCOPES) tokens[scope] = tokenFor('eve', scope);
});
after(() => t.stop());

interface Answer {
  status: number;
  text: string;
}

/** One request; an event stream that was opened is closed once its headers arrived. */
async function ask(token: string, method: string, path: string): Promise<Answer> {
  const ctl = new AbortController();
  const res = await fetch(t.url + path, { method, headers: { authorization: `Bearer ${token}` }, signal: ctl.signal });
  if (/event-stream/.test(res.headers.get('content-type') ?? '')) {
    ctl.abort();
    return { status: res.status, text: '' };
  }
  return { status: res.status, text: await res.text() };
}

async function inBatches<T>(jobs: (() => Promise<T>)[], size = 24): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += size) out.push(...(await Promise.all(jobs.slice(i, i + size).map((j) => j()))));
  return out;
}

test('every Mastodon route declares its scope, and this test knows what each one needs', () => {
  const all = routeMethods();
  const undeclared = all.filter((r) => r.route.scope === undefined).map((r) => r.key);
  assert.deepEqual(undeclared, [], 'routes without a declared scope');
  const keys = all.map((r) => r.key);
  assert.deepEqual(keys.filter((k, i) => keys.indexOf(k) !== i), [], 'listed twice');
  assert.deepEqual(keys.filter((k) => !(k in NEEDS)), [], 'routes this test does not know: add what Mastodon documents they need to NEEDS');
  assert.deepEqual(Object.keys(NEEDS).filter((k) => !keys.includes(k)), [], 'NEEDS lists routes the tables no longer have');
});

test('each route refuses a token of every scope that does not grant what it needs, and admits the others', async () => {
  /** Ids that exist nowhere: an admitted request ends in 404, 422 or an empty answer, and changes nothing that matters here. */
  const concrete = (r: RouteMethod) => {
    const path = `${r.prefix}/${r.route.path.replace(/:hashtag/, 'nothing').replace(/:\w+/g, '999999999')}`;
    return path.endsWith('streaming/hashtag') || path.endsWith('streaming/hashtag/local') ? `${path}?tag=nothing` : path.endsWith('streaming/list') ? `${path}?list=999999999` : path;
  };
  const cases = routeMethods().filter((r) => r.key in NEEDS).flatMap((r) => SCOPES.map((scope) => ({ r, scope, path: concrete(r) })));
  const answers = await inBatches(cases.map((c) => () => ask(tokens[c.scope]!, c.r.method, c.path)));
  const wrong: string[] = [];
  cases.forEach((c, i) => {
    const a = answers[i]!;
    const refused = a.status === 403;
    if (grants(c.scope, NEEDS[c.r.key]!)) {
      if (refused || a.status === 401) wrong.push(`${c.r.key} refuses ${c.scope}: ${a.status} ${a.text.slice(0, 100)}`);
    } else if (!refused) {
      wrong.push(`${c.r.key} admits ${c.scope}: ${a.status} ${a.text.slice(0, 100)}`);
    }
  });
  assert.deepEqual(wrong, []);
  assert.ok(cases.length > 2000, `${cases.length} requests`);
});

test('an app token (no channel) is held to the same scopes on the routes anyone may read', async () => {
  for (const scope of ['write', 'read:accounts', 'read:statuses']) {
    const app = registerApp(t.hub.db, { name: 'app only', redirectUris: ['urn:ietf:wg:oauth:2.0:oob'], scopes: scope, website: '' });
    const cc = await fetch(`${t.url}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret, scope }) });
    const token = ((await cc.json()) as { access_token: string }).access_token;
    for (const path of ['/api/v1/timelines/public', '/api/v1/accounts/1/statuses']) {
      const a = await ask(token, 'GET', path);
      assert.equal(a.status === 403, !grants(scope, 'read:statuses'), `${scope} ${path}: ${a.status} ${a.text.slice(0, 100)}`);
    }
  }
});

test('no answer to a token without read:statuses carries a private or direct status, sent or received', async () => {
  const SECRETS = ['private-plum-4417', 'direct-damson-9902', 'received-rowan-3310', 'theirs-tamarind-2284'];
  const full = bearerFetch(t, tokenFor('alice', 'read write follow'));
  const fullBob = bearerFetch(t, tokenFor('bob', 'read write follow'));
  const post = async (api: typeof full, body: unknown) => {
    const res = await api('/api/v1/statuses', { method: 'POST', json: body });
    assert.equal(res.status, 200);
    return ((await res.json()) as { id: string }).id;
  };
  // alice and bob follow each other: each sees the other's private posts.
  const aliceId = String(((await (await fullBob('/api/v1/accounts/lookup?acct=alice')).json()) as { id: string }).id);
  const bobId = String(((await (await full('/api/v1/accounts/lookup?acct=bob')).json()) as { id: string }).id);
  await fullBob(`/api/v1/accounts/${aliceId}/follow`, { method: 'POST' });
  await full(`/api/v1/follow_requests/${bobId}/authorize`, { method: 'POST' });
  await full(`/api/v1/accounts/${bobId}/follow`, { method: 'POST' });
  await fullBob(`/api/v1/follow_requests/${aliceId}/authorize`, { method: 'POST' });
  const statusIds = [
    await post(full, { status: `${SECRETS[0]} #secrettag`, visibility: 'private' }),
    await post(full, { status: `@bob ${SECRETS[1]} #secrettag`, visibility: 'direct' }),
    await post(fullBob, { status: `@alice ${SECRETS[2]} #secrettag`, visibility: 'direct' }),
    await post(fullBob, { status: `${SECRETS[3]} #secrettag`, visibility: 'private' }),
  ];
  // With read:statuses, the routes probed below do show them: the probe would see a leak.
  const reader = bearerFetch(t, tokenFor('alice', 'read:statuses'));
  const shown = (await Promise.all(['/api/v1/timelines/home', `/api/v1/accounts/${aliceId}/statuses`, `/api/v1/accounts/${bobId}/statuses`].map(async (p) => (await reader(p)).text()))).join();
  for (const s of SECRETS) assert.ok(shown.includes(s), `read:statuses shows ${s}`);
  const listId = ((await (await full('/api/v1/lists', { method: 'POST', json: { title: 'friends' } })).json()) as { id: string }).id;
  await full(`/api/v1/lists/${listId}/accounts`, { method: 'POST', json: { account_ids: [bobId] } });
  const notes = (await (await full('/api/v1/notifications')).json()) as { id: string }[];
  assert.ok(notes.length > 0, 'alice was mentioned');

  /** Routes that Mastodon documents as showing statuses under another scope than read:statuses. */
  const SHOWN_UNDER: Record<string, string> = {
    'GET /api/v1/notifications': 'read:notifications',
    'GET /api/v1/notifications/:id': 'read:notifications',
    'GET /api/v2/notifications': 'read:notifications',
    'GET /api/v2/notifications/:group_key': 'read:notifications',
    'GET /api/v1/bookmarks': 'read:bookmarks',
    'GET /api/v1/favourites': 'read:favourites',
    'GET /api/v1/timelines/list/:id': 'read:lists',
    'GET /api/v2/search': 'read:search',
  };
  const ids: Record<string, string[]> = { accounts: [aliceId, bobId], statuses: statusIds, lists: [listId], notifications: notes.map((n) => n.id), timelines: [listId], media: ['1'] };
  const urls = (r: RouteMethod): string[] => {
    const paths = r.route.path.includes(':hashtag') ? [r.route.path.replace(':hashtag', 'secrettag')] : r.route.path.includes(':') ? (ids[r.route.path.split('/')[0]!] ?? ['1']).map((id) => r.route.path.replace(/:\w+/, id)) : [r.route.path];
    const query = r.route.path === 'search' ? ['?q=plum', '?q=damson', '?q=rowan', '?q=tamarind&type=statuses'] : r.route.path === 'accounts/:id/statuses' ? ['', '?exclude_replies=true', '?pinned=true'] : r.route.path === 'accounts/lookup' ? ['?acct=alice'] : [''];
    return paths.flatMap((p) => query.map((q) => `${r.prefix}/${p}${q}`));
  };
  const withoutStatuses = SCOPES.filter((s) => !grants(s, 'read:statuses'));
  const cases = routeMethods()
    .filter((r) => r.method === 'GET' && !r.route.path.startsWith('streaming/'))
    .flatMap((r) => urls(r).flatMap((path) => withoutStatuses.filter((scope) => !(SHOWN_UNDER[r.key] && grants(scope, SHOWN_UNDER[r.key]!))).map((scope) => ({ r, path, scope }))));
  const tokensOfAlice = Object.fromEntries(withoutStatuses.map((s) => [s, tokenFor('alice', s)]));
  const answers = await inBatches(cases.map((c) => () => ask(tokensOfAlice[c.scope]!, 'GET', c.path)));
  const leaks = cases.flatMap((c, i) => {
    const found = SECRETS.filter((s) => answers[i]!.text.includes(s));
    return found.length ? [`${c.scope} GET ${c.path} (${answers[i]!.status}) shows ${found.join(', ')}`] : [];
  });
  assert.deepEqual(leaks, []);
  assert.ok(cases.length > 1000, `${cases.length} requests`);
});
