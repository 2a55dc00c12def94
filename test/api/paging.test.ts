import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { getItemByMid } from '../../server/store/items.js';
import { seedPosts } from '../helpers/native.js';

/**
 * Every paging parameter of every list, at its edges: for ids 0, 1, the oldest id, the one above it,
 * the newest, beyond the newest, -1 and garbage; for offsets and pages 0, 1, the last, the end and
 * beyond, -1 and garbage. The answer at each follows from the parameter's meaning (MEANINGS) applied
 * to the whole list, read in one request first:
 *
 * - Mastodon API: max_id exclusive (older than), since_id exclusive (newer than), min_id exclusive
 *   with the page just above it, offset (search) a number of entries to skip; anything but digits
 *   is a 422.
 * - microblog API timelines and direct messages: since_id exclusive, max_id inclusive (DESIGN.md),
 *   min_id exclusive with the page just above it; contact lists (Friendica's id filters): all
 *   exclusive. -1 is a bound like any other (clients send it), a non-number or less is a 400.
 *   page counts from 1; 0, negatives and garbage are the first page (as Friendica reads them).
 * - native API: since_id exclusive (thread tops), start an offset, page from 1; bad values are a 400.
 *
 * An explicit 0 or 1 is a bound, never "no bound": max_id=1 once answered the whole first page,
 * so a client paging to the end got the same posts again and again.
 */

type Api = 'mastodon' | 'compat' | 'native';

const PAGE = 2;

interface Meaning {
  /** The values to try on a list of these ids (newest first when ids are bounds). */
  edges: (all: number[]) => [name: string, raw: string][];
  /** A page's ids at this value, or the status that refuses it. */
  answer: (all: number[], raw: string, api: Api) => number[] | number;
  /** Whether the list must be ordered by id, newest first. */
  byId: boolean;
}

function idEdges(all: number[]): [string, string][] {
  const oldest = Math.min(...all);
  const newest = Math.max(...all);
  return [['0', '0'], ['1', '1'], ['oldest id', String(oldest)], ['oldest id + 1', String(oldest + 1)], ['newest id', String(newest)], ['beyond the newest', String(newest + 1)], ['-1', '-1'], ['garbage', 'abc']];
}

/** Mastodon validates ids (422); the other APIs refuse what is not a number (400), and the native one negatives. */
function refusedId(raw: string, api: Api): number | undefined {
  if (raw === 'abc' || (raw === '-1' && api !== 'compat')) return api === 'mastodon' ? 422 : 400;
  return undefined;
}

function idBound(passes: (id: number, v: number) => boolean, page: 'newest' | 'oldest'): Meaning {
  return {
    edges: idEdges,
    byId: true,
    answer: (all, raw, api) => {
      const kept = all.filter((id) => passes(id, Number(raw)));
      return refusedId(raw, api) ?? (page === 'newest' ? kept.slice(0, PAGE) : kept.slice(-PAGE));
    },
  };
}

const MEANINGS = {
  /** max_id of the Mastodon API and Friendica's contact lists. */
  'older than': idBound((id, v) => id < v, 'newest'),
  /** max_id of the microblog API's timelines and direct messages. */
  'at most': idBound((id, v) => id <= v, 'newest'),
  /** since_id: the newest of those above. */
  'newer than': idBound((id, v) => id > v, 'newest'),
  /** min_id: the oldest of those above (still newest first). */
  'just above': idBound((id, v) => id > v, 'oldest'),
  /** offset, start: entries to skip. */
  skip: {
    byId: false,
    edges: (all) => [['0', '0'], ['1', '1'], ['the last', String(all.length - 1)], ['the length', String(all.length)], ['beyond', String(all.length + 1)], ['-1', '-1'], ['garbage', 'abc']],
    answer: (all, raw, api) => (/^\d+$/.test(raw) ? all.slice(Number(raw), Number(raw) + PAGE) : api === 'mastodon' ? 422 : 400),
  },
  /** page, from 1. */
  page: {
    byId: false,
    edges: (all) => {
      const pages = Math.ceil(all.length / PAGE);
      return [['0', '0'], ['1', '1'], ['2', '2'], ['the last page', String(pages)], ['beyond', String(pages + 1)], ['-1', '-1'], ['garbage', 'abc']];
    },
    answer: (all, raw, api) => {
      const n = /^-?\d+$/.test(raw) ? Number(raw) : undefined;
      if (api !== 'compat' && (n === undefined || n < 1)) return 400;
      const page = Math.max(1, n ?? 1);
      return all.slice((page - 1) * PAGE, page * PAGE);
    },
  },
} satisfies Record<string, Meaning>;

