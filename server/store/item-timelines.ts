import { allWide, type Db } from '../db/open.js';
import { STATUS_ITEM_COLUMNS, type StatusItemRow } from './rows.js';
import { visibleToSql } from './acl.js';
import { acceptedFollowSql } from './social-graph.js';

/**
 * Timelines of the compatibility API: newest first, `since_id` exclusive, `max_id` inclusive,
 * offset paging after the id bounds. Every query returns only items the observer may see that are
 * posts or comments (content verbs) of ordinary type — never deleted, hidden, unpublished or blocked
 * items, and never activities such as likes.
 */

export interface TimelinePage {
  /** Items per page (1..200). */
  count: number;
  /** Rows to skip after the id bounds. */
  offset: number;
  /** Only items with a greater id. */
  sinceId?: number;
  /** Only items with this id or a smaller one. Absent means no bound; 0 (or less) is a bound that nothing passes. */
  maxId?: number;
  /** Read upwards from sinceId: the page is the oldest items above it (still answered newest first). */
  oldestFirst?: boolean;
  /** Only top-level posts. */
  excludeReplies?: boolean;
  /** Only items of the thread whose top has this id. */
  conversationId?: number;
}

interface Bound {
  observer: string;
  verbs: string;
  since: number;
  max: number;
  excl: number;
  conv: number;
  limit: number;
  offset: number;
  asc: boolean;
}

function bind(observer: string, verbs: readonly string[], p: TimelinePage): Bound {
  return {
    observer,
    verbs: JSON.stringify([...verbs]),
    since: p.sinceId ?? 0,
    max: p.maxId ?? Number.MAX_SAFE_INTEGER,
    excl: p.excludeReplies ? 1 : 0,
    conv: p.conversationId ?? 0,
    limit: p.count,
    offset: p.offset,
    asc: p.oldestFirst === true,
  };
}

const BASE = `item.item_deleted = 0 AND item.item_hidden = 0 AND item.item_unpublished = 0 AND item.item_blocked = 0
  AND item.item_type = 0 AND (item.item_delayed = 0 OR item.author_xchan = @observer)
  AND item.verb IN (SELECT value FROM json_each(@verbs))
  AND (@excl = 0 OR item.item_thread_top = 1)`;

/** Where a page's items are read from, and the id column it is ordered and bounded by. */
interface Source {
  from: string;
  id: string;
}

const ITEMS: Source = { from: 'item', id: 'item.id' };

const COLUMNS = STATUS_ITEM_COLUMNS.map((c) => `item.${c}`).join(', ');

function page<E extends object>(db: Db, where: string, { asc, ...params }: Bound & E, source = ITEMS): StatusItemRow[] {
  // One conversation is read through the parent index; as an "@conv = 0 OR" term it was a filter
  // on a walk over every item.
  const conv = params.conv ? ' AND item.parent = @conv' : '';
  const sql = `SELECT ${COLUMNS} FROM ${source.from} WHERE ${BASE}${conv} AND ${source.id} > @since AND ${source.id} <= @max
    AND (${where}) AND ${visibleToSql('item', { privateFlag: true })}
    ORDER BY ${source.id} ${asc ? 'ASC' : 'DESC'} LIMIT @limit + 0 OFFSET @offset`;
  const rows = allWide<StatusItemRow>(db, sql, params);
  return asc ? rows.reverse() : rows;
}

/** Whom a channel follows (accepted follows) plus the channel itself (its self record). */
const FOLLOWED = `SELECT a.abook_xchan FROM abook a WHERE a.abook_channel = @uid AND (${acceptedFollowSql('a')} OR a.abook_self = 1)`;

/** The channel's stream: what it and the people it follows wrote or own. */
export function homeTimeline(db: Db, uid: number, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  // Walking ids downwards stops after the page; each item's owner and author are looked up among
  // the channel's connection records (whose follow state 048 keeps), so an answer costs the same
  // with 10 or 2,000 connections (as two IN lists, every follow was read twice per answer). The unary + keeps
  // SQLite off the owner/author indexes: their plan collects and sorts every matching item.
  return page(
    db,
    `EXISTS (SELECT 1 FROM abook a WHERE a.abook_channel = @uid AND a.abook_xchan IN (+item.owner_xchan, +item.author_xchan)
       AND (${acceptedFollowSql('a')} OR a.abook_self = 1))`,
    { ...bind(observer, verbs, p), uid },
  );
}

/** Public items; `localOnly` keeps those created on this hub. */
export function publicTimeline(db: Db, observer: string, verbs: readonly string[], p: TimelinePage, localOnly: boolean): StatusItemRow[] {
  // Unlisted posts (a Mastodon app's visibility) are public but kept out of public timelines, in every API.
  return page(db, `item.item_private = 0 AND item.allow_cid = '' AND item.allow_gid = '' AND item.deny_cid = '' AND item.deny_gid = ''
    AND (@local = 0 OR item.item_origin = 1)
    AND NOT EXISTS (SELECT 1 FROM iconfig WHERE iconfig.iid = item.id AND iconfig.cat = 'mastodon' AND iconfig.k = 'visibility' AND iconfig.v = 'unlisted')`, { ...bind(observer, verbs, p), local: localOnly ? 1 : 0 });
}

