import type { Db } from '../db/open.js';

interface Entry {
  generation: string;
  expires: number;
  type: string;
  body: Buffer;
}

/** How long an answer may be reused at most: some hold relative times ("5 minutes ago") or hide items as they expire. */
const MAX_AGE_MS = 2000;
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * Answers of read routes kept in memory while the database stays the same. Clients poll the same
 * timelines over and over, and building one (queries, objects, serialisation) costs ten times
 * sending it. Any write, through this hub or another connection, changes the generation and so
 * retires every entry; least recently used entries go first when the byte budget is full.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  get(key: string, generation: string): Entry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.drop(key, e);
    if (e.generation !== generation || e.expires < Date.now()) return undefined;
    this.entries.set(key, e);
    this.bytes += e.body.length;
    return e;
  }

  set(key: string, generation: string, type: string, body: Buffer): void {
    if (body.length > MAX_BYTES / 8) return;
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    for (const [k, e] of this.entries) {
      if (this.bytes + body.length <= MAX_BYTES) break;
      this.drop(k, e);
    }
    this.entries.set(key, { generation, expires: Date.now() + MAX_AGE_MS, type, body });
    this.bytes += body.length;
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
