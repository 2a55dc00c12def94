/**
 * The floor of a read endpoint: what an answer costs at the least — reading the rows it shows (its
 * items with the columns it shows and their authors' and owners' xchans, read raw: arrays, no
 * objects per row) and JSON.stringify of an answer of the same size. Measured in the bench process,
 * in CPU time, on its own read-only connection to the hub's database, in the same run as the hub.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ownCpuMs } from './cpu.js';

export type FloorKeys = { ids: number[] } | { mids: string[] };

export interface FloorSpec {
  /** Item columns the answer shows (including owner_xchan and author_xchan). */
  columns: string;
  /** The answer's items as the database keys them. */
  keys(answer: unknown): FloorKeys;
  /** For answers in another format than JSON (XML): the path of the same answer in JSON. */
  jsonPath?: string;
}

export interface FloorMeasure {
  items: number;
  /** CPU ms to read the rows. */
  rowsMs: number;
  /** CPU ms of JSON.stringify of the (JSON) answer. */
  jsonMs: number;
  floorMs: number;
}

/** Columns of a Twitter/Friendica status. */
export const STATUS_COLUMNS = `id, parent, uid, mid, thr_parent, created, edited, title, html, app, coord, plink, llink,
  allow_cid, allow_gid, deny_cid, deny_gid, item_private, item_thread_top, verb, obj, attach, owner_xchan, author_xchan`;
/** Columns of an item in Hubzilla's portable form. */
export const PORTABLE_COLUMNS = `uuid, mid, parent_mid, thr_parent, created, edited, expires, commented, comments_closed, mimetype, title,
  summary, body, app, verb, obj_type, obj, tgt_type, target, attach, plink, location, coord, sig, route, public_policy, comment_policy,
  item_deleted, item_hidden, item_notshown, item_thread_top, item_nsfw, item_consensus, item_obscured, item_private, owner_xchan, author_xchan`;

const XCHAN_COLUMNS = `xchan_id, xchan_hash, xchan_guid, xchan_guid_sig, xchan_pubkey, xchan_photo_mimetype, xchan_photo_l, xchan_photo_m,
  xchan_photo_s, xchan_addr, xchan_url, xchan_connurl, xchan_name, xchan_network, xchan_name_date`;

/** Ids of an array of statuses (Twitter's numbers or Mastodon's strings), with the statuses they share. */
export function statusIds(answer: unknown): FloorKeys {
  const ids: number[] = [];
  for (const s of Array.isArray(answer) ? answer : []) {
    ids.push(Number(s.id));
    const shared = s.retweeted_status ?? s.reblog;
    if (shared) ids.push(Number(shared.id));
  }
  return { ids };
}

/** Message ids of portable items: an array of them, or an object's `item` array (export_page). */
export function portableMids(answer: unknown): FloorKeys {
  const list = Array.isArray(answer) ? answer : ((answer as { item?: unknown[] }).item ?? []);
  return { mids: list.map((i) => (i as { message_id: string }).message_id) };
}

/**
 * CPU ms per call of `work`: the least of five batches, each of at least `batchMs` of CPU time and 5
 * calls. A batch that met a garbage collection of the bench's own earlier work (the load generator's)
 * costs more; the floor is what the work itself costs.
 */
function perCall(work: () => void, batchMs = 40): number {
  work();
  let least = Infinity;
  for (let batch = 0; batch < 5; batch++) {
    let calls = 0;
    const t0 = ownCpuMs();
    let spent = 0;
    while (calls < 5 || spent < batchMs) {
      work();
      calls++;
      spent = ownCpuMs() - t0;
    }
    least = Math.min(least, spent / calls);
  }
  return least;
}

export class FloorMeter {
  private db: Database.Database;

  constructor(dataDir: string) {
    this.db = new Database(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  }

  measure(spec: FloorSpec, answer: unknown): FloorMeasure {
    const keys = spec.keys(answer);
    const byId = 'ids' in keys;
    const list = JSON.stringify(byId ? keys.ids : keys.mids);
    const items = this.db.prepare(`SELECT ${spec.columns} FROM item WHERE ${byId ? 'id' : 'mid'} IN (SELECT value FROM json_each(?))`).raw();
    const cols = items.columns().map((c) => c.name);
    const owner = cols.indexOf('owner_xchan');
    const author = cols.indexOf('author_xchan');
    const xchans = this.db.prepare(`SELECT ${XCHAN_COLUMNS} FROM xchan WHERE xchan_hash IN (SELECT value FROM json_each(?))`).raw();
    let count = 0;
    const rowsMs = perCall(() => {
      const rows = items.all(list) as unknown[][];
      const hashes = new Set<unknown>();
      for (const r of rows) hashes.add(r[owner]).add(r[author]);
      xchans.all(JSON.stringify([...hashes]));
      count = rows.length;
    });
    const jsonMs = perCall(() => JSON.stringify(answer));
    return { items: count, rowsMs, jsonMs, floorMs: rowsMs + jsonMs };
  }

  close(): void {
    this.db.close();
  }
}
