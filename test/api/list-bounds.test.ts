import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { insertAttach } from '../../server/store/attachments.js';
import { insertPhoto, PHOTO_NORMAL } from '../../server/store/photos.js';
import { insertNotification } from '../../server/store/notify.js';
import { NOTIFY } from '../../server/services/notifications.js';
import { FOLLOW_NOTIFY_VERB } from '../../server/services/connections.js';
import { insertConnection, setAbconfig, updateConnection } from '../../server/store/connections.js';
import { addGroupMember, insertGroup } from '../../server/store/groups.js';

/**
 * The lists that grow without bound (files, photos, notifications, connections, followers, a
 * group's members), each holding more rows than
 * its largest page: no answer holds more than its cap, and walking the pages the way the API says
 * yields every row exactly once. The native files and photos listings keep Hubzilla's "records 0
 * = all" (importers rely on it), so there the whole list must come streamed, never built whole.
 * (test/api/paging.test.ts checks each paging parameter's edges on short lists.)
 */

// More than two of the batches (500) the hub reads a long listing in.
const FILES = 1200;
const IN_FOLDER = 600;
const PHOTOS = 1200;
const NOTIFICATIONS = 450;
const FRIENDS = 250;
const FOLLOWERS = 250;
const REQUESTS = 200;
const BLOCKED = 250;
// A group (a Mastodon list) of more members than a batch.
const MEMBERS = 600;

let t: TestHub;
let mastodon: ReturnType<typeof bearerFetch>;
let accountId = '';
let groupId = 0;
const expected: Record<string, string[]> = {};

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function read(res: Promise<Response>): Promise<Answer> {
  const r = await res;
  const text = await r.text();
  assert.equal(r.status, 200, `${r.url}: ${r.status} ${text.slice(0, 200)}`);
  return { status: r.status, headers: r.headers, body: JSON.parse(text) };
}

const native = (path: string) => read(t.request(`/api/z/1.0/${path}`, { as: 'alice' }));
const compat = (path: string) => read(t.request(`/api/${path}`, { as: 'alice' }));

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  const session = await webLogin(t, 'alice');
  mastodon = bearerFetch(t, await mastodonToken(t, session, { channel: 'alice' }));
  accountId = ((await (await mastodon('/api/v1/accounts/verify_credentials')).json()) as { id: string }).id;
  const db = t.hub.db;
  const alice = t.channels.alice!;
  const bob = t.channels.bob!;
  db.transaction(() => {
    // Files: several share one creation time (the order's tie is broken by id), some in a folder.
    for (let i = 0; i < FILES; i++) {
      const created = `2025-01-01 00:${String(Math.floor(i / 70)).padStart(2, '0')}:00`;
      insertAttach(db, {
        aid: alice.channel_account_id, uid: alice.channel_id, hash: `seedfile${i}`, creator: alice.channel_hash, filename: `f${i}.txt`,
        filetype: 'text/plain', filesize: 1, revision: 0, folder: i < IN_FOLDER ? 'seedfolder' : '', flags: 0, is_dir: 0, is_photo: 0,
        os_storage: 1, os_path: '', display_path: '', content: '', created, edited: created, allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '',
      });
    }
    for (let i = 0; i < PHOTOS; i++) {
      const created = `2025-02-01 00:${String(Math.floor(i / 70)).padStart(2, '0')}:00`;
      insertPhoto(db, {
        aid: alice.channel_account_id, uid: alice.channel_id, xchan: alice.channel_hash, resource_id: `seedphoto${i}`, created, edited: created,
        expires: '0001-01-01 00:00:00', title: '', description: '', album: i % 2 ? 'Odd' : 'Even', filename: `p${i}.jpg`, mimetype: 'image/jpeg',
        height: 1, width: 1, filesize: 1, content: '', imgscale: 0, photo_usage: PHOTO_NORMAL, profile: 0, is_nsfw: 0, os_storage: 1, os_path: '',
        display_path: '', photo_flags: 0, allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '',
      });
    }
    for (let i = 0; i < NOTIFICATIONS; i++) {
      insertNotification(db, {
        hash: `seednote${i}`, xname: 'Bob', url: bob.channel_url ?? '', photo: '', created: '2025-03-01 00:00:00', msg: 'Bob follows you', aid: alice.channel_account_id,
        uid: alice.channel_id, link: '', iid: 0, parent: 0, ntype: NOTIFY.INTRO, verb: FOLLOW_NOTIFY_VERB, otype: 'intro', xchan: bob.channel_hash,
      } as never);
    }
    // People elsewhere whom alice follows.
    const xchan = db.prepare("INSERT INTO xchan (xchan_hash, xchan_name, xchan_addr, xchan_url, xchan_network) VALUES (?, ?, ?, ?, 'activitypub')");
    for (let i = 0; i < FRIENDS; i++) {
      const hash = `https://elsewhere.example/users/friend${i}`;
      xchan.run(hash, `Friend ${i}`, `friend${i}@elsewhere.example`, hash);
      insertConnection(db, { account: alice.channel_account_id, channel: alice.channel_id, xchan: hash, pending: false, myPerms: 0, theirPerms: 0 });
      // She muted them all.
      setAbconfig(db, alice.channel_id, hash, 'mastodon', 'muted', '1');
    }
    // People elsewhere who follow her, who ask to, whom she blocked, and the members of her group.
    const person = (kind: string, i: number) => {
      const hash = `https://elsewhere.example/users/${kind}${i}`;
      xchan.run(hash, `${kind} ${i}`, `${kind}${i}@elsewhere.example`, hash);
      return hash;
    };
    const connect = (hash: string, pending: boolean) =>
      insertConnection(db, { account: alice.channel_account_id, channel: alice.channel_id, xchan: hash, pending, unconnected: true, myPerms: 0, theirPerms: 0 });
    const followedBy = db.prepare("INSERT INTO fed_follow (channel_id, actor, direction, activity_id, accepted) VALUES (?, ?, 'in', ?, 1)");
    for (let i = 0; i < FOLLOWERS; i++) {
      const hash = person('follower', i);
      connect(hash, false);
      followedBy.run(alice.channel_id, hash, `${hash}#follow`);
    }
    for (let i = 0; i < REQUESTS; i++) connect(person('asker', i), true);
    for (let i = 0; i < BLOCKED; i++) updateConnection(db, connect(person('blocked', i), false), { abook_blocked: 1 });
    groupId = insertGroup(db, alice.channel_id, 'seedgroup', 'Seeded');
    for (let i = 0; i < MEMBERS; i++) addGroupMember(db, alice.channel_id, groupId, person('member', i));
  })();
  const ids = (sql: string) => (db.prepare(sql).pluck().all(alice.channel_id) as (string | number)[]).map(String);
  expected.files = ids('SELECT hash FROM attach WHERE uid = ?');
  expected.folder = ids("SELECT hash FROM attach WHERE uid = ? AND folder = 'seedfolder'");
  expected.photos = ids('SELECT resource_id FROM photo WHERE uid = ? AND photo_usage IN (0, 1)');
  expected.odd = ids("SELECT resource_id FROM photo WHERE uid = ? AND album = 'Odd'");
  expected.friends = (db.prepare("SELECT xchan_id FROM xchan WHERE xchan_hash LIKE 'https://elsewhere.example/users/friend%'").pluck().all() as number[]).map(String);
  expected.notifications = ids('SELECT id FROM notify WHERE uid = ?');
  const accounts = (kind: string) => (db.prepare('SELECT xchan_id FROM xchan WHERE xchan_hash LIKE ?').pluck().all(`https://elsewhere.example/users/${kind}%`) as number[]).map(String);
  expected.followers = accounts('follower');
  expected.requests = accounts('asker');
  expected.blocked = accounts('blocked');
  expected.members = accounts('member');
  expected.abook = ids('SELECT abook_id FROM abook WHERE abook_channel = ?');
  expected.memberRecords = (db.prepare('SELECT id FROM pgrp_member WHERE gid = ?').pluck().all(groupId) as number[]).map(String);
});
after(() => t?.stop());

