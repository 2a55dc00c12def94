import { stmt, type Db } from '../db/open.js';
import type { GroupRow } from './rows.js';

export function listGroups(db: Db, uid: number): GroupRow[] {
  return stmt<[number], GroupRow>(db, 'SELECT * FROM pgrp WHERE uid = ? AND deleted = 0 ORDER BY gname COLLATE NOCASE, id').all(uid);
}

export function getGroup(db: Db, uid: number, id: number): GroupRow | undefined {
  return stmt<[number, number], GroupRow>(db, 'SELECT * FROM pgrp WHERE uid = ? AND id = ? AND deleted = 0').get(uid, id);
}

export function getGroupByName(db: Db, uid: number, name: string): GroupRow | undefined {
  return stmt<[number, string], GroupRow>(db, 'SELECT * FROM pgrp WHERE uid = ? AND gname = ? AND deleted = 0 ORDER BY id LIMIT 1').get(uid, name);
}

/** A group by name including deleted ones (Friendica revives a deleted group of the same name). */
export function getGroupByNameAnyState(db: Db, uid: number, name: string): GroupRow | undefined {
  return stmt<[number, string], GroupRow>(db, 'SELECT * FROM pgrp WHERE uid = ? AND gname = ? ORDER BY deleted, id LIMIT 1').get(uid, name);
}

export function getGroupByHash(db: Db, uid: number, hash: string): GroupRow | undefined {
  return stmt<[number, string], GroupRow>(db, 'SELECT * FROM pgrp WHERE uid = ? AND hash = ? AND deleted = 0').get(uid, hash);
}

export function insertGroup(db: Db, uid: number, hash: string, name: string, visible = false): number {
  return Number(stmt(db, 'INSERT INTO pgrp (hash, uid, visible, deleted, gname) VALUES (?, ?, ?, 0, ?)').run(hash, uid, visible ? 1 : 0, name).lastInsertRowid);
}

export function updateGroup(db: Db, id: number, fields: Partial<Pick<GroupRow, 'gname' | 'visible' | 'deleted'>>): void {
  const keys = Object.keys(fields);
  if (keys.length) stmt(db, `UPDATE pgrp SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
}

/** Marks a group deleted and drops its members. */
export function deleteGroup(db: Db, id: number): void {
  db.transaction(() => {
    stmt(db, 'DELETE FROM pgrp_member WHERE gid = ?').run(id);
    stmt(db, 'UPDATE pgrp SET deleted = 1 WHERE id = ?').run(id);
  })();
}

export function groupMemberHashes(db: Db, gid: number): string[] {
  return stmt<[number], { xchan: string }>(db, 'SELECT xchan FROM pgrp_member WHERE gid = ? ORDER BY id').all(gid).map((r) => r.xchan);
}

export function countGroupMembers(db: Db, gid: number): number {
  return stmt<[number], { n: number }>(db, 'SELECT count(*) AS n FROM pgrp_member WHERE gid = ?').get(gid)!.n;
}

export function addGroupMember(db: Db, uid: number, gid: number, xchan: string): void {
  stmt(db, 'INSERT OR IGNORE INTO pgrp_member (uid, gid, xchan) VALUES (?, ?, ?)').run(uid, gid, xchan);
}

export function removeGroupMember(db: Db, gid: number, xchan: string): void {
  stmt(db, 'DELETE FROM pgrp_member WHERE gid = ? AND xchan = ?').run(gid, xchan);
}

/** Hashes of the (not deleted) groups of channel `uid` that contain `xchan`. */
export function groupHashesContaining(db: Db, uid: number, xchan: string): string[] {
  return stmt<[number, string], { hash: string }>(db, 'SELECT g.hash FROM pgrp g JOIN pgrp_member m ON m.gid = g.id WHERE g.uid = ? AND g.deleted = 0 AND m.xchan = ?').all(uid, xchan).map((r) => r.hash);
}
