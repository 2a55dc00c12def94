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
  // One index probe per pair: as two IN lists SQLite probed every channel with every message id.
  return stmt<[string], ItemRef>(
    db,
    `SELECT item.id, item.uid, item.mid, item.author_xchan, item.item_deleted FROM json_each(?) AS p
     JOIN item INDEXED BY item_uid_mid_idx ON item.uid = p.value ->> 0 AND item.mid = p.value ->> 1`,
  ).all(pairsJson(pairs));
}

/** Distinct (uid, mid) pairs as a JSON array of [uid, mid] arrays. */
function pairsJson(pairs: { uid: number; mid: string }[]): string {
  const seen = new Set<string>();
  const out: [number, string][] = [];
  for (const { uid, mid } of pairs) {
    const k = `${uid} ${mid}`;
    if (!seen.has(k)) (seen.add(k), out.push([uid, mid]));
  }
  return JSON.stringify(out);
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
  return stmt<[string], ChildRef>(
    db,
    `SELECT item.uid, item.thr_parent, item.verb, item.author_xchan FROM json_each(?) AS p
     JOIN item INDEXED BY item_thr_parent_idx ON item.uid = p.value ->> 0 AND item.thr_parent = p.value ->> 1
     WHERE item.mid != item.thr_parent AND item.item_deleted = 0 ORDER BY item.id`,
  ).all(pairsJson(items));
}

/** What statuses show of an item's term. */
export type ItemTerm = Pick<TermRow, 'oid' | 'ttype' | 'term' | 'url' | 'term_hash'>;

/** The terms (tags, mentions…) of these items, in the order they were written. */
export function termsOf(db: Db, ids: number[]): ItemTerm[] {
  if (!ids.length) return [];
  return stmt<[string], ItemTerm>(db, 'SELECT oid, ttype, term, url, term_hash FROM term WHERE otype = 1 AND oid IN (SELECT value FROM json_each(?)) ORDER BY tid').all(json(ids));
}