interface ListCase {
  name: string;
  /** Which rows the list holds (read from the database). */
  rows: string;
  /** No answer may hold more entries than this. */
  cap: number;
  /** The pages, first to last, as a client walks them asking for the largest page. */
  pages(): AsyncGenerator<string[]>;
  /** An answer asked for more than the cap. */
  overAsk?(): Promise<string[]>;
  /** The whole list in one answer, where the API promises one (Hubzilla's records=0). */
  whole?(): Promise<Answer>;
  wholeIds?(a: Answer): string[];
}

/** start/records pages of a native listing: start moves on by the records the answer says it holds. */
function nativePages(path: string, records: number, key: string, idOf: (e: any) => string) {
  return async function* () {
    for (let start = 0; ; ) {
      const { body } = await native(`${path}${path.includes('?') ? '&' : '?'}start=${start}&records=${records}`);
      const page = (body[key] as any[]).map(idOf);
      yield page;
      if (page.length < records) return;
      start += body.records ?? page.length;
    }
  };
}

/** start/records pages of a native listing answered as a bare array (abook, group_members). */
function nativeArrayPages(path: string, records: number, idOf: (e: any) => string) {
  return async function* () {
    for (let start = 0; ; start += records) {
      const { body } = await native(`${path}${path.includes('?') ? '&' : '?'}start=${start}&records=${records}`);
      const page = (body as any[]).map(idOf);
      yield page;
      if (page.length < records) return;
    }
  };
}

/** Pages of the microblog API's id-bounded list: max_id (inclusive) just below the last one seen. */
function compatPages(path: string, count: number) {
  return async function* () {
    for (let maxId: number | undefined; ; ) {
      const { body } = await compat(`${path}?count=${count}${maxId === undefined ? '' : `&max_id=${maxId}`}`);
      const page = (Array.isArray(body) ? body : []).map((n: { id: number }) => String(n.id));
      yield page;
      if (!page.length) return;
      maxId = Number(page[page.length - 1]) - 1;
    }
  };
}

