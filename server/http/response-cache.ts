import type { Db } from '../db/open.js';

interface Entry {
  generation: string;
  expires: number;
  type: string;
  body: Buffer;
}

type Lookup = { hit: Entry } | { hit: undefined; admit: boolean };

/** How long an answer may be reused at most: some hold relative times ("5 minutes ago") or hide items as they expire. */
const MAX_AGE_MS = 2000;
const MAX_BYTES = 16 * 1024 * 1024;
/** Most keys remembered as asked for (see lookup). */
const MAX_ASKED = 10_000;

/**
 * Answers of read routes kept in memory while the database stays the same. Clients poll the same
 * timelines over and over, and building one (queries, objects, serialisation) costs ten times
 * sending it. Any write, through this hub or another connection, changes the generation and so
 * retires every entry; least recently used entries go first when the byte budget is full.
 *
 * An answer is only kept when its URL was asked for before within MAX_AGE_MS: one-off URLs (each
 * with its own since_id, page or search) otherwise filled the budget with copies nobody reused,
 * and those copies stayed in memory until the garbage collector came. Ten clients building
 * different answers peaked 20-50 MB higher.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly asked = new Map<string, number>();
  private bytes = 0;

  /** The stored answer if it is still valid; otherwise whether an answer built now should be stored. */
  lookup(key: string, generation: string): Lookup {
    const now = Date.now();
    const previous = this.asked.get(key);
    this.noteAsked(key, now);
    const e = this.entries.get(key);
    if (e) {
      this.drop(key, e);
      if (e.generation === generation && e.expires >= now) {
        this.entries.set(key, e);
        this.bytes += e.body.length;
        return { hit: e };
      }
    }
    return { hit: undefined, admit: previous !== undefined && now - previous <= MAX_AGE_MS };
  }

  set(key: string, generation: string, type: string, body: Buffer): void {
    if (body.length > MAX_BYTES / 8) return;
    const now = Date.now();
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    for (const [k, e] of this.entries) {
      if (e.expires >= now && this.bytes + body.length <= MAX_BYTES) break;
      this.drop(k, e);
    }
    this.entries.set(key, { generation, expires: now + MAX_AGE_MS, type, body });
    this.bytes += body.length;
  }

  /** Bytes of answers held (for tests). */
  get size(): number {
    return this.bytes;
  }

  private noteAsked(key: string, now: number): void {
    this.asked.delete(key);
    this.asked.set(key, now);
    for (const [k, at] of this.asked) {
      if (now - at <= MAX_AGE_MS && this.asked.size <= MAX_ASKED) break;
      this.asked.delete(k);
    }
  }

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
  }
}

const caches = new WeakMap<Db, ResponseCache>();

export function responseCache(db: Db): ResponseCache {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new ResponseCache()));
  return c;
}
