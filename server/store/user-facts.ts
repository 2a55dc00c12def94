import { stmt, type Db } from '../db/open.js';
import { visibleToSql } from './acl.js';
import { acceptedFollowSql, PAIR_STATE_SQL } from './social-graph.js';
import type { PersonXchan } from './rows.js';

/**
 * Bulk reads for rendering people (Twitter users) from xchan hashes: local channel profiles,
 * the viewer's connection records, and follower/friend/status counts.
 */

const json = (values: unknown[]) => JSON.stringify(values);

function toMap<T extends { hash: string }>(rows: T[]): Map<string, T> {
  return new Map(rows.map((r) => [r.hash, r]));
}

export interface LocalChannelFacts {
  hash: string;
  channel_id: number;
  channel_created: string;
  channel_location: string;
  locality: string | null;
  region: string | null;
  country_name: string | null;
  pdesc: string | null;
  homepage: string | null;
  /** pconfig system/autoperms: '0' when the channel approves followers by hand. */
  autoperms: string | null;
}

/** Local channels among these identities, with their default profile. */
export function localChannelFacts(db: Db, hashes: string[]): Map<string, LocalChannelFacts> {
  if (!hashes.length) return new Map();
  return toMap(
    stmt<[string], LocalChannelFacts>(
      db,
      `SELECT c.channel_hash AS hash, c.channel_id, c.channel_created, c.channel_location, p.locality, p.region, p.country_name, p.pdesc, p.homepage,
         (SELECT v FROM pconfig WHERE uid = c.channel_id AND cat = 'system' AND k = 'autoperms') AS autoperms
       FROM channel c LEFT JOIN profile p ON p.uid = c.channel_id AND p.is_default = 1
       WHERE c.channel_removed = 0 AND c.channel_hash IN (SELECT value FROM json_each(?))`,
    ).all(json(hashes)),
  );
}

/** One person as a viewer sees them: their xchan, their channel here, the viewer's record of them, and their counts. */
export interface PersonFacts {
  xchan: PersonXchan;
  /** Their channel on this hub with its profile, unless they are people elsewhere or their channel was removed. */
  local: LocalChannelFacts | undefined;
  /** The viewer's connection record of them (its self record when they are the viewer). */
  abookId: number | undefined;
  abookCreated: string | undefined;
  blocked: boolean;
  /** The viewer follows them, accepted; or follows them and waits for their approval. */
  following: boolean;
  requested: boolean;
  followers: number;
  friends: number;
  /** Posts, comments and shares the viewer may see: the public ones as the triggers of migration 007 counted them, plus those with an audience that admits the viewer. */
  statuses: number;
}

type PersonRow = [
  xchan_id: number, xchan_hash: string, xchan_name: string, xchan_addr: string, xchan_url: string,
  xchan_photo_s: string, xchan_photo_m: string, xchan_photo_l: string, xchan_network: string, xchan_name_date: string,
  liveChannel: number | null, abookId: number | null, abookCreated: string | null, blocked: number | null,
  following: number, requested: number, followers: number, friends: number, publicStatuses: number | null,
];

/**
 * Everything rendering these people needs, in one query for all of them (plus one for the profiles
 * of this hub's channels among them). A page of a federated timeline names dozens of people, and
 * bringing values into JavaScript costs more than finding them: the row comes as an array, and
 * the follow state is worked out in SQL rather than read as ten flags.
 * `viewer` is the viewing channel (uid and xchan hash), or undefined for an anonymous caller.
 */