/** page/count pages of the microblog API (page from 1) until a short one. */
function compatPagePages(path: string, count: number, idOf: (e: any) => string) {
  return async function* () {
    for (let page = 1; ; page++) {
      const { body } = await compat(`${path}${path.includes('?') ? '&' : '?'}count=${count}&page=${page}`);
      const entries = (Array.isArray(body) ? body : []).map(idOf);
      yield entries;
      if (entries.length < count) return;
    }
  };
}

/** Twitter cursor pages of a microblog contact list: from cursor -1, each next_cursor until 0. */
function cursorPages(path: string, count: number, key: 'ids' | 'users') {
  return async function* () {
    for (let cursor = '-1'; ; ) {
      const { body } = await compat(`${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}&count=${count}&skip_status=1`);
      const page = (body[key] as (number | { id: number })[]).map((e) => String(typeof e === 'number' ? e : e.id));
      yield page;
      if (!page.length || body.next_cursor === 0) return;
      cursor = body.next_cursor_str;
    }
  };
}

/** Pages of a Mastodon list, following the Link header's next. */
function mastodonPages(path: string, limit: number) {
  return async function* () {
    for (let url: string | undefined = `${path}?limit=${limit}`; url; ) {
      const r = await mastodon(url);
      assert.equal(r.status, 200, url);
      const page = ((await r.json()) as { id: string }[]).map((e) => e.id);
      yield page;
      const next = /<([^>]+)>;\s*rel="next"/.exec(r.headers.get('link') ?? '')?.[1];
      url = page.length && next ? new URL(next).pathname + new URL(next).search : undefined;
    }
  };
}

