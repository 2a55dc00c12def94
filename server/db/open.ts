import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite } from './native-binding.js';

export type Db = Database.Database;

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The ordered migrations shipped with Hearth: files named NNN_name.sql. */
export function listMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .map((f) => ({ version: Number.parseInt(f, 10), name: f, sql: readFileSync(join(dir, f), 'utf8') }))
    .sort((a, b) => a.version - b.version)
    .map((m, i, all) => {
      if (i > 0 && all[i - 1]!.version === m.version) throw new Error(`two migrations share version ${m.version}: ${all[i - 1]!.name}, ${m.name}`);
      return m;
    });
}

/** Schema version recorded in the database (SQLite's user_version). */
export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies every migration newer than the database's schema version, each inside its own
 * transaction together with the version bump, so a failed migration leaves the previous version.
 */
export function migrate(db: Db, migrations: Migration[] = listMigrations()): number[] {
  const applied: number[] = [];
  for (const m of migrations) {
    if (m.version <= schemaVersion(db)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}

export function openDatabase(file: string, options: { readonly?: boolean } = {}): Db {
  const db = openSqlite(file, { readonly: options.readonly ?? false });
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL is still atomic and consistent, and survives the process being killed; only
  // a power cut or OS crash can lose the last commits. FULL fsyncs every commit, which held each
  // write request for milliseconds with the whole event loop stopped. Files in the attachment store
  // are still fsynced before their rows commit, and the startup check removes any orphans.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (!options.readonly) {
    // Each write runs in a savepoint (group-commit.ts), which keeps the original of every page it
    // changes in a statement journal. SQLite moves that journal to a temporary file once it passes
    // 64 KiB, which one post with its indexes does; kept in memory, a post's system time fell from
    // 240 to 100 µs. (Sorts and temporary tables stay in memory too; the hub's queries read in
    // index order.)
    db.pragma('temp_store = MEMORY');
    beginTransactionsImmediately(db);
    migrate(db);
  }
  return db;
}

/**
 * Makes db.transaction() take the write lock when it begins (BEGIN IMMEDIATE). A deferred
 * transaction that reads and then writes cannot wait for another process's writer (the CLI, a
 * second hub): SQLite answers SQLITE_BUSY at once instead of honouring busy_timeout, because its
 * snapshot is already stale. Nested calls still become savepoints.
 */
function beginTransactionsImmediately(db: Db): void {
  const deferred = db.transaction.bind(db);
  db.transaction = ((fn: (...args: never[]) => unknown) => {
    const tx = deferred(fn);
    return Object.assign((...args: never[]) => tx.immediate(...args), {
      default: tx.immediate,
      deferred: tx.deferred,
      immediate: tx.immediate,
      exclusive: tx.exclusive,
    });
  }) as Db['transaction'];
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement for this database, prepared once and reused.
 *
 * Write a bound LIMIT as `LIMIT @limit + 0`: SQLite's planner reads the value of a bare bound
 * LIMIT, and a statement whose plan read a bound value is prepared again each time it is bound,
 * which cost a timeline's walk 40–50 µs a run (four times the walk). As an expression the value is
 * read only when the statement runs.
 */
export function stmt<P extends unknown[] | {} = unknown[], R = unknown>(db: Db, sql: string): Database.Statement<P, R> {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s as unknown as Database.Statement<P, R>;
}

interface WideStatement {
  statement: Database.Statement;
  build: (values: unknown[]) => unknown;
}

const wideCache = new WeakMap<Db, Map<string, WideStatement>>();

/**
 * All rows of a query over a wide table (item has some seventy columns), as objects. The driver
 * builds such objects property by property, which cost more than running the query; here rows
 * arrive as arrays and one generated object literal per statement turns them into objects.
 */
export function allWide<R>(db: Db, sql: string, params: unknown[] | object): R[] {
  let cache = wideCache.get(db);
  if (!cache) wideCache.set(db, (cache = new Map()));
  let wide = cache.get(sql);
  if (!wide) {
    const statement = db.prepare(sql).raw(true);
    const fields = statement.columns().map((c, i) => `${JSON.stringify(c.name)}: v[${i}]`);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    cache.set(sql, (wide = { statement, build: new Function('v', `return { ${fields.join(', ')} };`) as WideStatement['build'] }));
  }
  const rows = (Array.isArray(params) ? wide.statement.all(...params) : wide.statement.all(params)) as unknown[][];
  return rows.map(wide.build) as R[];
}