export function peopleFacts(db: Db, viewer: { uid: number; hash: string } | undefined, hashes: string[]): PersonFacts[] {
  if (!hashes.length) return [];
  const rows = stmt<{ hashes: string; uid: number; self: string }, PersonRow>(
    db,
    `SELECT x.xchan_id, x.xchan_hash, x.xchan_name, x.xchan_addr, x.xchan_url, x.xchan_photo_s, x.xchan_photo_m, x.xchan_photo_l, x.xchan_network, x.xchan_name_date,
       CASE WHEN c.channel_removed = 0 THEN c.channel_id END, m.abook_id, m.abook_created, m.abook_blocked,
       ${PAIR_STATE_SQL.following}, ${PAIR_STATE_SQL.requested},
       (SELECT count(*) FROM abook a JOIN channel fc ON fc.channel_id = a.abook_channel AND fc.channel_removed = 0
        WHERE a.abook_xchan = x.xchan_hash AND ${acceptedFollowSql('a')}),
       CASE WHEN c.channel_id IS NOT NULL THEN coalesce((SELECT n FROM channel_follow_count WHERE channel_id = c.channel_id), 0) ELSE 0 END,
       (SELECT n FROM author_status_count WHERE author_xchan = x.xchan_hash)
     FROM json_each(@hashes) h
     JOIN xchan x ON x.xchan_hash = h.value
     LEFT JOIN channel c ON c.channel_hash = x.xchan_hash
     LEFT JOIN abook m ON m.abook_channel = @uid AND m.abook_xchan = x.xchan_hash
     LEFT JOIN abook t ON t.abook_channel = c.channel_id AND t.abook_xchan = @self AND t.abook_self = 0`,
  ).raw().all({ hashes: json(hashes), uid: viewer?.uid ?? 0, self: viewer?.hash ?? '' });
  const locals = localChannelFacts(db, rows.filter((r) => r[10] !== null).map((r) => r[1]));
  const restricted = restrictedCounts(db, rows.map((r) => r[1]), viewer?.hash ?? '');
  return rows.map(([xchan_id, xchan_hash, xchan_name, xchan_addr, xchan_url, xchan_photo_s, xchan_photo_m, xchan_photo_l, xchan_network, xchan_name_date,
    , abookId, abookCreated, blocked, following, requested, followers, friends, publicStatuses]) => ({
    xchan: { xchan_id, xchan_hash, xchan_name, xchan_addr, xchan_url, xchan_photo_s, xchan_photo_m, xchan_photo_l, xchan_network, xchan_name_date },
    local: locals.get(xchan_hash),
    abookId: abookId ?? undefined,
    abookCreated: abookCreated ?? undefined,
    blocked: blocked === 1,
    following: following === 1,
    requested: requested === 1,
    followers,
    friends,
    statuses: (publicStatuses ?? 0) + (restricted.get(xchan_hash) ?? 0),
  }));
}

export interface ViewerConnection {
  hash: string;
  abook_id: number;
  abook_pending: number;
  abook_blocked: number;
  abook_self: number;
  abook_created: string;
}

/** The viewer channel's connection records for these identities (including its self record). */
export function viewerConnections(db: Db, uid: number, hashes: string[]): Map<string, ViewerConnection> {
  if (!hashes.length) return new Map();
  return toMap(
    stmt<[number, string], ViewerConnection>(
      db,
      `SELECT abook_xchan AS hash, abook_id, abook_pending, abook_blocked, abook_self, abook_created FROM abook
       WHERE abook_channel = ? AND abook_xchan IN (SELECT value FROM json_each(?))`,
    ).all(uid, json(hashes)),
  );
}

type Counts = Map<string, number>;

function counts(rows: { hash: string; n: number }[]): Counts {
  return new Map(rows.map((r) => [r.hash, r.n]));
}

const CONTENT = `item.item_deleted = 0 AND item.item_hidden = 0 AND item.item_unpublished = 0 AND item.item_type = 0
  AND item.verb IN (SELECT value FROM json_each(@verbs))`;

/** The verbs whose public statuses the author_status_count table counts (migration 007). */
const COUNTED_VERBS = new Set(['http://activitystrea.ms/schema/1.0/post', 'http://activitystrea.ms/schema/1.0/share', 'Create']);

