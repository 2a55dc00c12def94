/**
 * The native API sends integer-valued columns as JSON strings of digits (seed §2.1). Rows come
 * from better-sqlite3 with integers as numbers; these helpers convert them.
 */
export type Stringified<T> = { [K in keyof T]: T[K] extends number | bigint ? string : T[K] };

export function stringifyInts<T extends object>(row: T): Stringified<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'number' || typeof v === 'bigint' ? String(v) : v;
  return out as Stringified<T>;
}

/**
 * Picks the named columns of a row, in that order, as strings. A missing or NULL column (the
 * outer side of a LEFT JOIN) becomes the unset value: the null date for datetimes, else ''.
 */
export function pickAsStrings(row: Record<string, unknown> | undefined, fields: readonly string[], dateFields: ReadonlySet<string> = new Set()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = row?.[f];
    out[f] = v === undefined || v === null ? (dateFields.has(f) ? '0001-01-01 00:00:00' : '') : String(v);
  }
  return out;
}
