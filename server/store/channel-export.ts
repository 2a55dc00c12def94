import { stmt, type Db } from '../db/open.js';
import type { AbookRow, MailRow, ProfileRow, XchanRow } from './rows.js';
import { MAIL_VIEW, type ConvRow } from './mail.js';
import { ABOOK_COLUMNS } from './channel-import.js';

/** Rows of a channel for channel/export/basic, apart from items (item-streams.ts). */

export function listProfiles(db: Db, uid: number): ProfileRow[] {
  return stmt<[number], ProfileRow>(db, 'SELECT * FROM profile WHERE uid = ? ORDER BY id').all(uid);
}

export interface PconfigRow {
  id: number;
  uid: number;
  cat: string;
  k: string;
  v: string;
  updated: string;
}

export function listPconfigRows(db: Db, uid: number): PconfigRow[] {
  return stmt<[number], PconfigRow>(db, 'SELECT * FROM pconfig WHERE uid = ? ORDER BY id').all(uid);
}

export function listPconfigRowsOfCat(db: Db, uid: number, cat: string): PconfigRow[] {
  return stmt<[number, string], PconfigRow>(db, 'SELECT * FROM pconfig WHERE uid = ? AND cat = ? ORDER BY id').all(uid, cat);
}

export function listAbookRows(db: Db, uid: number): AbookRow[] {
  // Not SELECT *: abook_follow_accepted (migration 048) is derived state, not part of an export.
  return stmt<[number], AbookRow>(db, `SELECT abook_id, ${ABOOK_COLUMNS.join(', ')} FROM abook WHERE abook_channel = ? ORDER BY abook_id`).all(uid);
}

/** The xchans of all the channel's connections, itself included. */
export function listConnectionXchans(db: Db, uid: number): XchanRow[] {
  return stmt<[number], XchanRow>(db, 'SELECT * FROM xchan WHERE xchan_hash IN (SELECT abook_xchan FROM abook WHERE abook_channel = ?) ORDER BY xchan_id').all(uid);
}

export function listGroupMemberRows(db: Db, uid: number): { id: number; uid: number; gid: number; xchan: string }[] {
  // Not SELECT *: xchan_id (migration 050) is derived state, not part of an export.
  return stmt<[number], { id: number; uid: number; gid: number; xchan: string }>(db, 'SELECT id, uid, gid, xchan FROM pgrp_member WHERE uid = ? ORDER BY id').all(uid);
}

export interface SavedSearchRow {
  id: number;
  uid: number;
  term: string;
  created: string;
}

export function listSavedSearches(db: Db, uid: number): SavedSearchRow[] {
  return stmt<[number], SavedSearchRow>(db, 'SELECT * FROM saved_search WHERE uid = ? ORDER BY id').all(uid);
}

/** The channel's copies of direct messages. Iterates: use a connection of its own. */
export function iterateMail(db: Db, uid: number): Iterable<MailRow> {
  // The columns Hubzilla's export has (not shared_id, the compat API's own).
  return stmt<[number], MailRow>(
    db,
    `SELECT id, convid, mid, parent_mid, account_id, channel_id, from_xchan, to_xchan, title, body, created, expires, mail_seen, mail_deleted
     FROM ${MAIL_VIEW} WHERE channel_id = ? AND mail_deleted = 0 ORDER BY id`,
  ).iterate(uid);
}

/** Conversations the channel's messages belong to. */
export function listConversations(db: Db, uid: number): ConvRow[] {
  return stmt<[number], ConvRow>(db, 'SELECT * FROM conv WHERE id IN (SELECT convid FROM mail WHERE channel_id = ? AND mail_deleted = 0) ORDER BY id').all(uid);
}
