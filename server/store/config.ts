import { stmt, type Db } from '../db/open.js';
import { nowDb } from '../util/time.js';

/** Site-wide settings (config table). */
export function getConfig(db: Db, cat: string, k: string): string | undefined {
  return stmt<[string, string], { v: string }>(db, 'SELECT v FROM config WHERE cat = ? AND k = ?').get(cat, k)?.v;
}

export function setConfig(db: Db, cat: string, k: string, v: string): void {
  stmt(db, 'INSERT INTO config (cat, k, v) VALUES (?, ?, ?) ON CONFLICT (cat, k) DO UPDATE SET v = excluded.v').run(cat, k, v);
}

/** Per-channel settings (pconfig table). */
export function getPConfig(db: Db, uid: number, cat: string, k: string): string | undefined {
  return stmt<[number, string, string], { v: string }>(db, 'SELECT v FROM pconfig WHERE uid = ? AND cat = ? AND k = ?').get(uid, cat, k)?.v;
}

export function setPConfig(db: Db, uid: number, cat: string, k: string, v: string): void {
  stmt(db, 'INSERT INTO pconfig (uid, cat, k, v, updated) VALUES (?, ?, ?, ?, ?) ON CONFLICT (uid, cat, k) DO UPDATE SET v = excluded.v, updated = excluded.updated').run(uid, cat, k, v, nowDb());
}

export function listPConfig(db: Db, uid: number): { cat: string; k: string; v: string }[] {
  return stmt<[number], { cat: string; k: string; v: string }>(db, 'SELECT cat, k, v FROM pconfig WHERE uid = ? ORDER BY id').all(uid);
}
