import { stmt, type Db } from '../db/open.js';

/**
 * Who follows whom, from the connection records (abook). A channel's record of an identity says
 * two things: whether the channel follows them (abook_unconnected = 0) and whether their follow
 * of the channel waits for its approval (abook_pending = 1). A follow of a channel of this hub is
 * accepted once that channel keeps a record of the follower that is neither pending nor blocked;
 * a follow of an identity elsewhere counts as accepted unless its server has yet to accept it
 * (fed_follow, federation). Someone elsewhere follows a channel when the federation recorded their
 * follow (fed_follow 'in') and the channel's record of them is neither pending nor blocked.
 */

/**
 * SQL: abook row `a` is a follow its channel made, not blocked by either side and accepted by
 * the followed side. Migration 048 keeps this on the row (abook_follow_accepted, by triggers on
 * abook, fed_follow and channel; its view abook_follow_state spells the rule out), so whom a
 * channel follows is read from an index rather than worked out per connection on every request.
 */
export const acceptedFollowSql = (a: string): string => `${a}.abook_follow_accepted = 1`;

/** A person in a relation, with the Twitter user id (xchan_id) that orders and pages the list. */
export interface GraphEntry {
  hash: string;
  id: number;
}

/** Whom the channel follows (accepted follows only). */
export function friendsOf(db: Db, uid: number): GraphEntry[] {
  return stmt<[number], GraphEntry>(
    db,
    `SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a JOIN xchan x ON x.xchan_hash = a.abook_xchan
     WHERE a.abook_channel = ? AND ${acceptedFollowSql('a')} ORDER BY x.xchan_id DESC`,
  ).all(uid);
}

/** Who follows the identity: local channels whose follow of it is accepted, and people elsewhere (a channel's). */
export function followersOf(db: Db, hash: string): GraphEntry[] {
  return stmt<[string, string], GraphEntry>(
    db,
    `SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a
     JOIN channel c ON c.channel_id = a.abook_channel AND c.channel_removed = 0
     JOIN xchan x ON x.xchan_hash = c.channel_hash
     WHERE a.abook_xchan = ? AND ${acceptedFollowSql('a')}
     UNION
     SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM channel c
     JOIN fed_follow f ON f.channel_id = c.channel_id AND f.direction = 'in'
     JOIN abook b ON b.abook_channel = c.channel_id AND b.abook_xchan = f.actor AND b.abook_pending = 0 AND b.abook_blocked = 0
     JOIN xchan x ON x.xchan_hash = f.actor
     WHERE c.channel_hash = ?
     ORDER BY id DESC`,
  ).all(hash, hash);
}

/**
 * One page of a contact list, which is ordered by account id (xchan_id) newest first: at most
 * `limit` people with ids below `below` and above `above` (both exclusive). `upwards` takes the
 * ones just above `above` (Mastodon's min_id) rather than the newest; the page is newest first
 * either way. Each list reads its page from an index of its own (migration 050), so a page costs
 * the same however many people the list holds.
 */
export interface ContactPage extends ContactRange {
  limit: number;
  upwards?: boolean;
  /** Rows of the range to skip first (GNU social's page/count), read from the index. */
  offset?: number;
}

/** The people of a contact list with ids below `below` and above `above` (both exclusive). */
export interface ContactRange {
  below?: number;
  above?: number;
}

/** A contact list read a page at a time (the microblog API's contact lists), with its size in a range. */
export interface ContactList {
  page(page: ContactPage): GraphEntry[];
  count(range: ContactRange): number;
}

const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Runs a page query whose bounds are @above/@below/@limit and whose order is {order} on column `id`. */
function readContactPage(db: Db, sql: string, params: Record<string, unknown>, page: ContactPage): GraphEntry[] {
  const order = page.upwards ? 'ASC' : 'DESC';
  const rows = stmt<Record<string, unknown>, GraphEntry>(db, sql.replaceAll('{order}', order)).all({
    ...params,
    above: Math.max(page.above ?? 0, 0),
    below: page.below ?? MAX_ID,
    limit: page.limit,
    offset: page.offset ?? 0,
  });
  return page.upwards ? rows.reverse() : rows;
}

/** Counts the rows of a list in a range: `sql` gives count(*) with the bounds @above/@below. */
function countContacts(db: Db, sql: string, params: Record<string, unknown>, range: ContactRange): number {
  return stmt<Record<string, unknown>, number>(db, sql).pluck().get({ ...params, above: Math.max(range.above ?? 0, 0), below: range.below ?? MAX_ID }) ?? 0;
}

