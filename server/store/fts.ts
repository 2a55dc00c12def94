import { stmt, type Db } from '../db/open.js';

/** Words of a search text: at most 16, each with a letter or a digit. */
function searchWords(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 16);
}

/** Text as one FTS5 string: operators, column filters and parentheses in it stay plain text. */
export const ftsString = (w: string): string => `"${w.replace(/"/g, '""')}"`;

/**
 * An FTS5 query matching every word of a user's search text, each as a prefix ("repl" finds
 * "reply"), in what readers see: the title and the plain text of the body, not its markup (the
 * raw body column, kept for finding photos by the ids in their URLs). Words are quoted, so FTS
 * operators, column filters and parentheses in the text are plain text. Undefined when the text
 * has no searchable word.
 *
 * `longerWords` may name the indexed words that a word is the beginning of; the word then matches
 * itself or one of them, which FTS5 reads newest first and stops with the page, where a prefix
 * makes it merge every document of every such word first (234 µs against 20 µs for "lighthouse"
 * among a million items, and growing with them).
 */
export function ftsQuery(text: string, longerWords?: (word: string) => string[] | undefined): string | undefined {
  const words = searchWords(text);
  if (!words.length) return undefined;
  const term = (w: string) => {
    const longer = longerWords?.(w);
    return longer ? `(${[w.toLowerCase(), ...longer].map(ftsString).join(' OR ')})` : `${ftsString(w)}*`;
  };
  return `{title html_text} : (${words.map(term).join(' AND ')})`;
}

/** Beyond this many longer words a word is searched as a prefix. */
const MAX_LONGER_WORDS = 24;

const vocabularies = new WeakSet<Db>();

/** Prefixes of up to this many characters have their own index (migration 055): one list to read. */
const PREFIX_INDEXED = 2;

/**
 * The words of the full-text index that begin with `word` and are longer, or undefined when it
 * is better searched as a prefix: a word short enough for the prefix index, a word of other
 * characters than ASCII letters and digits (the tokenizer folds and splits those in ways this does
 * not repeat), or one that begins too many. FTS5's vocabulary table counts the documents of each
 * word it lists, so only the longer words are listed, usually few or none.
 */
export function longerIndexedWords(db: Db, word: string): string[] | undefined {
  if (word.length <= PREFIX_INDEXED || !/^[A-Za-z0-9]+$/.test(word)) return undefined;
  if (!vocabularies.has(db)) {
    // A table of the connection's own, not of the database: nothing to migrate, back up or check.
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.item_fts_words USING fts5vocab(main, item_fts, 'row')");
    vocabularies.add(db);
  }
  const lower = word.toLowerCase();
  // Every longer word lies between these bounds, inclusive; the vocabulary seeks to the first
  // bound, so the word itself is never listed (its documents never counted), and it stops at the
  // last. With `> word` it counted the word's documents before leaving it out (262 µs against
  // 30 for "lighthouse" among a million items).
  const longer = stmt<[string, string, number], string>(db, 'SELECT term FROM temp.item_fts_words WHERE term >= ? AND term <= ? LIMIT ?')
    .pluck()
    .all(`${lower}\u0001`, `${lower}\u{10FFFF}`, MAX_LONGER_WORDS + 1);
  return longer.length > MAX_LONGER_WORDS ? undefined : longer;
}

/** ftsQuery for the hub's index, with each plain word spelled out as the indexed words it begins. */
export function searchMatch(db: Db, text: string): string | undefined {
  return ftsQuery(text, (w) => longerIndexedWords(db, w));
}