interface Route {
  api: Api;
  /** Path with its own query (no paging parameters). */
  path: () => string;
  /** The parameter that sizes a page, and the value that reads the whole list at once. */
  size: [name: string, all: number];
  /** Extra query for every request (e.g. cursor=-1 so contact lists answer pages). */
  query?: string;
  params: Partial<Record<string, keyof typeof MEANINGS>>;
  /** The ids of an answer, in its order. */
  ids: (body: any) => number[];
}

const MASTODON_IDS = (b: { id: string }[]) => b.map((e) => Number(e.id));
const COMPAT_IDS = (b: { id: number }[]) => b.map((e) => e.id);
const MASTODON: Route['params'] = { max_id: 'older than', since_id: 'newer than', min_id: 'just above' };
const TIMELINE: Route['params'] = { max_id: 'at most', since_id: 'newer than', page: 'page' };
const DMS: Route['params'] = { max_id: 'at most', since_id: 'newer than', min_id: 'just above', page: 'page' };
const CONTACTS: Route['params'] = { max_id: 'older than', since_id: 'newer than', min_id: 'just above' };

let t: TestHub;
const api: Record<string, ReturnType<typeof bearerFetch>> = {};
const acct: Record<string, string> = {};
const fx = { post: 0, shared: 0, list: 0, dmUri: '' };

