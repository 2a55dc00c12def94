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
import { insertConnection } from '../../server/store/connections.js';

/**
 * The lists that grow without bound (files, photos, notifications), each holding more rows than
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

let t: TestHub;
let mastodon: ReturnType<typeof bearerFetch>;
let accountId = '';
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
    }
  })();
  const ids = (sql: string) => (db.prepare(sql).pluck().all(alice.channel_id) as (string | number)[]).map(String);
  expected.files = ids('SELECT hash FROM attach WHERE uid = ?');
  expected.folder = ids("SELECT hash FROM attach WHERE uid = ? AND folder = 'seedfolder'");
  expected.photos = ids('SELECT resource_id FROM photo WHERE uid = ? AND photo_usage IN (0, 1)');
  expected.odd = ids("SELECT resource_id FROM photo WHERE uid = ? AND album = 'Odd'");
  expected.friends = (db.prepare("SELECT xchan_id FROM xchan WHERE xchan_hash LIKE 'https://elsewhere.example/%'").pluck().all() as number[]).map(String);
  expected.notifications = ids('SELECT id FROM notify WHERE uid = ?');
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
  {
    name: 'Mastodon following',
    rows: 'friends',
    cap: 80,
    pages: () => mastodonPages(`/api/v1/accounts/${accountId}/following`, 80)(),
    overAsk: async () => ((await (await mastodon(`/api/v1/accounts/${accountId}/following?limit=1000`)).json()) as { id: string }[]).map((a) => a.id),
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

test('microblog ext/photos/list album_covers=1: one photo per album, its first', async () => {
  const { body } = await compat('ext/photos/list.json?album_covers=1');
  assert.deepEqual(
    (body as { id: string; album: string }[]).map((p) => [p.album, p.id]).sort(),
    [['Even', 'seedphoto0'], ['Odd', 'seedphoto1']],
  );
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
