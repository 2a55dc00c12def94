import { allWide, stmt, type Db } from '../db/open.js';
import type { ItemRow } from './rows.js';
import { visibleToSql } from './acl.js';
import { acceptedFollowSql } from './social-graph.js';

/**
 * Item lists for the native API's streams and exports: rows in the shape the portable item
 * encoder needs (the item, its owner's and author's identity, its terms and iconfig rows),
 * fetched with one statement each so that exports can iterate without further lookups.
 */

export interface PortableXchanPart {
  name: string | null;
  addr: string | null;
  url: string | null;
  network: string | null;
  photo_mimetype: string | null;
  photo_m: string | null;
  guid: string | null;
  guid_sig: string | null;
  pubkey: string | null;
}

export interface PortableItemRow extends ItemRow {
  owner: PortableXchanPart;
  author: PortableXchanPart;
  terms: { ttype: number; term: string; url: string }[];
  iconfig: { cat: string; k: string; v: string; sharing: number }[];
}

/** An item's owner or author whose xchan row is missing. */
const NO_XCHAN: PortableXchanPart = { name: null, addr: null, url: null, network: null, photo_mimetype: null, photo_m: null, guid: null, guid_sig: null, pubkey: null };
const NO_TERMS: PortableItemRow['terms'] = [];
const NO_ICONFIG: PortableItemRow['iconfig'] = [];

/**
 * The columns the stream form (portableItem without `mirror`) reads; the backup form reads them all.
 * Fewer columns are fewer values for SQLite and better-sqlite3 to copy per row.
 */
const STREAM_COLUMNS = `item.id, item.parent, item.uuid, item.mid, item.parent_mid, item.thr_parent, item.created, item.edited, item.expires,
  item.commented, item.comments_closed, item.mimetype, item.title, item.summary, item.body, item.app, item.verb, item.obj_type, item.obj,
  item.tgt_type, item.target, item.attach, item.plink, item.location, item.coord, item.sig, item.route, item.public_policy,
  item.comment_policy, item.owner_xchan, item.author_xchan, item.item_deleted, item.item_hidden, item.item_notshown,
  item.item_thread_top, item.item_nsfw, item.item_consensus, item.item_obscured, item.item_private`;