async function ok(res: Response | Promise<Response>): Promise<any> {
  const r = await res;
  const text = await r.text();
  assert.ok(r.status < 300, `${r.url}: ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const m = (nick: string, path: string, json?: unknown) => ok(api[nick]!(path, json === undefined ? {} : { method: 'POST', json }));
const compatPost = (nick: string, path: string, form: Record<string, string>) => ok(t.request(path, { as: nick, method: 'POST', body: new URLSearchParams(form) }));

before(async () => {
  t = await startHub({ channels: ['alice'] });
  const nicks = ['bob', 'carol', 'dave', 'erin', 'frank', 'gina', 'hank', 'ivy', 'jack', 'kim'];
  for (const n of nicks) await t.addChannel(n);
  const session = await webLogin(t, 'alice');
  for (const n of ['alice', ...nicks]) {
    api[n] = bearerFetch(t, await mastodonToken(t, session, { channel: n }));
    acct[n] = (await m(n, '/api/v1/accounts/verify_credentials')).id;
  }
  // alice follows bob, carol, dave; they and erin follow her.
  for (const n of ['bob', 'carol', 'dave']) await m('alice', `/api/v1/accounts/${acct[n]}/follow`, {});
  for (const n of ['bob', 'carol', 'dave', 'erin']) await m(n, `/api/v1/accounts/${acct.alice}/follow`, {});
  // Her posts, theirs, and replies to her first post.
  const mine: number[] = [];
  for (let i = 1; i <= 4; i++) mine.push(Number((await m('alice', '/api/v1/statuses', { status: `pagingword number ${i} #paging` })).id));
  fx.post = mine[0]!;
  fx.shared = mine[1]!;
  for (const n of ['bob', 'carol', 'dave']) {
    await m(n, '/api/v1/statuses', { status: `pagingword from ${n} #paging` });
    await m(n, '/api/v1/statuses', { status: `@alice answering pagingword`, in_reply_to_id: String(fx.post) });
    await m(n, `/api/v1/statuses/${fx.post}/favourite`, {});
    await m(n, `/api/v1/statuses/${fx.shared}/reblog`, {});
  }
  // Likes and bookmarks (stars) of alice, direct posts (conversations).
  const home = (await m('alice', '/api/v1/timelines/home?limit=40')) as { id: string }[];
  for (const s of home.slice(0, 4)) {
    await m('alice', `/api/v1/statuses/${s.id}/favourite`, {});
    await m('alice', `/api/v1/statuses/${s.id}/bookmark`, {});
  }
  for (const n of ['bob', 'carol', 'dave']) await m('alice', '/api/v1/statuses', { status: `@${n} just us`, visibility: 'direct' });
  // A list, blocks, mutes and (once she approves followers by hand) follow requests.
  fx.list = Number((await m('alice', '/api/v1/lists', { title: 'Friends' })).id);
  await m('alice', `/api/v1/lists/${fx.list}/accounts`, { account_ids: [acct.bob, acct.carol, acct.dave] });
  for (const n of ['ivy', 'jack', 'kim']) await m('alice', `/api/v1/accounts/${acct[n]}/block`, {});
  for (const n of ['bob', 'carol', 'dave']) await m('alice', `/api/v1/accounts/${acct[n]}/mute`, {});
  await ok(api.alice!('/api/v1/accounts/update_credentials', { method: 'PATCH', json: { locked: true } }));
  for (const n of ['frank', 'gina', 'hank']) await m(n, `/api/v1/accounts/${acct.alice}/follow`, {});
  // Direct messages both ways (microblog API).
  let last: string | undefined;
  for (const [from, to] of [['alice', 'bob'], ['bob', 'alice'], ['alice', 'bob'], ['bob', 'alice'], ['alice', 'bob'], ['bob', 'alice']]) {
    const dm = await compatPost(from!, '/api/direct_messages/new.json', { screen_name: to!, text: `a message from ${from}`, ...(last ? { replyto: last } : {}) });
    fx.dmUri ||= dm.friendica_parent_uri;
    last = String(dm.id);
  }
  await compatPost('alice', '/api/direct_messages/new.json', { screen_name: 'carol', text: 'another conversation' });
});
after(() => t?.stop());