const CASES: ListCase[] = [
  {
    name: 'native files',
    rows: 'files',
    cap: 700,
    pages: nativePages('files', 700, 'results', (f) => f.hash),
    whole: () => native('files'),
    wholeIds: (a) => a.body.results.map((f: { hash: string }) => f.hash),
  },
  {
    name: 'native files of one folder (folder=)',
    rows: 'folder',
    cap: 250,
    pages: nativePages('files?folder=seedfolder', 250, 'results', (f) => f.hash),
    whole: () => native('files?folder=seedfolder&records=0'),
    wholeIds: (a) => a.body.results.map((f: { hash: string }) => f.hash),
  },
  {
    name: 'native files of one folder as a file browser lists them (folder=, order=name)',
    rows: 'folder',
    cap: 500,
    pages: nativePages('files?folder=seedfolder&order=name', 500, 'results', (f) => f.hash),
    overAsk: async () => (await native('files?folder=seedfolder&order=name&records=0')).body.results.map((f: { hash: string }) => f.hash),
  },
  {
    name: 'native photos',
    rows: 'photos',
    cap: 700,
    pages: nativePages('photos', 700, 'photos', (p) => p.resource_id),
    whole: () => native('photos'),
    wholeIds: (a) => a.body.photos.map((p: { resource_id: string }) => p.resource_id),
  },
  {
    name: 'microblog ext/photos/list',
    rows: 'photos',
    cap: 500,
    pages: compatPagePages('ext/photos/list.json', 500, (p) => p.id),
    overAsk: async () => ((await compat('ext/photos/list.json?count=5000')).body as { id: string }[]).map((p) => p.id),
  },
  {
    name: 'microblog ext/photos/list without a page (every photo, as Friendica)',
    rows: 'photos',
    cap: 500,
    pages: compatPagePages('ext/photos/list.json', 500, (p) => p.id),
    whole: () => compat('ext/photos/list.json'),
    wholeIds: (a) => (a.body as { id: string }[]).map((p) => p.id),
  },
  {
    name: 'microblog ext/photos/list of one album',
    rows: 'odd',
    cap: 100,
    pages: compatPagePages('ext/photos/list.json?album=Odd', 100, (p) => p.id),
  },
  {
    name: 'microblog statuses/friends without a cursor (count and page)',
    rows: 'friends',
    cap: 200,
    pages: compatPagePages('statuses/friends.json', 200, (u) => String(u.id)),
    overAsk: async () => ((await compat('statuses/friends.json?count=1000')).body as { id: number }[]).map((u) => String(u.id)),
  },
  ...(
    [
      ['friends/ids', 'friends'], ['1.1/friends/ids', 'friends'], ['followers/ids', 'followers'], ['1.1/followers/ids', 'followers'],
      ['blocks/ids', 'blocked'], ['friendships/incoming', 'requests'],
    ] as const
  ).map(([path, rows]): ListCase => ({ name: `microblog ${path} by cursor`, rows, cap: 100, pages: cursorPages(`${path}.json`, 100, 'ids') })),
  ...(
    [
      ['friends/list', 'friends'], ['statuses/friends', 'friends'], ['followers/list', 'followers'], ['statuses/followers', 'followers'],
      ['blocks/list', 'blocked'],
    ] as const
  ).map(([path, rows]): ListCase => ({
    name: `microblog ${path} by cursor`,
    rows,
    cap: 200,
    pages: cursorPages(`${path}.json`, 200, 'users'),
    overAsk: async () => ((await compat(`${path}.json?cursor=-1&count=1000&skip_status=1`)).body.users as { id: number }[]).map((u) => String(u.id)),
  })),
  {
    name: 'microblog lists/members by cursor',
    rows: 'members',
    cap: 200,
    pages: () => cursorPages(`lists/members.json?list_id=${groupId}`, 200, 'users')(),
    overAsk: async () => ((await compat(`lists/members.json?list_id=${groupId}&count=1000&skip_status=1`)).body.users as { id: number }[]).map((u) => String(u.id)),
  },
  {
    name: 'microblog statuses/followers without a cursor (count and page)',
    rows: 'followers',
    cap: 200,
    pages: compatPagePages('statuses/followers.json?skip_status=1', 200, (u) => String(u.id)),
    overAsk: async () => ((await compat('statuses/followers.json?count=1000&skip_status=1')).body as { id: number }[]).map((u) => String(u.id)),
  },
  {
    name: 'microblog blocks/list without a cursor (count and page)',
    rows: 'blocked',
    cap: 200,
    pages: compatPagePages('blocks/list.json?skip_status=1', 200, (u) => String(u.id)),
  },
  {
    name: 'Mastodon following',
    rows: 'friends',
    cap: 80,
    pages: () => mastodonPages(`/api/v1/accounts/${accountId}/following`, 80)(),
    overAsk: async () => ((await (await mastodon(`/api/v1/accounts/${accountId}/following?limit=1000`)).json()) as { id: string }[]).map((a) => a.id),
  },
  {
    name: 'Mastodon followers',
    rows: 'followers',
    cap: 80,
    pages: () => mastodonPages(`/api/v1/accounts/${accountId}/followers`, 80)(),
    overAsk: async () => ((await (await mastodon(`/api/v1/accounts/${accountId}/followers?limit=1000`)).json()) as { id: string }[]).map((a) => a.id),
  },
  {
    name: 'Mastodon follow requests',
    rows: 'requests',
    cap: 80,
    pages: mastodonPages('/api/v1/follow_requests', 80),
    overAsk: async () => ((await (await mastodon('/api/v1/follow_requests?limit=1000')).json()) as { id: string }[]).map((a) => a.id),
  },
  {
    name: 'Mastodon blocks',
    rows: 'blocked',
    cap: 80,
    pages: mastodonPages('/api/v1/blocks', 80),
    overAsk: async () => ((await (await mastodon('/api/v1/blocks?limit=1000')).json()) as { id: string }[]).map((a) => a.id),
  },
  {
    name: 'Mastodon mutes',
    rows: 'friends',
    cap: 80,
    pages: mastodonPages('/api/v1/mutes', 80),
    overAsk: async () => ((await (await mastodon('/api/v1/mutes?limit=1000')).json()) as { id: string }[]).map((a) => a.id),
  },
  {
    name: "Mastodon list's accounts",
    rows: 'members',
    cap: 80,
    pages: () => mastodonPages(`/api/v1/lists/${groupId}/accounts`, 80)(),
    overAsk: async () => ((await (await mastodon(`/api/v1/lists/${groupId}/accounts?limit=1000`)).json()) as { id: string }[]).map((a) => a.id),
  },
  {
    name: 'native abook (connections)',
    rows: 'abook',
    cap: 400,
    pages: nativeArrayPages('abook', 400, (c) => c.abook_id),
    whole: () => native('abook'),
    wholeIds: (a) => (a.body as { abook_id: string }[]).map((c) => c.abook_id),
  },
  {
    name: 'native group_members',
    rows: 'memberRecords',
    cap: 250,
    pages: () => nativeArrayPages(`group_members?group_id=${groupId}`, 250, (m) => m.id)(),
    whole: () => native(`group_members?group_id=${groupId}`),
    wholeIds: (a) => (a.body as { id: string }[]).map((m) => m.id),
  },
  {
    name: 'microblog ext/notifications',
    rows: 'notifications',
    cap: 200,
    pages: compatPages('ext/notifications.json', 200),
    overAsk: async () => ((await compat('ext/notifications.json?count=1000')).body as { id: number }[]).map((n) => String(n.id)),
  },
  {
    name: 'Mastodon notifications',
    rows: 'notifications',
    cap: 80,
    pages: mastodonPages('/api/v1/notifications', 80),
    overAsk: async () => ((await (await mastodon('/api/v1/notifications?limit=1000')).json()) as { id: string }[]).map((n) => n.id),
  },
];

for (const c of CASES) {
  test(`${c.name}: no page holds more than ${c.cap}, and the pages hold every row once`, async () => {
    const want = expected[c.rows]!;
    assert.ok(want.length > c.cap, `the list holds more than a page (${want.length})`);
    const seen: string[] = [];
    for await (const page of c.pages()) {
      assert.ok(page.length <= c.cap, `a page of ${page.length} entries, more than ${c.cap}`);
      seen.push(...page);
      assert.ok(seen.length <= want.length * 2, 'the walk ends');
    }
    assert.equal(new Set(seen).size, seen.length, `${seen.length - new Set(seen).size} rows came twice`);
    assert.deepEqual([...seen].sort(), [...want].sort());
    if (c.overAsk) assert.equal((await c.overAsk()).length, c.cap, 'asking for more than the cap gets the cap');
    if (c.whole) {
      const a = await c.whole();
      // Streamed as it is read: a body built whole would be sent with its length.
      assert.equal(a.headers.get('content-length'), null, 'the whole list is streamed, not built in memory');
      assert.deepEqual([...c.wholeIds!(a)].sort(), [...want].sort());
    }
  });
}

