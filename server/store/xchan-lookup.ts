import { stmt, type Db } from '../db/open.js';
import type { XchanRow } from './rows.js';
import { ftsString } from './fts.js';

/** An identity by its profile URL (xchan_url), ignoring a trailing slash. */
export function findXchanByUrl(db: Db, url: string): XchanRow | undefined {
  const u = url.replace(/\/+$/, '');
  return stmt<[string, string], XchanRow>(db, 'SELECT * FROM xchan WHERE xchan_url = ? OR xchan_url = ? ORDER BY xchan_id LIMIT 1').get(u, `${u}/`);
}

const MATCHES = `instr(lower(x.xchan_name), lower(@term)) > 0
  OR instr(lower(substr(x.xchan_addr, 1, instr(x.xchan_addr, '@') - 1)), lower(@term)) > 0
  OR lower(x.xchan_addr) = lower(@term) OR x.xchan_url = @term`;

const ORDER = `(lower(x.xchan_name) = lower(@term) OR lower(x.xchan_addr) = lower(@term)
  OR lower(substr(x.xchan_addr, 1, instr(x.xchan_addr, '@') - 1)) = lower(@term)) DESC, c.channel_id IS NULL, x.xchan_id`;

/** The trigram index (migration 056) holds texts of at least three characters. */
const TRIGRAM = 3;

/**
 * Identities whose display name or nickname contains the term (case-insensitive), or whose address or
 * profile URL is the term,
 * not deleted; exact matches first, then local channels.
 */
export function searchXchans(db: Db, term: string, limit: number): XchanRow[] {
  // For a long enough term the index names those whose name or address holds it; the rules decide among them.
  const indexed = [...term].length >= TRIGRAM;
  const candidates = indexed ? '(x.xchan_id IN (SELECT rowid FROM xchan_fts WHERE xchan_fts MATCH @phrase) OR x.xchan_url = @term) AND ' : '';
  return stmt<{ term: string; limit: number; phrase?: string }, XchanRow>(
    db,
    `SELECT x.* FROM xchan x LEFT JOIN channel c ON c.channel_hash = x.xchan_hash AND c.channel_removed = 0
     WHERE ${candidates}x.xchan_deleted = 0 AND (${MATCHES}) ORDER BY ${ORDER} LIMIT @limit + 0`,
  ).all(indexed ? { term, limit, phrase: ftsString(term) } : { term, limit });
}
