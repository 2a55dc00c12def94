import { stmt, type Db } from '../db/open.js';

/** A person in a relation, with the Twitter user id (xchan_id) that orders and pages the list. */
export interface GraphEntry {
  hash: string;
  id: number;
}

/** Whom the channel follows: its accepted, unblocked connections. */
export function friendsOf(db: Db, uid: number): GraphEntry[] {
  return stmt<[number], GraphEntry>(
    db,
    `SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a JOIN xchan x ON x.xchan_hash = a.abook_xchan
     WHERE a.abook_channel = ? AND a.abook_self = 0 AND a.abook_pending = 0 AND a.abook_blocked = 0 ORDER BY x.xchan_id DESC`,
  ).all(uid);
}

/** Who follows the identity: local channels with an accepted connection to it. */
export function followersOf(db: Db, hash: string): GraphEntry[] {
  return stmt<[string], GraphEntry>(
    db,
    `SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a
     JOIN channel c ON c.channel_id = a.abook_channel AND c.channel_removed = 0
     JOIN xchan x ON x.xchan_hash = c.channel_hash
     WHERE a.abook_xchan = ? AND a.abook_self = 0 AND a.abook_pending = 0 ORDER BY x.xchan_id DESC`,
  ).all(hash);
}

/** Connection requests waiting for the channel's answer. */
export function incomingOf(db: Db, uid: number): GraphEntry[] {
  return stmt<[number], GraphEntry>(
    db,
    `SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a JOIN xchan x ON x.xchan_hash = a.abook_xchan
     WHERE a.abook_channel = ? AND a.abook_self = 0 AND a.abook_pending = 1 AND a.abook_blocked = 0 AND a.abook_ignored = 0
     ORDER BY x.xchan_id DESC`,
  ).all(uid);
}

/** Connections the channel blocked. */
export function blockedBy(db: Db, uid: number): GraphEntry[] {
  return stmt<[number], GraphEntry>(
    db,
    `SELECT x.xchan_hash AS hash, x.xchan_id AS id FROM abook a JOIN xchan x ON x.xchan_hash = a.abook_xchan
     WHERE a.abook_channel = ? AND a.abook_self = 0 AND a.abook_blocked = 1 ORDER BY x.xchan_id DESC`,
  ).all(uid);
}

/** Whether channel `uid` follows `hash` (accepted, unblocked connection). */
export function follows(db: Db, uid: number, hash: string): boolean {
  return (
    stmt<[number, string], { n: number }>(db, 'SELECT count(*) AS n FROM abook WHERE abook_channel = ? AND abook_xchan = ? AND abook_self = 0 AND abook_pending = 0 AND abook_blocked = 0').get(uid, hash)!.n > 0
  );
}
