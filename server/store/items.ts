import { stmt, type Db } from '../db/open.js';
import type { ItemRow } from './rows.js';
import { NULL_DATE } from '../util/time.js';
import { visibleToSql } from './acl.js';
import { ftsString } from './fts.js';

export type NewItem = Omit<ItemRow, 'id'>;

/** Every column of item with its default, so that inserts always name all columns. */
export const ITEM_DEFAULTS: Omit<NewItem, 'uid'> = {
  uuid: '', mid: '', aid: 0, parent: 0, parent_mid: '', thr_parent: '',
  created: NULL_DATE, edited: NULL_DATE, expires: NULL_DATE, commented: NULL_DATE, received: NULL_DATE, changed: NULL_DATE, comments_closed: NULL_DATE,
  owner_xchan: '', author_xchan: '', source_xchan: '', mimetype: 'text/bbcode', title: '', summary: '', body: '', html: '', app: '', lang: '',
  revision: 0, verb: '', obj_type: '', obj: '', tgt_type: '', target: '', layout_mid: '', postopts: '', route: '', llink: '', plink: '',
  resource_id: '', resource_type: '', attach: '', sig: '', diaspora_meta: '', location: '', coord: '', public_policy: '', comment_policy: '',
  allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '',
  item_restrict: 0, item_flags: 0, item_private: 0, item_origin: 0, item_unseen: 0, item_starred: 0, item_uplink: 0, item_consensus: 0,
  item_wall: 0, item_thread_top: 0, item_notshown: 0, item_nsfw: 0, item_relay: 0, item_mentionsme: 0, item_nocomment: 0, item_obscured: 0,
  item_verified: 0, item_retained: 0, item_rss: 0, item_deleted: 0, item_type: 0, item_hidden: 0, item_unpublished: 0, item_delayed: 0,
  item_pending_remove: 0, item_blocked: 0, html_text: null,
};

const COLUMNS = ['uid', ...Object.keys(ITEM_DEFAULTS)];
const INSERT_SQL = `INSERT INTO item (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => '@' + c).join(', ')})`;

export function insertItem(db: Db, item: NewItem): number {
  return Number(stmt(db, INSERT_SQL).run(item).lastInsertRowid);
}

/** The item table's columns in their stored order, so that rows built here read like SELECT * rows. */
const STORED_ORDER = ['id', 'uuid', 'mid', 'aid', 'uid', ...Object.keys(ITEM_DEFAULTS).slice(3)];

/** The id the next insert will get: AUTOINCREMENT takes one more than the largest id ever used. */
function nextItemId(db: Db): number {
  return stmt<[], number>(db, "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'item'), 0), coalesce((SELECT max(id) FROM item), 0)) + 1")
    .pluck()
    .get()!;
}

/**
 * Inserts an item and returns it as stored, without reading it back. A thread top (`ownThread`)
 * is its own parent: the id is predicted so that one insert writes it, instead of an insert and an
 * update that rewrites the row and its index entries.
 */
export function insertStoredItem(db: Db, item: NewItem, opts: { ownThread: boolean }): ItemRow {
  const predicted = opts.ownThread ? nextItemId(db) : 0;
  const values = opts.ownThread ? { ...item, parent: predicted } : item;
  const id = insertItem(db, values);
  if (opts.ownThread && id !== predicted) updateItem(db, id, { parent: id });
  const stored: Record<string, unknown> = {};
  for (const column of STORED_ORDER) stored[column] = column === 'id' ? id : column === 'parent' && opts.ownThread ? id : values[column as keyof NewItem];
  return stored as unknown as ItemRow;
}

export function getItem(db: Db, id: number): ItemRow | undefined {
  return stmt<[number], ItemRow>(db, 'SELECT * FROM item WHERE id = ?').get(id);
}

export function getItemByMid(db: Db, mid: string): ItemRow | undefined {
  return stmt<[string], ItemRow>(db, 'SELECT * FROM item WHERE mid = ? ORDER BY id LIMIT 1').get(mid);
}