/** A page of whom the channel follows (accepted follows only). */
export function friendsPage(db: Db, uid: number, page: ContactPage): GraphEntry[] {
  return readContactPage(
    db,
    `SELECT abook_xchan AS hash, abook_xchan_id AS id FROM abook INDEXED BY abook_following_page_idx
     WHERE abook_channel = @uid AND abook_follow_accepted = 1 AND abook_xchan_id > @above AND abook_xchan_id < @below
     ORDER BY abook_xchan_id {order} LIMIT @limit + 0 OFFSET @offset + 0`,
    { uid },
    page,
  );
}

/**
 * A page of who follows the identity: channels of this hub whose follow of it is accepted (a few:
 * the hub's own channels), and people elsewhere who follow it when it is a channel of this hub.
 */
export function followersPage(db: Db, hash: string, page: ContactPage): GraphEntry[] {
  return readContactPage(
    db,
    `SELECT hash, id FROM (
       SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a
       JOIN channel c ON c.channel_id = a.abook_channel AND c.channel_removed = 0
       JOIN xchan x ON x.xchan_hash = c.channel_hash
       WHERE a.abook_xchan = @hash AND ${acceptedFollowSql('a')} AND x.xchan_id > @above AND x.xchan_id < @below
       UNION
       SELECT * FROM (
         SELECT b.abook_xchan AS hash, b.abook_xchan_id AS id FROM channel c
         JOIN abook b INDEXED BY abook_accepted_page_idx ON b.abook_channel = c.channel_id AND b.abook_pending = 0 AND b.abook_blocked = 0
         WHERE c.channel_hash = @hash AND b.abook_xchan_id > @above AND b.abook_xchan_id < @below
           AND EXISTS (SELECT 1 FROM fed_follow f WHERE f.channel_id = c.channel_id AND f.actor = b.abook_xchan AND f.direction = 'in')
         ORDER BY b.abook_xchan_id {order} LIMIT @limit + @offset))
     ORDER BY id {order} LIMIT @limit + 0 OFFSET @offset + 0`,
    { hash },
    page,
  );
}

/** A page of the follow requests waiting for the channel's answer (not the ignored ones). */
export function incomingPage(db: Db, uid: number, page: ContactPage): GraphEntry[] {
  return readContactPage(
    db,
    `SELECT abook_xchan AS hash, abook_xchan_id AS id FROM abook INDEXED BY abook_incoming_page_idx
     WHERE abook_channel = @uid AND abook_self = 0 AND abook_pending = 1 AND abook_blocked = 0 AND abook_ignored = 0
       AND abook_xchan_id > @above AND abook_xchan_id < @below
     ORDER BY abook_xchan_id {order} LIMIT @limit + 0 OFFSET @offset + 0`,
    { uid },
    page,
  );
}

/** A page of the connections the channel blocked. */
export function blockedPage(db: Db, uid: number, page: ContactPage): GraphEntry[] {
  return readContactPage(
    db,
    `SELECT abook_xchan AS hash, abook_xchan_id AS id FROM abook INDEXED BY abook_blocked_page_idx
     WHERE abook_channel = @uid AND abook_self = 0 AND abook_blocked = 1 AND abook_xchan_id > @above AND abook_xchan_id < @below
     ORDER BY abook_xchan_id {order} LIMIT @limit + 0 OFFSET @offset + 0`,
    { uid },
    page,
  );
}

/** A page of the people the channel muted (Mastodon's mute, kept in abconfig). */
export function mutedPage(db: Db, uid: number, page: ContactPage): GraphEntry[] {
  return readContactPage(
    db,
    `SELECT xchan AS hash, xchan_id AS id FROM abconfig INDEXED BY abconfig_muted_page_idx
     WHERE chan = @uid AND cat = 'mastodon' AND k = 'muted' AND v = '1' AND xchan_id > @above AND xchan_id < @below
     ORDER BY xchan_id {order} LIMIT @limit + 0 OFFSET @offset + 0`,
    { uid },
    page,
  );
}

/** A page of the members of a group (a Mastodon list's accounts). */
export function groupMembersPage(db: Db, gid: number, page: ContactPage): GraphEntry[] {
  return readContactPage(
    db,
    `SELECT xchan AS hash, xchan_id AS id FROM pgrp_member INDEXED BY pgrp_member_page_idx
     WHERE gid = @gid AND xchan_id > @above AND xchan_id < @below
     ORDER BY xchan_id {order} LIMIT @limit + 0 OFFSET @offset + 0`,
    { gid },
    page,
  );
}

/**
 * How many people the channel follows in a range (accepted follows): all of them as migration
 * 054's triggers keep the number, part of them counted in the list's index.
 */
export function friendsCount(db: Db, uid: number, range: ContactRange): number {
  if (!range.above && range.below === undefined) {
    return stmt<[number], number>(db, 'SELECT n FROM channel_follow_count WHERE channel_id = ?').pluck().get(uid) ?? 0;
  }
  return countContacts(
    db,
    `SELECT count(*) FROM abook INDEXED BY abook_following_page_idx
     WHERE abook_channel = @uid AND abook_follow_accepted = 1 AND abook_xchan_id > @above AND abook_xchan_id < @below`,
    { uid },
    range,
  );
}