const ROUTES: Route[] = [
  // Mastodon API (as alice).
  ...['timelines/home', 'timelines/public', 'timelines/public?local=true', 'timelines/tag/paging', 'bookmarks', 'favourites', 'conversations'].map(
    (p): Route => ({ api: 'mastodon', path: () => `/api/v1/${p}`, size: ['limit', 40], params: MASTODON, ids: MASTODON_IDS }),
  ),
  { api: 'mastodon', path: () => `/api/v1/timelines/list/${fx.list}`, size: ['limit', 40], params: MASTODON, ids: MASTODON_IDS },
  { api: 'mastodon', path: () => `/api/v1/accounts/${acct.alice}/statuses`, size: ['limit', 40], params: MASTODON, ids: MASTODON_IDS },
  { api: 'mastodon', path: () => `/api/v1/accounts/${acct.bob}/statuses`, size: ['limit', 40], params: MASTODON, ids: MASTODON_IDS },
  { api: 'mastodon', path: () => '/api/v1/notifications', size: ['limit', 80], params: MASTODON, ids: MASTODON_IDS },
  { api: 'mastodon', path: () => '/api/v2/search?q=pagingword&type=statuses', size: ['limit', 40], params: { ...MASTODON, offset: 'skip' }, ids: (b) => MASTODON_IDS(b.statuses) },
  { api: 'mastodon', path: () => '/api/v2/search?q=a&type=accounts', size: ['limit', 40], params: { offset: 'skip' }, ids: (b) => MASTODON_IDS(b.accounts) },
  { api: 'mastodon', path: () => '/api/v1/accounts/search?q=a', size: ['limit', 80], params: { offset: 'skip' }, ids: MASTODON_IDS },
  ...[
    () => `accounts/${acct.alice}/followers`,
    () => `accounts/${acct.alice}/following`,
    () => 'blocks',
    () => 'mutes',
    () => 'follow_requests',
    () => `lists/${fx.list}/accounts`,
    () => `statuses/${fx.post}/favourited_by`,
    () => `statuses/${fx.shared}/reblogged_by`,
  ].map((p): Route => ({ api: 'mastodon', path: () => `/api/v1/${p()}`, size: ['limit', 80], params: MASTODON, ids: MASTODON_IDS })),
  // Microblog API (as alice).
  ...[
    'statuses/home_timeline', 'statuses/friends_timeline', 'statuses/public_timeline', 'statuses/networkpublic_timeline', 'statuses/user_timeline',
    'statuses/mentions', 'statuses/mentions_timeline', 'statuses/replies', 'favorites',
  ].map((p): Route => ({ api: 'compat', path: () => `/api/${p}.json`, size: ['count', 100], params: TIMELINE, ids: COMPAT_IDS })),
  { api: 'compat', path: () => `/api/lists/statuses.json?list_id=${fx.list}`, size: ['count', 100], params: TIMELINE, ids: COMPAT_IDS },
  { api: 'compat', path: () => `/api/conversation/show.json?id=${fx.post}`, size: ['count', 100], params: TIMELINE, ids: COMPAT_IDS },
  { api: 'compat', path: () => `/api/statuses/show.json?id=${fx.post}&conversation=1`, size: ['count', 100], params: TIMELINE, ids: COMPAT_IDS },
  { api: 'compat', path: () => '/api/search.json?q=pagingword', size: ['count', 100], params: TIMELINE, ids: COMPAT_IDS },
  { api: 'compat', path: () => '/api/search/tweets.json?q=%23paging', size: ['count', 100], params: TIMELINE, ids: (b) => COMPAT_IDS(b.statuses) },
  ...['direct_messages', 'direct_messages/sent', 'direct_messages/all'].map((p): Route => ({ api: 'compat', path: () => `/api/${p}.json`, size: ['count', 100], params: DMS, ids: COMPAT_IDS })),
  { api: 'compat', path: () => `/api/direct_messages/conversation.json?uri=${encodeURIComponent(fx.dmUri)}`, size: ['count', 100], params: DMS, ids: COMPAT_IDS },
  ...['followers/ids', 'friends/ids', 'blocks/ids', 'friendships/incoming'].map(
    (p): Route => ({ api: 'compat', path: () => `/api/${p}.json`, size: ['count', 200], query: 'cursor=-1', params: CONTACTS, ids: (b) => b.ids }),
  ),
  ...['followers/list', 'friends/list', 'statuses/followers', 'statuses/friends', 'blocks/list'].map(
    (p): Route => ({ api: 'compat', path: () => `/api/${p}.json`, size: ['count', 200], query: 'cursor=-1', params: CONTACTS, ids: (b) => COMPAT_IDS(b.users) }),
  ),
  // Native API (as alice): thread tops of the network stream.
  {
    api: 'native',
    path: () => '/api/z/1.0/network/stream?top=1&order=post',
    size: ['records', 1000],
    params: { since_id: 'newer than', start: 'skip', page: 'page' },
    // Portable items name themselves by mid only.
    ids: (b: { message_id: string }[]) => b.map((i) => getItemByMid(t.hub.db, i.message_id)?.id ?? -1),
  },
];

function request(r: Route, query: string): Promise<Response> {
  const path = r.path();
  const url = `${path}${path.includes('?') ? '&' : '?'}${[r.query, query].filter(Boolean).join('&')}`;
  return r.api === 'mastodon' ? api.alice!(url) : t.request(url, { as: 'alice' });
}

