import { stmt, type Db } from '../db/open.js';
import type { XchanRow } from './rows.js';
import { escapeLike } from './attachments.js';

export function getXchan(db: Db, hash: string): XchanRow | undefined {
  return stmt<[string], XchanRow>(db, 'SELECT * FROM xchan WHERE xchan_hash = ?').get(hash);
}

export function getXchanById(db: Db, id: number): XchanRow | undefined {
  return stmt<[number], XchanRow>(db, 'SELECT * FROM xchan WHERE xchan_id = ?').get(id);
}

/**
 * An identity by address, with or without the port: alice@127.0.0.1:8480 finds alice@127.0.0.1
 * and the other way round (Hubzilla's addresses carry a non-default port, older ones did not). An
 * exact match wins; an address with one port never finds one with another (two hubs on one host).
 */
export function getXchanByAddress(db: Db, address: string): XchanRow | undefined {
  const bare = address.replace(/:\d+$/, '');
  return stmt<{ address: string; bare: string; ported: string; anyPort: number }, XchanRow>(
    db,
    `SELECT * FROM xchan WHERE xchan_addr = @address COLLATE NOCASE OR xchan_addr = @bare COLLATE NOCASE OR (@anyPort = 1 AND xchan_addr LIKE @ported ESCAPE '\\')
     ORDER BY xchan_addr = @address COLLATE NOCASE DESC, xchan_id LIMIT 1`,
  ).get({ address, bare, ported: `${escapeLike(bare)}:%`, anyPort: bare === address ? 1 : 0 });
}

export function getXchanByGuid(db: Db, guid: string): XchanRow | undefined {
  return stmt<[string], XchanRow>(db, 'SELECT * FROM xchan WHERE xchan_guid = ? ORDER BY xchan_id LIMIT 1').get(guid);
}

/** The xchan of a local channel by nickname (nick or nick@host). */
export function getLocalXchanByNick(db: Db, nick: string): XchanRow | undefined {
  return stmt<[string], XchanRow>(db, 'SELECT x.* FROM xchan x JOIN channel c ON c.channel_hash = x.xchan_hash WHERE c.channel_address = ? AND c.channel_removed = 0').get(nick.split('@')[0]!.toLowerCase());
}

/** Several xchans at once, keyed by hash (for serialising lists of items). */
export function getXchansByHash(db: Db, hashes: Iterable<string>): Map<string, XchanRow> {
  const unique = [...new Set(hashes)].filter(Boolean);
  const out = new Map<string, XchanRow>();
  if (!unique.length) return out;
  // One statement, prepared once, whatever the number of hashes (the list goes as a JSON array).
  const rows = stmt<[string], XchanRow>(db, 'SELECT * FROM xchan WHERE xchan_hash IN (SELECT value FROM json_each(?))').all(JSON.stringify(unique));
  for (const r of rows) out.set(r.xchan_hash, r);
  return out;
}

/** Whether the xchan is one of this hub's channels. */
export function isLocalXchan(db: Db, hash: string): boolean {
  return stmt<[string], { n: number }>(db, 'SELECT count(*) AS n FROM channel WHERE channel_hash = ? AND channel_removed = 0').get(hash)!.n > 0;
}