/**
 * How many follow the identity in a range, as followersPage lists them: the hub's channels, and
 * the people elsewhere who are not also among those (the page's UNION keeps each person once).
 */
export function followersCount(db: Db, hash: string, range: ContactRange): number {
  return countContacts(
    db,
    `SELECT (SELECT count(*) FROM abook a
       JOIN channel c ON c.channel_id = a.abook_channel AND c.channel_removed = 0
       JOIN xchan x ON x.xchan_hash = c.channel_hash
       WHERE a.abook_xchan = @hash AND ${acceptedFollowSql('a')} AND x.xchan_id > @above AND x.xchan_id < @below)
     + (SELECT count(*) FROM channel c
       JOIN abook b INDEXED BY abook_accepted_page_idx ON b.abook_channel = c.channel_id AND b.abook_pending = 0 AND b.abook_blocked = 0
       WHERE c.channel_hash = @hash AND b.abook_xchan_id > @above AND b.abook_xchan_id < @below
         AND EXISTS (SELECT 1 FROM fed_follow f WHERE f.channel_id = c.channel_id AND f.actor = b.abook_xchan AND f.direction = 'in')
         AND NOT EXISTS (SELECT 1 FROM channel lc JOIN abook la ON la.abook_channel = lc.channel_id
           WHERE lc.channel_hash = b.abook_xchan AND lc.channel_removed = 0 AND la.abook_xchan = @hash AND ${acceptedFollowSql('la')}))`,
    { hash },
    range,
  );
}

/** How many follow requests wait for the channel's answer in a range. */
export function incomingCount(db: Db, uid: number, range: ContactRange): number {
  return countContacts(
    db,
    `SELECT count(*) FROM abook INDEXED BY abook_incoming_page_idx
     WHERE abook_channel = @uid AND abook_self = 0 AND abook_pending = 1 AND abook_blocked = 0 AND abook_ignored = 0
       AND abook_xchan_id > @above AND abook_xchan_id < @below`,
    { uid },
    range,
  );
}

/** How many connections the channel blocked in a range. */
export function blockedCount(db: Db, uid: number, range: ContactRange): number {
  return countContacts(
    db,
    `SELECT count(*) FROM abook INDEXED BY abook_blocked_page_idx
     WHERE abook_channel = @uid AND abook_self = 0 AND abook_blocked = 1 AND abook_xchan_id > @above AND abook_xchan_id < @below`,
    { uid },
    range,
  );
}

/** How many members of a group in a range (those with an xchan, as the pages list them). */
export function groupMembersCount(db: Db, gid: number, range: ContactRange): number {
  return countContacts(
    db,
    `SELECT count(*) FROM pgrp_member INDEXED BY pgrp_member_page_idx
     WHERE gid = @gid AND xchan_id > @above AND xchan_id < @below`,
    { gid },
    range,
  );
}

/** The contact lists of the microblog API, each read a page at a time. */
export const contactLists = {
  friends: (db: Db, uid: number): ContactList => ({ page: (p) => friendsPage(db, uid, p), count: (r) => friendsCount(db, uid, r) }),
  followers: (db: Db, hash: string): ContactList => ({ page: (p) => followersPage(db, hash, p), count: (r) => followersCount(db, hash, r) }),
  incoming: (db: Db, uid: number): ContactList => ({ page: (p) => incomingPage(db, uid, p), count: (r) => incomingCount(db, uid, r) }),
  blocked: (db: Db, uid: number): ContactList => ({ page: (p) => blockedPage(db, uid, p), count: (r) => blockedCount(db, uid, r) }),
  groupMembers: (db: Db, gid: number): ContactList => ({ page: (p) => groupMembersPage(db, gid, p), count: (r) => groupMembersCount(db, gid, r) }),
  /** A list that is always empty (the hub keeps no mutes for the microblog API). */
  none: (): ContactList => ({ page: () => [], count: () => 0 }),
};

/** Whether someone elsewhere follows the channel or asks to (the federation recorded their follow). */
export function followsChannel(db: Db, uid: number, remoteHash: string): boolean {
  return Boolean(stmt<[number, string], { n: number }>(db, "SELECT 1 AS n FROM fed_follow WHERE channel_id = ? AND actor = ? AND direction = 'in'").get(uid, remoteHash));
}

/**
 * The channel's connections: everyone it follows or whose follow it accepted (records that are
 * neither pending nor blocked). They are the audience of its posts for connections only.
 */
