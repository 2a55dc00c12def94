import { isDeepStrictEqual } from 'node:util';
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import { stmt, type Db } from '../db/open.js';
import { writeTogether } from '../db/group-commit.js';

const keyText = (key: KvKey): string => JSON.stringify(key);

/**
 * Fedify's key-value store (caches of remote documents and keys, seen activity ids) in the hub's
 * database. Expired entries read as absent and are swept now and then.
 */
export class SqliteKvStore implements KvStore {
  private writes = 0;

  constructor(private readonly db: Db) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = stmt<[string], { v: string; expires: number | null }>(this.db, 'SELECT v, expires FROM fed_kv WHERE k = ?').get(keyText(key));
    if (!row || (row.expires !== null && row.expires <= Date.now())) return undefined;
    return JSON.parse(row.v) as T;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    // Committed with the other writes of this turn (each signed activity taken writes here).
    await writeTogether(this.db, () => this.write(key, value, options));
  }

  async delete(key: KvKey): Promise<void> {
    stmt(this.db, 'DELETE FROM fed_kv WHERE k = ?').run(keyText(key));
  }

  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    return this.db.transaction(() => {
      const current = stmt<[string], { v: string; expires: number | null }>(this.db, 'SELECT v, expires FROM fed_kv WHERE k = ?').get(keyText(key));
      const live = current && (current.expires === null || current.expires > Date.now()) ? (JSON.parse(current.v) as unknown) : undefined;
      // Equal as data: the order of an object's keys is no part of its value (Fedify reads a state
      // back with its keys in another order than it wrote them).
      if (!isDeepStrictEqual(live, jsonValue(expectedValue))) return false;
      if (newValue === undefined) stmt(this.db, 'DELETE FROM fed_kv WHERE k = ?').run(keyText(key));
      else this.write(key, newValue, options);
      return true;
    })();
  }

  async *list(prefix: KvKey = [] as unknown as KvKey): AsyncIterable<KvStoreListEntry> {
    const whole = keyText(prefix);
    // ["a","b"] is the prefix of ["a","b",…]: the text up to its closing bracket, then a comma.
    const start = prefix.length ? whole.slice(0, -1) + ',' : '[';
    const rows = stmt<[string, string, string, number], { k: string; v: string }>(
      this.db,
      'SELECT k, v FROM fed_kv WHERE (k = ? OR (k >= ? AND k < ?)) AND (expires IS NULL OR expires > ?) ORDER BY k',
    ).all(whole, start, start + '\uffff', Date.now());
    for (const row of rows) yield { key: JSON.parse(row.k) as KvKey, value: JSON.parse(row.v) as unknown };
  }

  private write(key: KvKey, value: unknown, options?: KvStoreSetOptions): void {
    const ttl = options?.ttl ? options.ttl.total({ unit: 'millisecond' }) : undefined;
    stmt(this.db, 'INSERT INTO fed_kv (k, v, expires) VALUES (?, ?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v, expires = excluded.expires').run(
      keyText(key),
      JSON.stringify(value),
      ttl === undefined ? null : Date.now() + ttl,
    );
    if (++this.writes % 1000 === 0) this.sweep();
  }

  /** Removes expired entries. */
  sweep(): void {
    stmt(this.db, 'DELETE FROM fed_kv WHERE expires IS NOT NULL AND expires <= ?').run(Date.now());
  }
}

/** A value as it reads back from the store (undefined members dropped, dates as text…). */
function jsonValue(v: unknown): unknown {
  return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown);
}