/** What one identity wrote. */
export function authorTimeline(db: Db, author: string, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  return page(db, 'item.author_xchan = @author', { ...bind(observer, verbs, p), author });
}

/** Items mentioning the observer, and comments by others answering the observer or in its threads. */
export function mentionsTimeline(db: Db, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  // The unary + keep SQLite from answering the OR with two index lookups (the second one collects
  // every comment of the hub) and a sort: walking ids downwards stops once the page is full.
  return page(
    db,
    `+item.id IN (SELECT oid FROM term WHERE ttype = 2 AND term_hash = @observer AND term_hash != '' AND otype = 1)
     OR (item.author_xchan != @observer AND +item.item_thread_top = 0
         AND (EXISTS (SELECT 1 FROM item p WHERE p.uid = item.uid AND p.mid = item.thr_parent AND p.author_xchan = @observer)
           OR EXISTS (SELECT 1 FROM item t WHERE t.id = item.parent AND t.author_xchan = @observer)))`,
    bind(observer, verbs, p),
  );
}

/** The channel's stream restricted to authors in one of its groups. */
export function groupTimeline(db: Db, uid: number, gid: number, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  return page(
    db,
    `item.author_xchan IN (SELECT xchan FROM pgrp_member WHERE gid = @gid)
     AND (item.owner_xchan IN (${FOLLOWED}) OR item.author_xchan IN (${FOLLOWED}))`,
    { ...bind(observer, verbs, p), uid, gid },
  );
}

/** Items the channel starred (own items by item_starred, others' through item_star). */
export function starredTimeline(db: Db, uid: number, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  return page(db, `(item.uid = @uid AND item.item_starred = 1) OR item.id IN (SELECT iid FROM item_star WHERE uid = @uid)`, { ...bind(observer, verbs, p), uid });
}

/** Direct answers to one item (not the item itself). */
export function answersTimeline(db: Db, target: { uid: number; mid: string }, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  // SQLite would rather walk all of the channel's items by id (item_uid_id_idx) than sort a few answers.
  return page(db, 'item.uid = @tuid AND item.thr_parent = @tmid AND item.mid != @tmid', { ...bind(observer, verbs, p), tuid: target.uid, tmid: target.mid }, {
    from: 'item INDEXED BY item_thr_parent_idx',
    id: 'item.id',
  });
}

/** Full-text matches; `match` must already be a safe FTS5 query. */
export function searchTimeline(db: Db, match: string, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  // Read from the full-text index newest first, which stops once the page is full; as an IN list
  // every match was collected first (35,000 for a common word).
  return page(db, 'item_fts MATCH @match', { ...bind(observer, verbs, p), match }, { from: 'item_fts JOIN item ON item.id = item_fts.rowid', id: 'item_fts.rowid' });
}

/** Items carrying a hashtag (case-insensitive). */
export function hashtagTimeline(db: Db, tag: string, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  // Read from the tag's uses newest first (term_tag_oid_idx), which stops once the page is full; as
  // an IN list every use was collected and sorted first. An item tagged so twice (#Tag and #tag)
  // is read through its first use only.
  return page(
    db,
    `term.ttype = 1 AND term.term = @tag COLLATE NOCASE AND term.otype = 1
     AND NOT EXISTS (SELECT 1 FROM term u WHERE u.otype = 1 AND u.oid = term.oid AND u.ttype = 1 AND u.term = @tag COLLATE NOCASE AND u.tid < term.tid)`,
    { ...bind(observer, verbs, p), tag },
    { from: 'term INDEXED BY term_tag_oid_idx JOIN item ON item.id = term.oid', id: 'term.oid' },
  );
}

/** Every post and comment of one thread. */
export function threadTimeline(db: Db, topId: number, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  return page(db, 'item.parent = @top', { ...bind(observer, verbs, p), top: topId });
}

/** Items the channel liked (its live like activities), newest item first. */
export function likedTimeline(db: Db, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  return page(
    db,
    `EXISTS (SELECT 1 FROM item l WHERE l.uid = item.uid AND l.thr_parent = item.mid AND l.author_xchan = @observer AND l.verb = @like AND l.item_deleted = 0)`,
    { ...bind(observer, verbs, p), like: 'http://activitystrea.ms/schema/1.0/like' },
  );
}

/** Items that are not public and name the observer, or are the observer's own not-public posts (direct messages of the Mastodon API). */
export function restrictedTimeline(db: Db, observer: string, verbs: readonly string[], p: TimelinePage): StatusItemRow[] {
  return page(
    db,
    `item.item_thread_top = 1 AND (item.allow_cid != '' OR item.allow_gid != '') AND (item.author_xchan = @observer OR instr(item.allow_cid, '<' || @observer || '>') > 0)`,
    bind(observer, verbs, p),
  );
}
