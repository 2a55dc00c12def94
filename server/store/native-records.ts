import { stmt, type Db } from '../db/open.js';
import type { AbookRow, GroupRow, XchanRow } from './rows.js';
import type { ListingSlice } from './attachments.js';

/** Whole rows the native API hands out as they are: groups, group members, connections. */

/** Every privacy group of the channel, including those marked deleted. */
export function listAllGroups(db: Db, uid: number): GroupRow[] {
  return stmt<[number], GroupRow>(db, 'SELECT * FROM pgrp WHERE uid = ? ORDER BY id').all(uid);
}

export interface GroupMemberJoinRow extends Partial<AbookRow>, Partial<XchanRow> {
  id: number;
  uid: number;
  gid: number;
  xchan: string;
}

/**
 * A slice of the members of a group, in the order they were added, with the channel's connection
 * to each (if any) and their xchan; read from the group's index, resuming after the last member read.
 */
export function groupMembersJoined(db: Db, uid: number, gid: number, slice: ListingSlice<{ id: number }>): GroupMemberJoinRow[] {
  return stmt<Record<string, number>, GroupMemberJoinRow>(
    db,
    `SELECT abook.*, xchan.*, m.id AS id, m.uid AS uid, m.gid AS gid, m.xchan AS xchan
     FROM pgrp_member m INDEXED BY pgrp_member_gid_idx
     LEFT JOIN abook ON abook.abook_channel = m.uid AND abook.abook_xchan = m.xchan
     LEFT JOIN xchan ON xchan.xchan_hash = m.xchan
     WHERE m.gid = @gid AND m.uid = @uid AND m.id > @after ORDER BY m.id LIMIT @limit + 0 OFFSET @offset`,
  ).all({ uid, gid, after: slice.after?.id ?? 0, limit: slice.limit, offset: slice.offset ?? 0 });
}

export type AbookXchanRow = AbookRow & Partial<XchanRow>;

/**
 * A slice of the channel's connections, its own entry and pending ones included, with their xchan,
 * oldest first; read from the channel's index, resuming after the last connection read. With
 * `named`, only those whose name or address contains it (any case): the walk stays on the
 * channel's own connections, so it costs what the channel has, never what the hub knows.
 */
export function listAbookWithXchan(db: Db, uid: number, slice: ListingSlice<{ abook_id: number }>, named?: string): AbookXchanRow[] {
  const params = { uid, after: slice.after?.abook_id ?? 0, limit: slice.limit, offset: slice.offset ?? 0 };
  if (!named) {
    return stmt<Record<string, number>, AbookXchanRow>(
      db,
      `SELECT * FROM abook INDEXED BY abook_channel_id_idx LEFT JOIN xchan ON xchan_hash = abook_xchan
       WHERE abook_channel = @uid AND abook_id > @after ORDER BY abook_id LIMIT @limit + 0 OFFSET @offset`,
    ).all(params);
  }
  return stmt<Record<string, number | string>, AbookXchanRow>(
    db,
    `SELECT * FROM abook INDEXED BY abook_channel_id_idx LEFT JOIN xchan ON xchan_hash = abook_xchan
     WHERE abook_channel = @uid AND abook_id > @after
       AND (xchan_name LIKE @like ESCAPE '\\' OR xchan_addr LIKE @like ESCAPE '\\')
     ORDER BY abook_id LIMIT @limit + 0 OFFSET @offset`,
  ).all({ ...params, like: `%${named.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
}

/** The channel's connections to these xchans (those it has), with their xchan, oldest first. */
export function abookWithXchanByHashes(db: Db, uid: number, hashes: string[]): AbookXchanRow[] {
  if (hashes.length === 0) return [];
  return stmt<unknown[], AbookXchanRow>(
    db,
    `SELECT * FROM abook LEFT JOIN xchan ON xchan_hash = abook_xchan
     WHERE abook_channel = ? AND abook_xchan IN (SELECT value FROM json_each(?)) ORDER BY abook_id`,
  ).all(uid, JSON.stringify(hashes));
}

export function getAbookWithXchan(db: Db, uid: number, abookId: number): AbookXchanRow | undefined {
  return stmt<[number, number], AbookXchanRow>(db, 'SELECT * FROM abook LEFT JOIN xchan ON xchan_hash = abook_xchan WHERE abook_channel = ? AND abook_id = ?').get(uid, abookId);
}
