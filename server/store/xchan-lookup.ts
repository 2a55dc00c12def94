import { stmt, type Db } from '../db/open.js';
import type { XchanRow } from './rows.js';

/** An identity by its profile URL (xchan_url), ignoring a trailing slash. */
export function findXchanByUrl(db: Db, url: string): XchanRow | undefined {
  const u = url.replace(/\/+$/, '');
  return stmt<[string, string], XchanRow>(db, 'SELECT * FROM xchan WHERE xchan_url = ? OR xchan_url = ? ORDER BY xchan_id LIMIT 1').get(u, `${u}/`);
}

/**
 * Identities whose display name or nickname contains the term (case-insensitive), or whose address or
 * profile URL is the term,
 * not deleted; exact matches first, then local channels.
 */
export function searchXchans(db: Db, term: string, limit: number): XchanRow[] {
  return stmt<{ term: string; limit: number }, XchanRow>(
    db,
    `SELECT x.* FROM xchan x LEFT JOIN channel c ON c.channel_hash = x.xchan_hash AND c.channel_removed = 0
     WHERE x.xchan_deleted = 0 AND (instr(lower(x.xchan_name), lower(@term)) > 0
       OR instr(lower(substr(x.xchan_addr, 1, instr(x.xchan_addr, '@') - 1)), lower(@term)) > 0
       OR lower(x.xchan_addr) = lower(@term) OR x.xchan_url = @term)
     ORDER BY (lower(x.xchan_name) = lower(@term) OR lower(x.xchan_addr) = lower(@term)
       OR lower(substr(x.xchan_addr, 1, instr(x.xchan_addr, '@') - 1)) = lower(@term)) DESC, c.channel_id IS NULL, x.xchan_id LIMIT @limit + 0`,
  ).all({ term, limit });
}