/** The microblog contact lists by cursor, with the rows each holds (newest id first). */
const CURSOR_LISTS: [string, string][] = [
  ['friends/ids.json', 'friends'], ['1.1/followers/ids.json', 'followers'], ['blocks/ids.json', 'blocked'], ['friendships/incoming.json', 'requests'],
  ['lists/members.json?list_id={group}', 'members'],
];
const listPath = (path: string) => path.replace('{group}', String(groupId));
const sep = (path: string) => (path.includes('?') ? '&' : '?');
const idsOf = (body: any): number[] => (body.ids ?? body.users.map((u: { id: number }) => u.id)).map(Number);

test('microblog contact lists: previous_cursor walks back through the same pages, and every page counts the whole list', async () => {
  for (const [path, rows] of CURSOR_LISTS) {
    const total = expected[rows]!.length;
    const forward: { ids: number[]; previous: string }[] = [];
    for (let cursor = '-1'; ; ) {
      const { body } = await compat(`${listPath(path)}${sep(path)}cursor=${cursor}&count=70&skip_status=1`);
      assert.equal(body.total_count, total, `${path}: total_count`);
      const ids = idsOf(body);
      forward.push({ ids, previous: body.previous_cursor_str });
      if (body.next_cursor === 0) break;
      assert.equal(body.next_cursor, ids[ids.length - 1], `${path}: next_cursor is the last id`);
      cursor = body.next_cursor_str;
    }
    assert.equal(forward.flatMap((p) => p.ids).length, total, `${path}: the pages hold the list`);
    const back: number[][] = [];
    for (let cursor = forward[forward.length - 1]!.previous; cursor !== '0'; ) {
      const { body } = await compat(`${listPath(path)}${sep(path)}cursor=${cursor}&count=70&skip_status=1`);
      const ids = idsOf(body);
      if (!ids.length) break;
      back.push(ids);
      cursor = body.previous_cursor_str;
    }
    assert.deepEqual(back, forward.slice(0, -1).map((p) => p.ids).reverse(), `${path}: walking back`);
  }
});

/**
 * The cursor envelope as it follows from the whole list (ids newest first) by the rules of §2.14
 * of the compat notes and the hub's reading of the cursor (positive: below it; negative: just above).
 */
function envelopeFromWholeList(all: number[], q: { cursor: number; count: number; since?: number; max?: number; min?: number }, twitter: boolean) {
  const entries = all.filter((id) => (q.max === undefined || id < q.max) && (q.since === undefined || id > q.since) && (q.min === undefined || id > q.min));
  let page: number[];
  if (q.cursor > 0) page = entries.filter((id) => id < q.cursor).slice(0, q.count);
  else if (q.cursor < -1) page = entries.filter((id) => id > -q.cursor).slice(-q.count);
  else page = q.min !== undefined ? entries.slice(-q.count) : entries.slice(0, q.count);
  const last = page[page.length - 1];
  let next = last !== undefined && entries.some((id) => id < last) ? last : 0;
  let previous = page.length ? -page[0]! : 0;
  if (q.cursor < 0 && !page.length && !twitter) next = -1;
  if (q.cursor === -1) previous = 0;
  if (q.cursor > 0 && !page.length) previous = -q.cursor;
  return { ids: page, next_cursor: next, previous_cursor: previous, total_count: entries.length };
}

test('microblog contact lists answer each cursor, count and id filter as the whole list says', async () => {
  for (const [path, rows] of CURSOR_LISTS) {
    const all = expected[rows]!.map(Number).sort((a, b) => b - a);
    const at = (f: number) => all[Math.floor((all.length - 1) * f)]!;
    const cursors = [-1, at(0.3), at(0.3) + 1, all[0]! + 10, -at(0.6), -(at(0.6) - 1), -at(0), -2, 1];
    const filters = [{}, { since: at(0.8) }, { max: at(0.2) }, { min: at(0.7) }, { since: at(0.9), max: at(0.1) }, { min: at(0.5), max: at(0.4) }];
    const twitter = path.startsWith('1.1/') || path.startsWith('blocks/') || path.startsWith('lists/');
    for (const cursor of cursors) {
      for (const count of [1, 7, 120]) {
        for (const f of filters) {
          const q = { cursor, count, ...f };
          const query = `cursor=${cursor}&count=${count}${f.since === undefined ? '' : `&since_id=${f.since}`}${f.max === undefined ? '' : `&max_id=${f.max}`}${f.min === undefined ? '' : `&min_id=${f.min}`}`;
          const { body } = await compat(`${listPath(path)}${sep(path)}${query}&skip_status=1`);
          const got = { ids: idsOf(body), next_cursor: body.next_cursor, previous_cursor: body.previous_cursor, total_count: body.total_count };
          assert.deepEqual(got, envelopeFromWholeList(all, q, twitter), `${path}?${query}`);
        }
      }
    }
  }
});

