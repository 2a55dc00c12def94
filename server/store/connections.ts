import { stmt, type Db } from '../db/open.js';
import type { AbookRow, XchanRow } from './rows.js';
import { nowDb } from '../util/time.js';

export type ConnectionRow = AbookRow & XchanRow;

/** A channel's connections (not itself), joined with their xchan. */
export function listConnections(db: Db, uid: number, opts: { includePending?: boolean; includeBlocked?: boolean } = {}): ConnectionRow[] {
  return stmt<[number, number, number], ConnectionRow>(
    db,
    `SELECT * FROM abook JOIN xchan ON xchan_hash = abook_xchan
     WHERE abook_channel = ? AND abook_self = 0 AND (abook_pending = 0 OR ?) AND (abook_blocked = 0 OR ?)
     ORDER BY abook_id`,
  ).all(uid, opts.includePending ? 1 : 0, opts.includeBlocked ? 1 : 0);
}

export function getConnection(db: Db, uid: number, xchan: string): ConnectionRow | undefined {
  return stmt<[number, string], ConnectionRow>(db, 'SELECT * FROM abook JOIN xchan ON xchan_hash = abook_xchan WHERE abook_channel = ? AND abook_xchan = ?').get(uid, xchan);
}

export function getConnectionById(db: Db, uid: number, abookId: number): ConnectionRow | undefined {
  return stmt<[number, number], ConnectionRow>(db, 'SELECT * FROM abook JOIN xchan ON xchan_hash = abook_xchan WHERE abook_channel = ? AND abook_id = ?').get(uid, abookId);
}

/** A new connection record; `unconnected` when the channel does not follow them (a follower's or a blocked record). */
export function insertConnection(db: Db, c: { account: number; channel: number; xchan: string; pending: boolean; unconnected?: boolean; myPerms: number; theirPerms: number }): number {
  const now = nowDb();
  return Number(
    stmt(
      db,
      `INSERT INTO abook (abook_account, abook_channel, abook_xchan, abook_my_perms, abook_their_perms, abook_created, abook_updated,
         abook_connected, abook_pending, abook_unconnected) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(c.account, c.channel, c.xchan, c.myPerms, c.theirPerms, now, now, c.pending ? '0001-01-01 00:00:00' : now, c.pending ? 1 : 0, c.unconnected ? 1 : 0).lastInsertRowid,
  );
}

export function updateConnection(db: Db, abookId: number, fields: Partial<Pick<AbookRow, 'abook_pending' | 'abook_unconnected' | 'abook_blocked' | 'abook_ignored' | 'abook_hidden' | 'abook_archived' | 'abook_my_perms' | 'abook_their_perms' | 'abook_closeness' | 'abook_connected'>>): void {
  const keys = Object.keys(fields);
  if (!keys.length) return;
  stmt(db, `UPDATE abook SET ${keys.map((k) => `${k} = @${k}`).join(', ')}, abook_updated = @updated WHERE abook_id = @id`).run({ ...fields, updated: nowDb(), id: abookId });
}

export function deleteConnection(db: Db, abookId: number): void {
  const row = stmt<[number], { abook_channel: number; abook_xchan: string }>(db, 'SELECT abook_channel, abook_xchan FROM abook WHERE abook_id = ?').get(abookId);
  if (!row) return;
  db.transaction(() => {
    stmt(db, 'DELETE FROM pgrp_member WHERE uid = ? AND xchan = ?').run(row.abook_channel, row.abook_xchan);
    stmt(db, 'DELETE FROM abconfig WHERE chan = ? AND xchan = ?').run(row.abook_channel, row.abook_xchan);
    stmt(db, 'DELETE FROM abook WHERE abook_id = ?').run(abookId);
  })();
}

export interface AbconfigRow {
  id: number;
  chan: number;
  xchan: string;
  cat: string;
  k: string;
  v: string;
}

export function listAbconfig(db: Db, uid: number, xchan?: string): AbconfigRow[] {
  if (xchan === undefined) return stmt<[number], AbconfigRow>(db, 'SELECT * FROM abconfig WHERE chan = ? ORDER BY id').all(uid);
  return stmt<[number, string], AbconfigRow>(db, 'SELECT * FROM abconfig WHERE chan = ? AND xchan = ? ORDER BY id').all(uid, xchan);
}

export function getAbconfig(db: Db, uid: number, xchan: string, cat: string, k: string): string | undefined {
  return stmt<[number, string, string, string], { v: string }>(db, 'SELECT v FROM abconfig WHERE chan = ? AND xchan = ? AND cat = ? AND k = ?').get(uid, xchan, cat, k)?.v;
}

export function setAbconfig(db: Db, uid: number, xchan: string, cat: string, k: string, v: string): void {
  stmt(db, 'INSERT INTO abconfig (chan, xchan, cat, k, v) VALUES (?, ?, ?, ?, ?) ON CONFLICT (chan, xchan, cat, k) DO UPDATE SET v = excluded.v').run(uid, xchan, cat, k, v);
}

/** Where a channel keeps "tell me when they post" for one of its connections. */
export const POST_SUBSCRIPTION = { cat: 'mastodon', k: 'notify' } as const;

/** The channels that asked to be told of each new post by this identity. */
export function postSubscribers(db: Db, xchan: string): number[] {
  return stmt<[string, string, string], { chan: number }>(db, "SELECT chan FROM abconfig WHERE xchan = ? AND cat = ? AND k = ? AND v = '1'")
    .all(xchan, POST_SUBSCRIPTION.cat, POST_SUBSCRIPTION.k)
    .map((r) => r.chan);
}
