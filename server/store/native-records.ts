import { stmt, type Db } from '../db/open.js';
import type { AbookRow, GroupRow, XchanRow } from './rows.js';

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

/** Members of a group with the channel's connection to each (if any) and their xchan. */
export function groupMembersJoined(db: Db, uid: number, gid: number): GroupMemberJoinRow[] {
  return stmt<[number, number], GroupMemberJoinRow>(
    db,
    `SELECT abook.*, xchan.*, m.id AS id, m.uid AS uid, m.gid AS gid, m.xchan AS xchan
     FROM pgrp_member m
     LEFT JOIN abook ON abook.abook_channel = m.uid AND abook.abook_xchan = m.xchan
     LEFT JOIN xchan ON xchan.xchan_hash = m.xchan
     WHERE m.uid = ? AND m.gid = ? ORDER BY m.id`,
  ).all(uid, gid);
}

export type AbookXchanRow = AbookRow & Partial<XchanRow>;

/** The channel's connections, its own entry and pending ones included, with their xchan. */
export function listAbookWithXchan(db: Db, uid: number): AbookXchanRow[] {
  return stmt<[number], AbookXchanRow>(db, 'SELECT * FROM abook LEFT JOIN xchan ON xchan_hash = abook_xchan WHERE abook_channel = ? ORDER BY abook_id').all(uid);
}

export function getAbookWithXchan(db: Db, uid: number, abookId: number): AbookXchanRow | undefined {
  return stmt<[number, number], AbookXchanRow>(db, 'SELECT * FROM abook LEFT JOIN xchan ON xchan_hash = abook_xchan WHERE abook_channel = ? AND abook_id = ?').get(uid, abookId);
}