test('every paging parameter of every list answers its edges as its meaning says', async () => {
  const failures: string[] = [];
  let asked = 0;
  for (const r of ROUTES) {
    const whole = await request(r, `${r.size[0]}=${r.size[1]}`);
    const body = await whole.json();
    assert.equal(whole.status, 200, `${r.path()}: ${JSON.stringify(body).slice(0, 200)}`);
    const all = r.ids(body);
    assert.ok(all.length > PAGE, `${r.path()} lists more than a page (${all.length})`);
    assert.ok(!all.includes(-1), `${r.path()}: ids known`);
    for (const [param, name] of Object.entries(r.params)) {
      const meaning: Meaning = MEANINGS[name!];
      if (meaning.byId) assert.deepEqual([...all].sort((a, b) => b - a), all, `${r.path()} is newest first`);
      for (const [edge, raw] of meaning.edges(all)) {
        const res = await request(r, `${r.size[0]}=${PAGE}&${param}=${raw}`);
        const text = await res.text();
        asked++;
        const what = `${r.path()} ${param}=${raw} (${edge}, ${name})`;
        const want = meaning.answer(all, raw, r.api);
        if (typeof want === 'number' || res.status !== 200) {
          if (res.status !== want) failures.push(`${what}: ${res.status}, expected ${JSON.stringify(want)} ${text.slice(0, 120)}`);
          continue;
        }
        const got = r.ids(JSON.parse(text));
        if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${what}: got ${JSON.stringify(got)}, expected ${JSON.stringify(want)} of ${JSON.stringify(all)}`);
      }
    }
  }
  assert.ok(asked > 700, `asked ${asked}`);
  assert.equal(failures.length, 0, `${failures.length} answers differ:\n${failures.join('\n')}`);
});

test('native file listing: start is an offset and records a count (0 = all), an explicit 0 never a "no bound" of the other', async () => {
  for (let i = 0; i < 4; i++) {
    const f = new FormData();
    f.append('media', new Blob([`file ${i}`], { type: 'text/plain' }), `f${i}.txt`);
    await ok(t.request('/api/z/1.0/file/upload', { as: 'alice', method: 'POST', body: f }));
  }
  const list = async (q: string) => {
    const res = await t.request(`/api/z/1.0/files?${q}`, { as: 'alice' });
    return { status: res.status, body: (await res.json()) as { results?: { hash: string }[] } };
  };
  const all = (await list('')).body.results!.map((f) => f.hash);
  assert.ok(all.length >= 4);
  const cases: [string, string[] | number][] = [
    ['records=0', all],
    ['start=0&records=0', all],
    ['start=1&records=0', all], // start applies only with a positive records (Hubzilla)
    ['start=0&records=2', all.slice(0, 2)],
    ['start=1&records=2', all.slice(1, 3)],
    [`start=${all.length - 1}&records=2`, all.slice(-1)],
    [`start=${all.length}&records=2`, []],
    [`start=${all.length + 5}&records=2`, []],
    ['start=0&records=1', all.slice(0, 1)],
    ['start=-1&records=2', 400],
    ['start=0&records=-1', 400],
    ['start=abc&records=2', 400],
    ['start=0&records=abc', 400],
  ];
  for (const [q, want] of cases) {
    const { status, body } = await list(q);
    if (typeof want === 'number') assert.equal(status, want, q);
    else assert.deepEqual(body.results?.map((f) => f.hash), want, q);
  }
});

test('min_id reads upwards from it however many items lie above (an account with 450 posts)', async () => {
  const many = await t.addChannel('many');
  seedPosts(t.hub, many, 450);
  const id = (await ok(t.request('/api/v1/accounts/lookup?acct=many'))).id as string;
  const newestFirst = (await ok(api.alice!(`/api/v1/accounts/${id}/statuses?limit=40`))) as { id: string }[];
  const last = Number(newestFirst[0]!.id);
  const first = last - 449;
  const page = async (q: string) => ((await ok(api.alice!(`/api/v1/accounts/${id}/statuses?limit=2&${q}`))) as { id: string }[]).map((s) => Number(s.id));
  assert.deepEqual(await page('min_id=0'), [first + 1, first]);
  assert.deepEqual(await page(`min_id=${first}`), [first + 2, first + 1]);
  assert.deepEqual(await page(`min_id=${first + 10}&max_id=${first + 12}`), [first + 11]);
  assert.deepEqual(await page(`max_id=${first}`), []);
  assert.deepEqual(await page(`max_id=${first + 1}`), [first]);
});