test('microblog id lists: at most 5000 ids an answer, newest first, and the cursor reaches past them', async () => {
  const big = await startHub({ channels: ['gus'] });
  try {
    const db = big.hub.db;
    const gus = big.channels.gus!;
    db.transaction(() => {
      const xchan = db.prepare("INSERT INTO xchan (xchan_hash, xchan_name, xchan_addr, xchan_url, xchan_network) VALUES (?, ?, ?, ?, 'activitypub')");
      for (let i = 0; i < 5100; i++) {
        const hash = `https://elsewhere.example/users/many${i}`;
        xchan.run(hash, `Many ${i}`, `many${i}@elsewhere.example`, hash);
        insertConnection(db, { account: gus.channel_account_id, channel: gus.channel_id, xchan: hash, pending: false, myPerms: 0, theirPerms: 0 });
      }
    })();
    const all = (db.prepare("SELECT xchan_id FROM xchan WHERE xchan_hash LIKE 'https://elsewhere.example/users/many%' ORDER BY xchan_id DESC").pluck().all() as number[]);
    const get = async (path: string) => (await read(big.request(`/api/${path}`, { as: 'gus' }))).body;
    // StatusNet's bare array without a cursor: the newest 5000.
    assert.deepEqual(await get('friends/ids.json?count=99999'), all.slice(0, 5000));
    const first = await get('friends/ids.json?cursor=-1&count=99999');
    assert.deepEqual(first.ids, all.slice(0, 5000));
    assert.equal(first.next_cursor, all[4999]);
    assert.equal(first.total_count, 5100);
    const second = await get(`friends/ids.json?cursor=${first.next_cursor_str}`);
    assert.deepEqual(second.ids, all.slice(5000));
    assert.equal(second.next_cursor, 0);
  } finally {
    await big.stop();
  }
});

test('microblog ext/photos/list album_covers=1: one photo per album, its first', async () => {
  const { body } = await compat('ext/photos/list.json?album_covers=1');
  assert.deepEqual(
    (body as { id: string; album: string }[]).map((p) => [p.album, p.id]).sort(),
    [['Even', 'seedphoto0'], ['Odd', 'seedphoto1']],
  );
});

test('microblog ext/photos/list.xml without a page: every photo, streamed, each element as a page shows it', async () => {
  const whole = await t.request('/api/ext/photos/list.xml', { as: 'alice' });
  const text = await whole.text();
  assert.equal(whole.status, 200);
  assert.match(whole.headers.get('content-type') ?? '', /^text\/xml/);
  assert.equal(whole.headers.get('content-length'), null, 'streamed, not built in memory');
  const elements = text.match(/<photo [^>]*>[^<]*<\/photo>\n/g) ?? [];
  assert.equal(elements.length, expected.photos!.length);
  const paged = await (await t.request('/api/ext/photos/list.xml?count=2&page=1', { as: 'alice' })).text();
  assert.ok(text.startsWith(paged.slice(0, paged.indexOf('</photos>'))), 'the same document as a page, up to the page end');
  assert.ok(text.endsWith('</photos>\n'));
});

/** Live memory (heap and buffers) after collecting garbage. */
function liveBytes(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

test('ten clients that stall reading the whole files listing (20,000 files) do not make the hub hold ten answers', async () => {
  const big = await startHub({ channels: ['carol'] });
  try {
    const carol = big.channels.carol!;
    big.hub.db.transaction(() => {
      for (let i = 0; i < 20_000; i++) {
        insertAttach(big.hub.db, {
          aid: carol.channel_account_id, uid: carol.channel_id, hash: `bigfile${String(i).padStart(57, '0')}`, creator: carol.channel_hash, filename: `file-${i}.txt`,
          filetype: 'text/plain', filesize: 100, revision: 0, folder: '', flags: 0, is_dir: 0, is_photo: 0, os_storage: 1, os_path: '', display_path: '', content: '',
          created: '2025-01-01 00:00:00', edited: '2025-01-01 00:00:00', allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '',
        });
      }
    })();
    const whole = await (await big.request('/api/z/1.0/files', { as: 'carol' })).arrayBuffer();
    const before = liveBytes();
    const auth = `Basic ${Buffer.from(`carol:${PASSWORD}`).toString('base64')}`;
    const stalled = await Promise.all(
      Array.from({ length: 10 }, () => new Promise<http.IncomingMessage>((resolve) => http.get(`${big.url}/api/z/1.0/files`, { headers: { authorization: auth } }, (res) => (res.pause(), resolve(res))))),
    );
    // Let the hub go as far as the stalled sockets let it.
    await new Promise((r) => setTimeout(r, 1000));
    const grown = liveBytes() - before;
    for (const res of stalled) res.destroy();
    const MB = 1024 * 1024;
    // Built whole, the ten answers alone would take ten times this (old code: about 156 MB more).
    assert.ok(grown < 3 * whole.byteLength, `live memory grew ${(grown / MB).toFixed(1)} MB with ten stalled readers of a ${(whole.byteLength / MB).toFixed(1)} MB answer`);
  } finally {
    await big.stop();
  }
});

interface Run {
  sql: string;
  plan: string[];
}

/**
 * The statements the hub runs to answer one request, each with SQLite's plan for it: those it
 * prepares during the request and those it prepared before and keeps (all statements share one
 * prototype, whose run methods are watched while the request lasts).
 */
async function statementsOf(hub: TestHub, send: () => Promise<Response>): Promise<Run[]> {
  const db = hub.hub.db as unknown as { prepare(sql: string): any };
  const runs: { sql: string; args: unknown[] }[] = [];
  const proto = Object.getPrototypeOf(db.prepare('SELECT 1'));
  const methods = ['all', 'get', 'iterate', 'run'] as const;
  const originals = methods.map((m) => proto[m]);
  methods.forEach((method, i) => {
    proto[method] = function (this: { source: string; database: unknown }, ...args: unknown[]) {
      if (this.database === db) runs.push({ sql: this.source, args });
      return originals[i].apply(this, args);
    };
  });
  try {
    const res = await send();
    await res.arrayBuffer();
    assert.equal(res.status, 200, res.url);
  } finally {
    methods.forEach((method, i) => (proto[method] = originals[i]));
  }
  return runs.filter((r) => !/^\s*EXPLAIN/i.test(r.sql)).map(({ sql, args }) => ({ sql, plan: db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args).map((r: { detail: string }) => r.detail) }));
}

