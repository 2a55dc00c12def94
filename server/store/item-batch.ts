import { allWide, stmt, type Db } from '../db/open.js';
import type { ItemRow } from './rows.js';
import type { TermRow } from './items.js';
import { visibleToSql } from './acl.js';

/**
 * Bulk reads for rendering lists of items without one query per item. Lists are passed as JSON
 * arrays (json_each) so that each statement is prepared once whatever the list length.
 */

const json = (values: unknown[]) => JSON.stringify(values);

export function itemsByIds(db: Db, ids: number[]): ItemRow[] {
  if (!ids.length) return [];
  return allWide<ItemRow>(db, 'SELECT * FROM item WHERE id IN (SELECT value FROM json_each(?))', [json(ids)]);
}

/** The ids among these that the observer may see and that are not deleted. */
export function visibleAmong(db: Db, ids: number[], observer: string): Set<number> {
  if (!ids.length) return new Set();
  const rows = stmt<{ ids: string; observer: string }, { id: number }>(
    db,
    `SELECT id FROM item WHERE id IN (SELECT value FROM json_each(@ids)) AND item_deleted = 0 AND ${visibleToSql('item', { privateFlag: true })}`,
  ).all({ ids: json(ids), observer });
  return new Set(rows.map((r) => r.id));
}

export interface ItemRef {
  id: number;
  uid: number;
  mid: string;
  author_xchan: string;
  item_deleted: number;
}

/** Items identified by (channel, message id) pairs, e.g. the items that comments answer. */
export function itemsByUidMid(db: Db, pairs: { uid: number; mid: string }[]): ItemRef[] {
  if (!pairs.length) return [];
  const uids = [...new Set(pairs.map((p) => p.uid))];
  const mids = [...new Set(pairs.map((p) => p.mid))];
  const wanted = new Set(pairs.map((p) => `${p.uid} ${p.mid}`));
  return stmt<[string, string], ItemRef>(
    db,
    'SELECT id, uid, mid, author_xchan, item_deleted FROM item WHERE uid IN (SELECT value FROM json_each(?)) AND mid IN (SELECT value FROM json_each(?))',
  )
    .all(json(uids), json(mids))
    .filter((r) => wanted.has(`${r.uid} ${r.mid}`));
}

export interface ChildRef {
  uid: number;
  thr_parent: string;
  verb: string;
  author_xchan: string;
}

/** Direct children (comments and activities) of these items, not deleted. */
export function childrenOf(db: Db, items: { uid: number; mid: string }[]): ChildRef[] {
  if (!items.length) return [];
  const uids = [...new Set(items.map((i) => i.uid))];
  const mids = [...new Set(items.map((i) => i.mid))];
  const wanted = new Set(items.map((i) => `${i.uid} ${i.mid}`));
  return stmt<[string, string], ChildRef>(
    db,
    `SELECT uid, thr_parent, verb, author_xchan FROM item
     WHERE uid IN (SELECT value FROM json_each(?)) AND thr_parent IN (SELECT value FROM json_each(?))
       AND mid != thr_parent AND item_deleted = 0 ORDER BY id`,
  )
    .all(json(uids), json(mids))
    .filter((r) => wanted.has(`${r.uid} ${r.thr_parent}`));
}

export function termsOf(db: Db, ids: number[]): TermRow[] {
  if (!ids.length) return [];
  return stmt<[string], TermRow>(db, 'SELECT * FROM term WHERE otype = 1 AND oid IN (SELECT value FROM json_each(?)) ORDER BY tid').all(json(ids));
}
