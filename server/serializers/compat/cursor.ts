/** Twitter's cursor envelope around one page of contact ids or users (§2.14 of the notes). */
export interface CursorPage<T> {
  items: T[];
  /** Sort key of each returned item (the user id), in page order (descending). */
  keys: number[];
  /** The cursor the client sent (-1 for the first page). */
  cursor: number;
  /** Whether rows follow this page. */
  hasMore: boolean;
  total: number;
  /**
   * Twitter's rule for an empty page: next_cursor 0 (no more), where Friendica answers -1 to a
   * first page without results. Clients page until next_cursor is 0.
   */
  twitter?: boolean;
}

export function cursorEnvelope<K extends 'ids' | 'users', T>(key: K, p: CursorPage<T>): Record<K, T[]> & {
  next_cursor: number; next_cursor_str: string; previous_cursor: number; previous_cursor_str: string; total_count: number;
} {
  let next = 0;
  let previous = 0;
  if (p.keys.length) {
    previous = -p.keys[0]!;
    next = p.keys[p.keys.length - 1]!;
  }
  if (!p.hasMore) next = 0;
  if (p.cursor < 0 && p.keys.length === 0 && !p.twitter) next = -1;
  if (p.cursor === -1) previous = 0;
  if (p.cursor > 0 && p.keys.length === 0) previous = -p.cursor;
  return {
    [key]: p.items,
    next_cursor: next,
    next_cursor_str: String(next),
    previous_cursor: previous,
    previous_cursor_str: String(previous),
    total_count: p.total,
  } as Record<K, T[]> & { next_cursor: number; next_cursor_str: string; previous_cursor: number; previous_cursor_str: string; total_count: number };
}