/** The microblog API's contact lists, each asked for a page in each of its paging forms. */
function microblogContactPages(get: (path: string) => Promise<Response>, gid: number): [string, () => Promise<Response>, RegExp][] {
  const key = /xchan_id>\? AND \w*xchan_id<\?/;
  const forms = (path: string, user: boolean) => {
    const q = (query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}${user ? '&skip_status=1' : ''}`;
    return [q('cursor=-1&count=5'), q('cursor=999999&count=5&since_id=1'), q('cursor=-2&count=5'), q('count=5&page=2'), q('count=5&min_id=1')];
  };
  const routes: [string, boolean][] = [
    ['friends/ids.json', false], ['1.1/friends/ids.json', false], ['followers/ids.json', false], ['1.1/followers/ids.json', false],
    ['blocks/ids.json', false], ['friendships/incoming.json', false],
    ['friends/list.json', true], ['followers/list.json', true], ['statuses/friends.json', true], ['statuses/followers.json', true],
    ['blocks/list.json', true], [`lists/members.json?list_id=${gid}`, true],
  ];
  return routes.flatMap(([path, user]) => forms(path, user).map((url): [string, () => Promise<Response>, RegExp] => [`microblog ${url}`, () => get(url), key]));
}

test('each contact list and native listing reads its page from an index, bounded by the page key, whatever the list holds', async () => {
  const fresh = await startHub({ channels: ['dora', 'erik'] });
  try {
    const db = fresh.hub.db;
    const dora = fresh.channels.dora!;
    const session = await webLogin(fresh, 'dora');
    const api = bearerFetch(fresh, await mastodonToken(fresh, session, { channel: 'dora' }));
    const self = ((await (await api('/api/v1/accounts/verify_credentials')).json()) as { id: string }).id;
    let gid = 0;
    db.transaction(() => {
      const xchan = db.prepare("INSERT INTO xchan (xchan_hash, xchan_name, xchan_addr, xchan_url, xchan_network) VALUES (?, ?, ?, ?, 'activitypub')");
      const followedBy = db.prepare("INSERT INTO fed_follow (channel_id, actor, direction, activity_id, accepted) VALUES (?, ?, 'in', ?, 1)");
      gid = insertGroup(db, dora.channel_id, 'plangroup', 'Plans');
      for (let i = 0; i < 30; i++) {
        const hash = `https://elsewhere.example/users/p${i}`;
        xchan.run(hash, `P ${i}`, `p${i}@elsewhere.example`, hash);
        const id = insertConnection(db, { account: dora.channel_account_id, channel: dora.channel_id, xchan: hash, pending: i % 3 === 1, unconnected: i % 2 === 0, myPerms: 0, theirPerms: 0 });
        if (i % 5 === 0) updateConnection(db, id, { abook_blocked: 1 });
        if (i % 2 === 0) followedBy.run(dora.channel_id, hash, `${hash}#follow`);
        setAbconfig(db, dora.channel_id, hash, 'mastodon', 'muted', '1');
        addGroupMember(db, dora.channel_id, gid, hash);
      }
    })();
    const pages: [string, () => Promise<Response>, RegExp][] = [
      ['followers', () => api(`/api/v1/accounts/${self}/followers?limit=5&max_id=999999`), /xchan_id>\? AND \w*xchan_id<\?/],
      ['following', () => api(`/api/v1/accounts/${self}/following?limit=5&max_id=999999`), /xchan_id>\? AND \w*xchan_id<\?/],
      ['follow requests', () => api('/api/v1/follow_requests?limit=5&since_id=1'), /xchan_id>\? AND \w*xchan_id<\?/],
      ['blocks', () => api('/api/v1/blocks?limit=5'), /xchan_id>\? AND \w*xchan_id<\?/],
      ['mutes', () => api('/api/v1/mutes?limit=5&min_id=1'), /xchan_id>\? AND \w*xchan_id<\?/],
      ["a list's accounts", () => api(`/api/v1/lists/${gid}/accounts?limit=5`), /xchan_id>\? AND \w*xchan_id<\?/],
      ['native abook', () => fresh.request('/api/z/1.0/abook?start=0&records=5', { as: 'dora' }), /abook_id>\?/],
      ['native group_members', () => fresh.request(`/api/z/1.0/group_members?group_id=${gid}&start=0&records=5`, { as: 'dora' }), /\bid>\?/],
      ...microblogContactPages((path) => fresh.request(`/api/${path}`, { as: 'dora' }), gid),
    ];
    const LISTS = /\b(abook|abconfig|pgrp_member|fed_follow|photo)\b/;
    const failures: string[] = [];
    for (const [name, send, keyRange] of pages) {
      const runs = (await statementsOf(fresh, send)).filter((r) => LISTS.test(r.sql));
      const shown = runs.map((r) => `  ${r.sql.replace(/\s+/g, ' ').slice(0, 160)}\n    ${r.plan.join(' | ')}`).join('\n');
      // A full scan reads every record of the table, in the list or not (json_each scans the values the statement was given).
      if (runs.some((r) => r.plan.some((line) => /^SCAN (?!\(|CONSTANT|\w+ VIRTUAL TABLE)/.test(line)))) failures.push(`${name} scans a whole table:\n${shown}`);
      // The page's rows are found by a range of the page key in an index, not read whole and sorted.
      if (!runs.some((r) => r.plan.some((line) => line.startsWith('SEARCH') && keyRange.test(line)))) failures.push(`${name} reads no range of its page key:\n${shown}`);
    }
    assert.deepEqual(failures, []);
  } finally {
    await fresh.stop();
  }
});