/** Updates the named columns of one item. */
export function updateItem(db: Db, id: number, fields: Partial<NewItem>): void {
  const keys = Object.keys(fields).filter((k) => k in ITEM_DEFAULTS);
  if (keys.length) stmt(db, `UPDATE item SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
}

/** Marks an item deleted; for a thread top, the whole thread. */
export function markItemDeleted(db: Db, item: ItemRow, changed: string): void {
  if (item.item_thread_top) stmt(db, 'UPDATE item SET item_deleted = 1, changed = ? WHERE parent = ?').run(changed, item.id);
  else stmt(db, 'UPDATE item SET item_deleted = 1, changed = ? WHERE id = ?').run(changed, item.id);
}

/** Sets the thread top's commented/changed times after a new child. */
export function touchThread(db: Db, topId: number, when: string): void {
  stmt(db, 'UPDATE item SET commented = max(commented, @when), changed = @when WHERE id = @id').run({ when, id: topId });
}

/** All items of a thread (top first, then children by creation), not deleted. */
export function getThread(db: Db, topId: number): ItemRow[] {
  return stmt<[number], ItemRow>(db, 'SELECT * FROM item WHERE parent = ? AND item_deleted = 0 ORDER BY item_thread_top DESC, created, id').all(topId);
}

/** Activities (likes, dislikes, attendance…) on an item, not deleted. */
export function getActivities(db: Db, targetMid: string, uid: number): ItemRow[] {
  return stmt<[number, string], ItemRow>(db, "SELECT * FROM item WHERE uid = ? AND thr_parent = ? AND item_deleted = 0 AND verb IN ('http://activitystrea.ms/schema/1.0/like', 'http://purl.org/zot/activity/dislike', 'http://purl.org/zot/activity/attendyes', 'http://purl.org/zot/activity/attendno', 'http://purl.org/zot/activity/attendmaybe') ORDER BY id").all(uid, targetMid);
}

/** The activity of one author with one verb on an item, if any. */
export function findActivity(db: Db, uid: number, targetMid: string, author: string, verb: string): ItemRow | undefined {
  return stmt<[number, string, string, string], ItemRow>(db, 'SELECT * FROM item WHERE uid = ? AND thr_parent = ? AND author_xchan = ? AND verb = ? AND item_deleted = 0').get(uid, targetMid, author, verb);
}

/** Whether an observer (xchan hash, '' for anonymous) may see this item. */
export function itemVisibleTo(db: Db, id: number, observer: string): boolean {
  return stmt<{ id: number; observer: string }, { n: number }>(db, `SELECT count(*) AS n FROM item WHERE id = @id AND ${visibleToSql('item', { privateFlag: true })}`).get({ id, observer })!.n > 0;
}

export interface TermRow {
  tid: number;
  aid: number;
  uid: number;
  oid: number;
  otype: number;
  ttype: number;
  term: string;
  url: string;
  imgurl: string;
  term_hash: string;
  parent_hash: string;
}

/** An item's term; for mentions term_hash holds the mentioned xchan's hash. */
export function insertTerm(db: Db, t: { aid: number; uid: number; oid: number; ttype: number; term: string; url: string; termHash?: string }): void {
  stmt(db, 'INSERT INTO term (aid, uid, oid, otype, ttype, term, url, term_hash) VALUES (@aid, @uid, @oid, 1, @ttype, @term, @url, @termHash)').run({ ...t, termHash: t.termHash ?? '' });
}

export function deleteItemTerms(db: Db, oid: number): void {
  stmt(db, 'DELETE FROM term WHERE otype = 1 AND oid = ?').run(oid);
}

export function getItemTerms(db: Db, oid: number): TermRow[] {
  return stmt<[number], TermRow>(db, 'SELECT * FROM term WHERE otype = 1 AND oid = ? ORDER BY tid').all(oid);
}

export interface IconfigRow {
  id: number;
  iid: number;
  cat: string;
  k: string;
  v: string;
  sharing: number;
}

export function setIconfig(db: Db, iid: number, cat: string, k: string, v: string, sharing = 0): void {
  stmt(db, 'INSERT INTO iconfig (iid, cat, k, v, sharing) VALUES (?, ?, ?, ?, ?) ON CONFLICT (iid, cat, k) DO UPDATE SET v = excluded.v, sharing = excluded.sharing').run(iid, cat, k, v, sharing);
}

export function getIconfig(db: Db, iid: number): IconfigRow[] {
  return stmt<[number], IconfigRow>(db, 'SELECT * FROM iconfig WHERE iid = ? ORDER BY id').all(iid);
}

export function findItemByIconfig(db: Db, uid: number, cat: string, k: string, v: string): ItemRow | undefined {
  return stmt<[number, string, string, string], ItemRow>(db, 'SELECT item.* FROM item JOIN iconfig ON iconfig.iid = item.id WHERE item.uid = ? AND iconfig.cat = ? AND iconfig.k = ? AND iconfig.v = ? AND item.item_deleted = 0 LIMIT 1').get(uid, cat, k, v);
}

export function setStarred(db: Db, id: number, starred: boolean): void {
  stmt(db, 'UPDATE item SET item_starred = ? WHERE id = ?').run(starred ? 1 : 0, id);
}

export type StoredRendering = Pick<ItemRow, 'id' | 'body' | 'mimetype' | 'html' | 'html_text'>;

/** Items after `afterId` in id order with their body and stored HTML, for rendering them again. */
export function renderingsAfter(db: Db, afterId: number, limit: number): StoredRendering[] {
  return stmt<[number, number], StoredRendering>(db, 'SELECT id, body, mimetype, html, html_text FROM item WHERE id > ? ORDER BY id LIMIT ? + 0').all(afterId, limit);
}

/** An item body's stored HTML and its plain text. */
export type ItemRendering = Pick<ItemRow, 'html'> & { html_text: string };

export function setItemHtml(db: Db, id: number, r: ItemRendering): void {
  stmt(db, 'UPDATE item SET html = ?, html_text = ? WHERE id = ?').run(r.html, r.html_text, id);
}

/** Items not deleted whose body contains one of these words (a photo's resource id, say), found through the full-text index. */
export function itemsWithWords(db: Db, words: string[]): Pick<ItemRow, 'id' | 'body' | 'mimetype' | 'attach'>[] {
  if (!words.length) return [];
  const match = words.map(ftsString).join(' OR ');
  return stmt<[string], Pick<ItemRow, 'id' | 'body' | 'mimetype' | 'attach'>>(
    db,
    'SELECT item.id, item.body, item.mimetype, item.attach FROM item_fts JOIN item ON item.id = item_fts.rowid WHERE item_fts MATCH ? AND item.item_deleted = 0',
  ).all(match);
}

export function setItemAttach(db: Db, id: number, attach: string): void {
  stmt(db, 'UPDATE item SET attach = ? WHERE id = ?').run(attach, id);
}

/** Gives every other item of a thread (comments, likes, other activities) the top's audience. */
export function setThreadChildrenAcl(db: Db, topId: number, acl: { allow_cid: string; allow_gid: string; deny_cid: string; deny_gid: string; item_private: number }): void {
  stmt(db, 'UPDATE item SET allow_cid = @allow_cid, allow_gid = @allow_gid, deny_cid = @deny_cid, deny_gid = @deny_gid, item_private = @item_private WHERE parent = @topId AND id != @topId').run({ ...acl, topId });
}