/** The rows with their owners, authors, terms and iconfig, looked up for all of them at once (one query each). */
export function withRelations(db: Db, rows: ItemRow[]): PortableItemRow[] {
  if (!rows.length) return [];
  const ids = JSON.stringify(rows.map((r) => r.id));
  const hashes = new Set<string>();
  for (const r of rows) hashes.add(r.owner_xchan).add(r.author_xchan);
  const xchans = new Map<string, PortableXchanPart>();
  for (const x of stmt<[string], PortableXchanPart & { hash: string }>(
    db,
    `SELECT xchan_hash AS hash, xchan_name AS name, xchan_addr AS addr, xchan_url AS url, xchan_network AS network,
       xchan_photo_mimetype AS photo_mimetype, xchan_photo_m AS photo_m, xchan_guid AS guid, xchan_guid_sig AS guid_sig, xchan_pubkey AS pubkey
     FROM xchan WHERE xchan_hash IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify([...hashes]))) {
    const { hash, ...part } = x;
    xchans.set(hash, part);
  }
  const terms = new Map<number, PortableItemRow['terms']>();
  for (const t of stmt<[string], { oid: number; ttype: number; term: string; url: string }>(
    db,
    'SELECT oid, ttype, term, url FROM term WHERE otype = 1 AND oid IN (SELECT value FROM json_each(?)) ORDER BY oid, tid',
  ).all(ids)) {
    let list = terms.get(t.oid);
    if (!list) terms.set(t.oid, (list = []));
    list.push({ ttype: t.ttype, term: t.term, url: t.url });
  }
  const iconfig = new Map<number, PortableItemRow['iconfig']>();
  for (const c of stmt<[string], { iid: number; cat: string; k: string; v: string; sharing: number }>(
    db,
    'SELECT iid, cat, k, v, sharing FROM iconfig WHERE iid IN (SELECT value FROM json_each(?)) ORDER BY iid, cat, k',
  ).all(ids)) {
    let list = iconfig.get(c.iid);
    if (!list) iconfig.set(c.iid, (list = []));
    list.push({ cat: c.cat, k: c.k, v: c.v, sharing: c.sharing });
  }
  const out = rows as PortableItemRow[];
  for (const r of out) {
    r.owner = xchans.get(r.owner_xchan) ?? NO_XCHAN;
    r.author = xchans.get(r.author_xchan) ?? NO_XCHAN;
    r.terms = terms.get(r.id) ?? NO_TERMS;
    r.iconfig = iconfig.get(r.id) ?? NO_ICONFIG;
  }
  return out;
}

const BATCH = 250;

/** Rows of an iteration with their relations, looked up a batch of rows at a time. */
function* inBatches(db: Db, rows: Iterable<ItemRow>): Generator<PortableItemRow> {
  let batch: ItemRow[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === BATCH) {
      yield* withRelations(db, batch);
      batch = [];
    }
  }
  yield* withRelations(db, batch);
}

/** Items that appear in streams: not hidden, deleted, unpublished, delayed, blocked or expired. */
const SHOWN = `item.item_hidden = 0 AND item.item_deleted = 0 AND item.item_unpublished = 0 AND item.item_pending_remove = 0
  AND item.item_blocked = 0 AND item.item_delayed = 0 AND (item.expires = '0001-01-01 00:00:00' OR item.expires > @now)`;

const CHANNEL_STREAM_ITEMS = `item.uid = @uid AND item.item_wall = 1 AND item.item_type = 0 AND ${SHOWN}`;

/**
 * channel/stream: ids of the channel's wall threads with activity after `mindate` (an item created
 * or changed since), oldest first: by the earliest such item, then by id.
 *
 * What it reads does not grow with the window: threads with an item created before `mindate` and
 * changed since come from the index of changed items (028), the others from a walk over the items
 * created since, in creation order, that stops once the page is full.
 */
export function channelStreamThreadIds(db: Db, uid: number, mindate: string, now: string, maxThreads: number): number[] {
  const p = { uid, mindate, now };
  const first = new Map<number, string>();
  // Items created before the window and changed in it: read from whichever index holds fewer
  // candidates, the items changed since `mindate` (few when it is recent) or those created before
  // it (few when it is long ago, e.g. the first item's date); each is counted only up to a bound.
  const olderFirst = boundedCount(db, `FROM item INDEXED BY item_uid_created_id_idx WHERE item.uid = @uid AND item.created <= @mindate`, p) <
    boundedCount(db, `FROM item INDEXED BY item_uid_changed_idx WHERE item.uid = @uid AND item.changed > @mindate AND item.changed > item.created`, p);
  for (const r of stmt<typeof p, { parent: number; created: string }>(
    db,
    `SELECT item.parent, item.created FROM item INDEXED BY ${olderFirst ? 'item_uid_created_id_idx' : 'item_uid_changed_idx'}
     WHERE item.uid = @uid AND item.changed > @mindate AND item.changed > item.created AND item.created <= @mindate AND ${CHANNEL_STREAM_ITEMS}`,
  ).iterate(p)) {
    const known = first.get(r.parent);
    if (known === undefined || r.created < known) first.set(r.parent, r.created);
  }
  // Once the page is full, only threads whose first item has the same creation time can still
  // take a place (ties go by id).
  let last: string | undefined;
  for (const r of stmt<typeof p, { parent: number; created: string }>(
    db,
    `SELECT item.parent, item.created FROM item INDEXED BY item_uid_created_id_idx
     WHERE item.uid = @uid AND item.created > @mindate AND ${CHANNEL_STREAM_ITEMS} ORDER BY item.created, item.id`,
  ).iterate(p)) {
    if (last !== undefined && r.created > last) break;
    if (first.has(r.parent)) continue;
    first.set(r.parent, r.created);
    if (last === undefined && first.size >= maxThreads) last = r.created;
  }
  return [...first]
    .sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[0] - b[0]))
    .slice(0, maxThreads)
    .map(([parent]) => parent);
}

/** Rows of `from` (a FROM … WHERE clause), counted up to 2,000: which of two index ranges is smaller. */
function boundedCount(db: Db, from: string, params: { uid: number; mindate: string }): number {
  return stmt<{ uid: number; mindate: string }, number>(db, `SELECT count(*) FROM (SELECT 1 ${from} LIMIT 2000)`).pluck().get({ uid: params.uid, mindate: params.mindate }) ?? 0;
}

/**
 * The shown items of these threads in the stream form, thread by thread in the order given: each
 * top, then the rest by creation.
 */
export function threadsItems(db: Db, parentIds: number[], now: string): PortableItemRow[] {
  if (!parentIds.length) return [];
  // Ordered here rather than by SQLite, whose sorter would copy every row, bodies and signatures
  // included; the rows come as arrays and become objects in one step (allWide).
  const rows = allWide<ItemRow>(db, `SELECT ${STREAM_COLUMNS} FROM item WHERE item.parent IN (SELECT value FROM json_each(@parents)) AND ${SHOWN}`, {
    parents: JSON.stringify(parentIds),
    now,
  });
  const place = new Map(parentIds.map((id, i) => [id, i]));
  rows.sort((a, b) => place.get(a.parent)! - place.get(b.parent)! || b.item_thread_top - a.item_thread_top || (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id - b.id));
  return withRelations(db, rows);
}

/** item/full: every item of a conversation that is not deleted, of any kind. */
export function conversationItems(db: Db, parentId: number): PortableItemRow[] {
  return withRelations(db, allWide<ItemRow>(db, 'SELECT item.* FROM item WHERE item.parent = ? AND item.item_deleted = 0 ORDER BY item.item_thread_top DESC, item.created, item.id', [parentId]));
}

export interface NetworkQuery {
  uid: number;
  /** The channel's xchan hash: the observer whose access lists count. */
  observer: string;
  now: string;
  order: 'commented' | 'created';
  limit: number;
  offset: number;
  /** item_type of the threads; undefined for any type. */
  itemType?: number;
  starred?: boolean;
  wallOnly?: boolean;
  threadId?: number;
  threadMid?: string;
  sinceId?: number;
  category?: string;
  hashtag?: string;
  text?: string;
  conversationsOnly?: boolean;
  createdFrom?: string;
  createdTo?: string;
  closenessMin?: number;
  closenessMax?: number;
  group?: { id: number; hash: string };
  connectionXchan?: string;
}

/**
 * Local channels whose threads a channel's network stream shows besides its own: those it follows.
 * Read from the channels' side: a hub has a few channels, a channel may have thousands of connections.
 */
const CONNECTED_CHANNELS = `SELECT c.channel_id FROM channel c WHERE c.channel_removed = 0
  AND EXISTS (SELECT 1 FROM abook b WHERE b.abook_channel = @uid AND b.abook_xchan = c.channel_hash AND ${acceptedFollowSql('b')})`;

/**
 * Threads from elsewhere that a channel's network stream shows although another channel of the hub
 * keeps them (a post from elsewhere is stored once, under the first channel it came for): those of
 * people elsewhere whom the channel follows, and those naming it.
 */
const RECEIVED_FOR_CHANNEL = `(item.item_origin = 0 AND item.uid != @uid
  AND (item.owner_xchan IN (SELECT b.abook_xchan FROM abook b WHERE b.abook_channel = @uid AND ${acceptedFollowSql('b')}
      AND NOT EXISTS (SELECT 1 FROM channel c WHERE c.channel_hash = b.abook_xchan))
    OR item.id IN (SELECT t.oid FROM term t WHERE t.ttype = 2 AND t.term_hash = @observer AND t.term_hash != '' AND t.otype = 1)))`;

/** since_id ranges of up to this many rows are read rather than found on the walk by activity. */
const SINCE_ID_ROWS = 20_000;

function maxItemId(db: Db): number {
  return stmt<[], { m: number | null }>(db, 'SELECT max(id) AS m FROM item').get()!.m ?? 0;
}

/**
 * network/stream: ids of thread tops the channel can see — its own threads and those of its
 * accepted (not blocked or ignored) connections that their access lists show to it.
 *
 * The tops are read in order (by latest activity through item_shown_top_commented_idx, by creation per
 * channel through item_uid_created_idx) until the page is full. Selective filters are written as
 * `item.id IN (…)` lists built once from an index: SQLite checks those on the index entry, before
 * it reads the item row, so a rare match does not cost a read of every top.
 */
export function networkThreadIds(db: Db, q: NetworkQuery): number[] {
  const where = [
    'item.item_thread_top = 1',
    SHOWN,
    visibleToSql('item', { privateFlag: true }),
  ];
  const p: Record<string, unknown> = { uid: q.uid, observer: q.observer, now: q.now };
  // A thread's items through the parent index: by the author index SQLite read all of the
  // observer's items for every top it looked at.
  const inThread = (cond: string) => `EXISTS (SELECT 1 FROM item ti INDEXED BY item_parent_idx WHERE ti.parent = item.id AND ti.item_deleted = 0 AND ${cond})`;
  const withTerm = (ttype: number, param: string) =>
    `item.id IN (SELECT ti.parent FROM term t JOIN item ti ON ti.id = t.oid WHERE t.otype = 1 AND t.ttype = ${ttype} AND t.term = ${param} COLLATE NOCASE AND ti.item_deleted = 0)`;
  if (q.itemType !== undefined) {
    // Other kinds than ordinary items are few: looked up in item_kind_idx, not top by top.
    where.push(q.itemType === 0 ? 'item.item_type = 0' : `item.id IN (SELECT k.id FROM item k WHERE k.item_type != 0 AND k.item_type = @itemType
      AND k.uid IN (SELECT @uid UNION ALL ${CONNECTED_CHANNELS}))`);
    p.itemType = q.itemType;
  }
  if (q.starred) where.push('item.id IN (SELECT s.id FROM item s INDEXED BY item_starred_idx WHERE s.item_starred = 1)');
  if (q.wallOnly) where.push('item.id IN (SELECT w.id FROM item w WHERE w.uid = @uid AND w.item_thread_top = 1) AND item.item_wall = 1');
  if (q.threadId !== undefined) (where.push('item.id = @threadId'), (p.threadId = q.threadId));
  if (q.threadMid !== undefined) (where.push('item.id IN (SELECT m.id FROM item m WHERE m.mid = @threadMid)'), (p.threadMid = q.threadMid));
  if (q.sinceId !== undefined) (where.push('item.id > @sinceId'), (p.sinceId = q.sinceId));
  const created: string[] = [];
  if (q.createdFrom !== undefined) (created.push('d.created >= @createdFrom'), (p.createdFrom = q.createdFrom));
  if (q.createdTo !== undefined) (created.push('d.created <= @createdTo'), (p.createdTo = q.createdTo));
  if (created.length) {
    where.push(`item.id IN (SELECT d.id FROM item d WHERE d.uid IN (SELECT @uid UNION ALL ${CONNECTED_CHANNELS}) AND d.item_thread_top = 1 AND ${created.join(' AND ')})`);
  }
  if (q.category !== undefined) {
    where.push(withTerm(3, '@category'));
    p.category = q.category;
  }
  if (q.hashtag !== undefined) {
    where.push(withTerm(1, '@hashtag'));
    p.hashtag = q.hashtag;
  }
  if (q.text !== undefined) {
    where.push(inThread('(instr(lower(ti.body), lower(@text)) > 0 OR instr(lower(ti.title), lower(@text)) > 0)'));
    p.text = q.text;
  }
  if (q.conversationsOnly) {
    where.push(`(${inThread('ti.author_xchan = @observer')}
      OR EXISTS (SELECT 1 FROM term tm WHERE tm.otype = 1 AND tm.oid = item.id AND tm.ttype = 2 AND tm.term_hash = @observer))`);
  }
  if (q.closenessMin !== undefined || q.closenessMax !== undefined) {
    where.push(`EXISTS (SELECT 1 FROM abook cb WHERE cb.abook_channel = @uid AND cb.abook_xchan = item.owner_xchan
      AND cb.abook_closeness >= @cmin AND cb.abook_closeness <= @cmax)`);
    p.cmin = q.closenessMin ?? 0;
    p.cmax = q.closenessMax ?? 99;
  }
  if (q.group) {
    where.push(`(item.owner_xchan IN (SELECT xchan FROM pgrp_member WHERE gid = @gid) OR item.author_xchan IN (SELECT xchan FROM pgrp_member WHERE gid = @gid)
      OR instr(item.allow_gid, '<' || @ghash || '>') > 0)`);
    p.gid = q.group.id;
    p.ghash = q.group.hash;
  }
  if (q.connectionXchan !== undefined) {
    where.push('item.id IN (SELECT o.id FROM item o WHERE o.owner_xchan = @cxchan UNION ALL SELECT a.id FROM item a WHERE a.author_xchan = @cxchan)');
    p.cxchan = q.connectionXchan;
  }
  const filters = where.join('\n AND ');
  // The lists of tagged items and of a connection's items are long: built once, they are better
  // checked on the one walk over all tops than rebuilt for each channel.
  if (q.order === 'commented' || q.category !== undefined || q.hashtag !== undefined || q.connectionXchan !== undefined) {
    const order = q.order === 'created' ? 'item.created DESC, item.id DESC' : 'item.commented DESC, item.id DESC';
    // since_id (a client asking what is new): the walk over all tops by activity would go on to the
    // last top whenever fewer than a page are new; the few rows after since_id are read instead.
    const fewNewer = q.sinceId !== undefined && maxItemId(db) - q.sinceId <= SINCE_ID_ROWS;
    return stmt<Record<string, unknown>, { id: number }>(
      db,
      `SELECT item.id FROM item${fewNewer ? ' NOT INDEXED' : q.order === 'commented' ? ' INDEXED BY item_shown_top_commented_idx' : ''} WHERE (item.uid = @uid OR item.uid IN (${CONNECTED_CHANNELS}) OR ${RECEIVED_FOR_CHANNEL}) AND ${filters}
       ORDER BY ${order} LIMIT @limit + 0 OFFSET @offset`,
    ).all({ ...p, limit: q.limit, offset: q.offset }).map((r) => r.id);
  }
  // By creation there is no index over all channels: each channel's newest tops come from its own
  // index range, and the page is cut from their merge.
  const connected = q.wallOnly ? [] : stmt<{ uid: number }, { channel_id: number }>(db, CONNECTED_CHANNELS).all({ uid: q.uid }).map((r) => r.channel_id);
  const uids = new Set([q.uid, ...connected]);
  const perChannel = stmt<Record<string, unknown>, { id: number; created: string }>(
    db,
    `SELECT item.id, item.created FROM item WHERE item.uid = @channel AND ${filters} ORDER BY item.created DESC, item.id DESC LIMIT @n + 0`,
  );
  const rows = [...uids].flatMap((channel) => perChannel.all({ ...p, channel, n: q.offset + q.limit }));
  if (!q.wallOnly) {
    rows.push(...stmt<Record<string, unknown>, { id: number; created: string }>(
      db,
      `SELECT item.id, item.created FROM item WHERE ${RECEIVED_FOR_CHANNEL} AND ${filters} ORDER BY item.created DESC, item.id DESC LIMIT @n + 0`,
    ).all({ ...p, n: q.offset + q.limit }).filter((r) => !rows.some((o) => o.id === r.id)));
  }
  rows.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : b.id - a.id));
  return rows.slice(q.offset, q.offset + q.limit).map((r) => r.id);
}

/**
 * Export of posts: the channel's wall items created since `since`, oldest first. Iterates — call
 * it on a connection of its own (an open iteration blocks writes on its connection).
 */
export function iterateWallItems(db: Db, uid: number, since: string): Iterable<PortableItemRow> {
  return inBatches(
    db,
    stmt<[number, string], ItemRow>(
      db,
      `SELECT item.* FROM item WHERE item.uid = ? AND item.item_wall = 1 AND item.item_deleted = 0 AND item.resource_type = '' AND item.created >= ?
       ORDER BY item.created, item.id`,
    ).iterate(uid, since),
  );
}

/** Export: the channel's design elements and web pages (item_type 1 block, 2 layout, 3 webpage). */
export function iterateWebpageItems(db: Db, uid: number): Iterable<PortableItemRow> {
  return inBatches(
    db,
    stmt<[number], ItemRow>(
      db,
      `SELECT item.* FROM item INDEXED BY item_kind_idx WHERE item.uid = ? AND item.item_type != 0 AND item.item_type IN (1, 2, 3) AND item.item_deleted = 0
       ORDER BY item.created, item.id`,
    ).iterate(uid),
  );
}

/** Export: items attached to a resource whose type starts with `prefix` (events, wiki pages). */
export function iterateResourceItems(db: Db, uid: number, prefix: string): Iterable<PortableItemRow> {
  return inBatches(
    db,
    stmt<{ uid: number; prefix: string }, ItemRow>(
      db,
      // The range finds them in item_resource_idx (no UTF-8 text continues with byte FF); substr()
      // alone is a test on every item of the channel.
      `SELECT item.* FROM item INDEXED BY item_resource_idx WHERE item.resource_type >= @prefix AND item.resource_type < @prefix || CAST(x'ff' AS TEXT)
         AND substr(item.resource_type, 1, length(@prefix)) = @prefix AND item.uid = @uid AND item.item_deleted = 0
       ORDER BY item.created, item.id`,
    ).iterate({ uid, prefix }),
  );
}

/** What item/export_page covers of a channel: its wall's items and its items of other types, not its photos' hidden items. */
const EXPORTED = `item.uid = @uid AND (item.item_wall = 1 OR item.item_type != 0) AND item.item_deleted = 0 AND item.resource_type != 'photo'`;

interface ExportRange {
  uid: number;
  since: string;
  until: string;
}

/** The channel's exported items created at or after `from` and before `below`. */
function countExportedBelow(db: Db, uid: number, from: string, below: string): number {
  return stmt<{ uid: number; from: string; below: string }, { n: number }>(db, `SELECT count(*) AS n FROM item WHERE ${EXPORTED} AND item.created >= @from AND item.created < @below`).get({ uid, from, below })!.n;
}

/** The channel's exported items created from `from` to `until`. */
function countExportedUntil(db: Db, uid: number, from: string, until: string): number {
  return stmt<{ uid: number; from: string; until: string }, { n: number }>(db, `SELECT count(*) AS n FROM item WHERE ${EXPORTED} AND item.created >= @from AND item.created <= @until`).get({ uid, from, until })!.n;
}

/**
 * How many items the export covers between since and until, and where its `offset`-th item (from 0)
 * is: the first exported item created at or after `from`, after `skip` more. Only the months of
 * since and until are counted item by item; the months between come from item_export_month
 * (migration 053), so `skip` stays within one month, whatever the channel holds before it.
 */
function locateExportItem(db: Db, q: ExportRange & { offset: number }): { total: number; from: string; skip: number } {
  // A month is every `created` starting with the same seven characters: a range in their order.
  const first = q.since.slice(0, 7);
  const last = q.until.slice(0, 7);
  if (first >= last) return { total: countExportedUntil(db, q.uid, q.since, q.until), from: q.since, skip: q.offset };
  const months = stmt<{ uid: number; first: string; last: string }, { month: string; n: number }>(
    db,
    'SELECT month, n FROM item_export_month WHERE uid = @uid AND month > @first AND month < @last AND n > 0 ORDER BY month',
  ).all({ uid: q.uid, first, last });
  // Those of since's month from since on, and of until's month up to until.
  const head = countExportedBelow(db, q.uid, q.since, months[0]?.month ?? last);
  const tail = countExportedUntil(db, q.uid, last, q.until);
  const total = months.reduce((sum, m) => sum + m.n, head + tail);
  if (q.offset < head) return { total, from: q.since, skip: q.offset };
  let skip = q.offset - head;
  for (const m of months) {
    if (skip < m.n) return { total, from: m.month, skip };
    skip -= m.n;
  }
  return { total, from: last, skip };
}

/** item/export_page: how many items the paged export covers. */
export function countExportPageItems(db: Db, uid: number, since: string, until: string): number {
  return locateExportItem(db, { uid, since, until, offset: 0 }).total;
}

/**
 * item/export_page: how many items the export covers, and one page (at most 1000) of them, oldest
 * first, from the `offset`-th on (none past the end). The page's ids are picked from the index
 * alone: skipped items are never read.
 */
export function exportPageItems(db: Db, q: ExportRange & { limit: number; offset: number }): { total: number; items: PortableItemRow[] } {
  const { total, from, skip } = locateExportItem(db, q);
  if (q.offset >= total) return { total, items: [] };
  const items = withRelations(
    db,
    allWide<ItemRow>(
      db,
      `SELECT item.* FROM item WHERE item.id IN (SELECT item.id FROM item WHERE ${EXPORTED} AND item.created >= @from AND item.created <= @until
         ORDER BY item.created, item.id LIMIT @limit + 0 OFFSET @skip)
       ORDER BY item.created, item.id`,
      { uid: q.uid, from, until: q.until, limit: q.limit, skip },
    ),
  );
  return { total, items };
}