test('native albums: the photo counts are kept, not counted from every photo on each answer', async () => {
  const fresh = await startHub({ channels: ['fay'] });
  try {
    const db = fresh.hub.db;
    const fay = fresh.channels.fay!;
    const photo = (resource: string, album: string, scale: number, usage = PHOTO_NORMAL) =>
      insertPhoto(db, {
        aid: fay.channel_account_id, uid: fay.channel_id, xchan: fay.channel_hash, resource_id: resource, created: '2025-02-01 00:00:00', edited: '2025-02-01 00:00:00',
        expires: '0001-01-01 00:00:00', title: '', description: '', album, filename: `${resource}.jpg`, mimetype: 'image/jpeg', height: 1, width: 1, filesize: 1, content: '',
        imgscale: scale, photo_usage: usage, profile: 0, is_nsfw: 0, os_storage: 1, os_path: '', display_path: '', photo_flags: 0, allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '',
      });
    const albums = async () =>
      Object.fromEntries(((await read(fresh.request('/api/z/1.0/albums', { as: 'fay' }))).body.albums as { text: string; total: number }[]).map((a) => [a.text, Number(a.total)]));
    // Three scales each; one photo of another usage (8, a cover photo) is not listed.
    for (const [r, album] of [['a1', 'Sea'], ['a2', 'Sea'], ['a3', 'Hills'], ['a4', '']] as const) for (const scale of [0, 1, 2]) photo(r, album, scale);
    photo('cover', 'Sea', 0, 8);
    const runs = await statementsOf(fresh, () => fresh.request('/api/z/1.0/albums', { as: 'fay' }));
    assert.deepEqual(runs.filter((r) => r.plan.some((line) => /\b(SCAN|SEARCH) photo\b(?!_)/.test(line))).map((r) => r.sql), [], 'no statement reads the photos');
    assert.deepEqual(await albums(), { '/': 1, Hills: 1, Sea: 2 });
    // A photo moved (every scale), one of its scales moved alone, one turned into another usage, one deleted.
    db.prepare("UPDATE photo SET album = 'Hills' WHERE resource_id = 'a1'").run();
    assert.deepEqual(await albums(), { '/': 1, Hills: 2, Sea: 1 });
    db.prepare("UPDATE photo SET album = 'Lake' WHERE resource_id = 'a2' AND imgscale = 2").run();
    assert.deepEqual(await albums(), { '/': 1, Hills: 2, Lake: 1, Sea: 1 });
    db.prepare("UPDATE photo SET photo_usage = 1 WHERE resource_id = 'a3'").run();
    assert.deepEqual(await albums(), { '/': 1, Hills: 2, Lake: 1, Sea: 1 });
    db.prepare("UPDATE photo SET photo_usage = 8 WHERE resource_id = 'a4'").run();
    db.prepare("DELETE FROM photo WHERE resource_id = 'a2'").run();
    assert.deepEqual(await albums(), { Hills: 2 });
    db.prepare("UPDATE photo SET photo_usage = 0 WHERE resource_id = 'cover'").run();
    assert.deepEqual(await albums(), { Hills: 2, Sea: 1 });
  } finally {
    await fresh.stop();
  }
});