/** Items with an audience; the same expression as item_author_restricted_idx's, so that it is used. */
const RESTRICTED = "(item_private != 0 OR allow_cid != '' OR allow_gid != '' OR deny_cid != '' OR deny_gid != '')";

interface CountCache {
  generation: string;
  counts: Map<string, number>;
}

function cached(caches: WeakMap<Db, CountCache>, db: Db, generation: string, keys: string[], count: (missing: string[]) => Counts, keyOf: (k: string) => string): Counts {
  let cache = caches.get(db);
  if (!cache || cache.generation !== generation || cache.counts.size > 10_000) caches.set(db, (cache = { generation, counts: new Map() }));
  const missing = keys.filter((k) => !cache.counts.has(keyOf(k)));
  if (missing.length) {
    const found = count(missing);
    for (const k of missing) cache.counts.set(keyOf(k), found.get(k) ?? 0);
  }
  return new Map(keys.map((k) => [k, cache.counts.get(keyOf(k))!]));
}

const restrictedCache = new WeakMap<Db, CountCache>();

/**
 * Items with an audience that admits the observer, per author. Kept until the audience generation
 * of migration 010 moves, which public posts leave alone: every statuses/update answer counts its
 * author's statuses, and recounting these after each post cost half a millisecond.
 */
function restrictedCounts(db: Db, hashes: string[], observer: string): Counts {
  const generation = String(stmt<[], number>(db, 'SELECT n FROM audience_generation').pluck().get() ?? 0);
  return cached(restrictedCache, db, generation, hashes, (missing) =>
    counts(
      stmt<{ hashes: string; observer: string; verbs: string }, { hash: string; n: number }>(
        db,
        `SELECT item.author_xchan AS hash, count(*) AS n FROM item
         WHERE item.author_xchan IN (SELECT value FROM json_each(@hashes)) AND ${RESTRICTED} AND ${CONTENT} AND ${visibleToSql('item', { privateFlag: true })}
         GROUP BY item.author_xchan`,
      ).all({ hashes: json(missing), observer, verbs: json([...COUNTED_VERBS]) }),
    ), (h) => `${observer} ${h}`);
}

/**
 * Posts and comments of each identity that the observer may see, counted item by item: what the
 * counts of peopleFacts (kept by triggers, plus the restricted ones) must always equal.
 */
export function countStatusesByScan(db: Db, hashes: string[], observer: string, verbs: readonly string[]): Counts {
  return counts(
    stmt<{ hashes: string; observer: string; verbs: string }, { hash: string; n: number }>(
      db,
      `SELECT item.author_xchan AS hash, count(*) AS n FROM item
       WHERE item.author_xchan IN (SELECT value FROM json_each(@hashes)) AND ${CONTENT} AND ${visibleToSql('item', { privateFlag: true })}
       GROUP BY item.author_xchan`,
    ).all({ hashes: json(hashes), observer, verbs: json([...verbs]) }),
  );
}

/**
 * The newest post or comment of each identity that the observer may see. Each author's items are
 * walked newest first (item_author_idx) and the walk stops at the first match: the max() over all
 * of an author's items took over 100 ms for a channel with years of posts.
 */
export function latestStatusIds(db: Db, hashes: string[], observer: string, verbs: readonly string[]): Map<string, number> {
  const newest = stmt<{ hash: string; observer: string; verbs: string }, { id: number }>(
    db,
    `SELECT item.id FROM item INDEXED BY item_author_idx
     WHERE item.author_xchan = @hash AND ${CONTENT} AND ${visibleToSql('item', { privateFlag: true })}
     ORDER BY item.id DESC LIMIT 1`,
  );
  const out = new Map<string, number>();
  const verbList = json([...verbs]);
  for (const hash of new Set(hashes)) {
    const row = newest.get({ hash, observer, verbs: verbList });
    if (row) out.set(hash, row.id);
  }
  return out;
}