export function connectionsOf(db: Db, uid: number): GraphEntry[] {
  return stmt<[number], GraphEntry>(
    db,
    `SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a JOIN xchan x ON x.xchan_hash = a.abook_xchan
     WHERE a.abook_channel = ? AND a.abook_self = 0 AND a.abook_pending = 0 AND a.abook_blocked = 0 ORDER BY x.xchan_id DESC`,
  ).all(uid);
}

/** Follow requests waiting for the channel's answer (not the ignored ones). */
export function incomingOf(db: Db, uid: number): GraphEntry[] {
  return stmt<[number], GraphEntry>(
    db,
    `SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a JOIN xchan x ON x.xchan_hash = a.abook_xchan
     WHERE a.abook_channel = ? AND a.abook_self = 0 AND a.abook_pending = 1 AND a.abook_blocked = 0 AND a.abook_ignored = 0
     ORDER BY x.xchan_id DESC`,
  ).all(uid);
}

/** Whether channel `uid` follows `hash` (an accepted follow). */
export function follows(db: Db, uid: number, hash: string): boolean {
  return (
    stmt<[number, string], { n: number }>(db, `SELECT count(*) AS n FROM abook a WHERE a.abook_channel = ? AND a.abook_xchan = ? AND ${acceptedFollowSql('a')}`).get(uid, hash)!
      .n > 0
  );
}

/** How channel `uid` (xchan `self`) and `other` follow each other. */
export interface FollowState {
  /** The channel follows them, accepted. */
  following: boolean;
  /** The channel follows them and waits for their approval. */
  requested: boolean;
  /** They follow the channel, accepted. */
  followedBy: boolean;
  /** They asked to follow the channel and wait for its answer (ignored requests are not counted). */
  requestedBy: boolean;
}

/**
 * The follow state of a pair as SQL, each 1 or 0, over `m` (the channel's connection record of
 * them, abook_self = 0), `c` (their channel on this hub, if any) and `t` (that channel's record of
 * the channel). For people elsewhere, whether the channel's follow waits for their Accept and
 * whether they follow it over ActivityPub are kept in fed_follow.
 */
const I_FOLLOW = '(m.abook_unconnected = 0 AND m.abook_blocked = 0)';
const FED = (direction: string, extra = '') =>
  `EXISTS (SELECT 1 FROM fed_follow f WHERE f.channel_id = m.abook_channel AND f.actor = m.abook_xchan AND f.direction = '${direction}'${extra})`;
const OUT_WAITS = FED('out', ' AND f.accepted = 0');
export const PAIR_STATE_SQL: Record<keyof FollowState, string> = {
  following: `coalesce(${I_FOLLOW} AND CASE WHEN c.channel_id IS NOT NULL THEN t.abook_pending = 0 AND t.abook_blocked = 0 ELSE NOT ${OUT_WAITS} END, 0)`,
  requested: `coalesce(${I_FOLLOW} AND CASE WHEN c.channel_id IS NOT NULL THEN t.abook_pending = 1 AND t.abook_blocked = 0 ELSE ${OUT_WAITS} END, 0)`,
  followedBy: `coalesce(CASE WHEN c.channel_id IS NOT NULL THEN t.abook_unconnected = 0 AND t.abook_blocked = 0 ELSE ${FED('in')} END
    AND m.abook_pending = 0 AND m.abook_blocked = 0, 0)`,
  requestedBy: 'coalesce(m.abook_pending = 1 AND m.abook_blocked = 0 AND m.abook_ignored = 0, 0)',
};

/** The follow state between a channel and each of these identities, in a fixed number of queries. */
export function followStates(db: Db, uid: number, self: string, hashes: string[]): Map<string, FollowState> {
  const out = new Map<string, FollowState>();
  if (!hashes.length) return out;
  const rows = stmt<{ hashes: string; uid: number; self: string }, { hash: string } & Record<keyof FollowState, number>>(
    db,
    `SELECT h.value AS hash, ${PAIR_STATE_SQL.following} AS following, ${PAIR_STATE_SQL.requested} AS requested,
       ${PAIR_STATE_SQL.followedBy} AS followedBy, ${PAIR_STATE_SQL.requestedBy} AS requestedBy
     FROM json_each(@hashes) h
     LEFT JOIN abook m ON m.abook_channel = @uid AND m.abook_xchan = h.value AND m.abook_self = 0
     LEFT JOIN channel c ON c.channel_hash = h.value
     LEFT JOIN abook t ON t.abook_channel = c.channel_id AND t.abook_xchan = @self AND t.abook_self = 0
     WHERE h.value != @self`,
  ).all({ hashes: JSON.stringify(hashes), uid, self });
  for (const r of rows) {
    out.set(r.hash, { following: r.following === 1, requested: r.requested === 1, followedBy: r.followedBy === 1, requestedBy: r.requestedBy === 1 });
  }
  return out;
}
