import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sqliteBinding } from '../db/native-binding.js';
import { stmt, type Db } from '../db/open.js';

/** What a kind of row is counted as (Settings → Storage). */
export type RowKind = 'posts' | 'comments' | 'likes' | 'otherItems' | 'search' | 'notifications' | 'photos' | 'files' | 'people' | 'messages' | 'federation' | 'other';

export interface ChannelFigures {
  id: number;
  nick: string;
  name: string;
  rows: Partial<Record<RowKind, number>>;
  /** About this channel's share of the database: its rows' share of each kind's bytes. */
  dbBytes: number;
  seenNotifications: number;
  photos: { count: number; bytes: number };
  files: { count: number; bytes: number };
}

export interface StorageFigures {
  database: {
    /** page_count × page_size: the database file once its WAL is copied back. */
    bytes: number;
    /** Free pages (freelist_count × page_size): what VACUUM would give back. */
    freeBytes: number;
    pageSize: number;
    /** Room left unused inside the pages in use (dbstat; null without it): VACUUM packs part of it. */
    unusedBytes: number | null;
    /** Whether the bytes per kind were measured (SQLite's dbstat) or estimated from row counts. */
    measured: boolean;
  };
  /** Bytes and rows of each kind of row in the database; bytes include the kind's indexes. Rows are null where not counted. */
  kinds: { kind: RowKind; rows: number | null; bytes: number }[];
  /** The attachment store, as the database records it (each stored file once). */
  store: { bytes: number; photos: { count: number; bytes: number }; files: { count: number; bytes: number } };
  /** Remote actors' avatars kept in cache/avatars: counted up to a cap, then estimated. */
  remoteMedia: { files: number; bytes: number; estimated: boolean };
  channels: ChannelFigures[];
}

/** Files of the avatar cache looked at one by one; past that their sizes are estimated from these. */
export const AVATAR_FILES_STATTED = 3000;

// Plain CommonJS evaluated as a worker, so that it runs the same under tsx and compiled. It reads
// through a read-only connection of its own (in WAL mode it never waits for the hub's writes, nor
// they for it): dbstat reads every page of the database and the counts scan whole tables, seconds
// for years of posts, and none of that may hold up the hub's answers.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true, nativeBinding: workerData.nativeBinding });
db.pragma('busy_timeout = 5000');

const TABLE_KINDS = {
  item: 'items', iconfig: 'items', term: 'items', item_star: 'items', status_edit: 'items', status_idempotency: 'items',
  media_meta: 'items', author_status_count: 'items', audience_generation: 'items', item_export_month: 'items', hashtag_use: 'items',
  notify: 'notifications', photo: 'photos', photo_album: 'photos', deleted_photo: 'photos', attach: 'files',
  xchan: 'people', abook: 'people', abconfig: 'people', pgrp: 'people', pgrp_member: 'people', fed_actor: 'people', fed_follow: 'people', channel_follow_count: 'people',
  mail: 'messages', conv: 'messages', fed_kv: 'federation', fed_queue: 'federation',
};
const kindOfTable = (t) => TABLE_KINDS[t] || (t.startsWith('item_fts') || t.startsWith('xchan_fts') ? 'search' : 'other');
const ITEM_KIND = \`CASE WHEN verb IN ('http://activitystrea.ms/schema/1.0/like', 'http://purl.org/zot/activity/dislike',
    'http://purl.org/zot/activity/attendyes', 'http://purl.org/zot/activity/attendno', 'http://purl.org/zot/activity/attendmaybe', 'Like', 'Dislike') THEN 'likes'
  WHEN verb IN ('http://activitystrea.ms/schema/1.0/post', 'http://activitystrea.ms/schema/1.0/share', 'Create', 'Announce', '')
    THEN CASE WHEN item_thread_top = 1 THEN 'posts' ELSE 'comments' END
  ELSE 'otherItems' END\`;

try {
  const pageSize = db.pragma('page_size', { simple: true });
  const pageCount = db.pragma('page_count', { simple: true });
  const freePages = db.pragma('freelist_count', { simple: true });

  // Bytes per table with its indexes: measured by dbstat when this SQLite has it.
  const owner = new Map(db.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')").all().map((r) => [r.name, r.tbl_name]));
  let tableBytes = new Map();
  let measured = true;
  let unusedBytes = 0;
  try {
    for (const r of db.prepare('SELECT name, sum(pgsize) AS bytes, sum(unused) AS unused FROM dbstat WHERE aggregate = 1 GROUP BY name').all()) {
      unusedBytes += r.unused;
      const table = owner.get(r.name) || r.name;
      tableBytes.set(table, (tableBytes.get(table) || 0) + r.bytes);
    }
  } catch {
    measured = false;
    unusedBytes = null;
    tableBytes = new Map();
  }

  const channels = db.prepare('SELECT channel_id AS id, channel_address AS nick, channel_name AS name FROM channel WHERE channel_removed = 0 ORDER BY channel_id').all()
    .map((c) => ({ ...c, rows: {}, dbBytes: 0, seenNotifications: 0, photos: { count: 0, bytes: 0 }, files: { count: 0, bytes: 0 } }));
  const byId = new Map(channels.map((c) => [c.id, c]));
  // The kinds whose rows are counted; the others' bytes only are known.
  const rowsOf = { posts: 0, comments: 0, likes: 0, otherItems: 0, notifications: 0, photos: 0, files: 0, people: 0, messages: 0 };
  const channelRows = (uid, kind, n) => {
    rowsOf[kind] = (rowsOf[kind] || 0) + n;
    const c = byId.get(uid);
    if (c) c.rows[kind] = (c.rows[kind] || 0) + n;
  };
  for (const r of db.prepare('SELECT uid, ' + ITEM_KIND + ' AS kind, count(*) AS n FROM item GROUP BY uid, kind').all()) channelRows(r.uid, r.kind, r.n);
  for (const r of db.prepare('SELECT uid, seen, count(*) AS n FROM notify GROUP BY uid, seen').all()) {
    channelRows(r.uid, 'notifications', r.n);
    const c = byId.get(r.uid);
    if (c && r.seen) c.seenNotifications += r.n;
  }
  for (const r of db.prepare('SELECT uid, count(*) AS n FROM photo GROUP BY uid').all()) channelRows(r.uid, 'photos', r.n);
  for (const r of db.prepare('SELECT uid, count(*) AS n FROM attach GROUP BY uid').all()) channelRows(r.uid, 'files', r.n);
  for (const r of db.prepare('SELECT channel_id AS uid, count(*) AS n FROM mail GROUP BY channel_id').all()) channelRows(r.uid, 'messages', r.n);
  for (const r of db.prepare('SELECT abook_channel AS uid, count(*) AS n FROM abook GROUP BY abook_channel').all()) channelRows(r.uid, 'people', r.n);

  // Each kind's bytes: its tables' measured bytes; items' split among posts, comments and likes by
  // their rows. Without dbstat, the database's pages are shared out by rows.
  const kindBytes = {};
  const itemRows = (rowsOf.posts || 0) + (rowsOf.comments || 0) + (rowsOf.likes || 0) + (rowsOf.otherItems || 0);
  const tableRows = {};
  for (const t of owner.values()) if (!(t in tableRows)) tableRows[t] = 0;
  if (measured) {
    for (const [table, bytes] of tableBytes) {
      const kind = kindOfTable(table);
      if (kind === 'items') {
        for (const k of ['posts', 'comments', 'likes', 'otherItems']) kindBytes[k] = (kindBytes[k] || 0) + (itemRows ? Math.round(bytes * (rowsOf[k] || 0) / itemRows) : 0);
      } else kindBytes[kind] = (kindBytes[kind] || 0) + bytes;
    }
  } else {
    const counted = Object.values(rowsOf).reduce((a, b) => a + b, 0);
    for (const [kind, n] of Object.entries(rowsOf)) kindBytes[kind] = counted ? Math.round(pageCount * pageSize * n / counted) : 0;
  }
  const KINDS = ['posts', 'comments', 'likes', 'otherItems', 'search', 'notifications', 'photos', 'files', 'people', 'messages', 'federation', 'other'];
  const kinds = KINDS.map((kind) => ({ kind, rows: kind in rowsOf ? rowsOf[kind] : null, bytes: kindBytes[kind] || 0 })).filter((k) => k.rows || k.bytes);
  for (const c of channels) {
    let bytes = 0;
    for (const [kind, n] of Object.entries(c.rows)) if (rowsOf[kind]) bytes += (kindBytes[kind] || 0) * n / rowsOf[kind];
    c.dbBytes = Math.round(bytes);
  }

  // The store as the database records it; a photo's original is also its attach row, and the
  // store keeps identical files once, so each stored file counts once per channel and overall.
  const STORED = \`
    SELECT uid, 'photos' AS kind, content, max(filesize) AS size FROM (
      SELECT uid, content, filesize FROM photo WHERE os_storage = 1 AND content != ''
      UNION ALL SELECT uid, content, filesize FROM attach WHERE is_photo = 1 AND is_dir = 0 AND content != '')
    GROUP BY uid, content
    UNION ALL
    SELECT uid, 'files', content, max(filesize) FROM attach WHERE is_photo = 0 AND is_dir = 0 AND content != '' GROUP BY uid, content\`;
  for (const r of db.prepare('SELECT uid, kind, sum(size) AS bytes FROM (' + STORED + ') GROUP BY uid, kind').all()) {
    const c = byId.get(r.uid);
    if (c) c[r.kind].bytes = r.bytes;
  }
  for (const r of db.prepare("SELECT uid, count(DISTINCT resource_id) AS n FROM photo WHERE photo_usage = 0 GROUP BY uid").all()) {
    const c = byId.get(r.uid);
    if (c) c.photos.count = r.n;
  }
  for (const r of db.prepare('SELECT uid, count(*) AS n FROM attach WHERE is_photo = 0 AND is_dir = 0 GROUP BY uid').all()) {
    const c = byId.get(r.uid);
    if (c) c.files.count = r.n;
  }
  const whole = db.prepare('SELECT kind, sum(size) AS bytes FROM (SELECT kind, content, max(size) AS size FROM (' + STORED + ') GROUP BY kind, content) GROUP BY kind').all();
  const storeBytes = db.prepare('SELECT sum(size) AS bytes FROM (SELECT content, max(size) AS size FROM (' + STORED + ') GROUP BY content)').get().bytes || 0;
  const wholeOf = (kind) => (whole.find((r) => r.kind === kind) || { bytes: 0 }).bytes || 0;
  const store = {
    bytes: storeBytes,
    photos: { count: channels.reduce((a, c) => a + c.photos.count, 0), bytes: wholeOf('photos') },
    files: { count: channels.reduce((a, c) => a + c.files.count, 0), bytes: wholeOf('files') },
  };

  // The avatar cache is not in the database: its files, the first few thousand statted.
  let names = [];
  try {
    names = readdirSync(workerData.avatarDir);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  let statted = 0;
  let bytes = 0;
  for (const name of names.slice(0, workerData.avatarFilesStatted)) {
    try {
      bytes += statSync(join(workerData.avatarDir, name)).size;
      statted++;
    } catch {}
  }
  const estimated = names.length > statted;
  const remoteMedia = { files: names.length, bytes: estimated && statted ? Math.round(bytes / statted * names.length) : bytes, estimated };

  parentPort.postMessage({ ok: true, figures: { database: { bytes: pageCount * pageSize, freeBytes: freePages * pageSize, unusedBytes, pageSize, measured }, kinds, store, remoteMedia, channels } });
} catch (err) {
  parentPort.postMessage({ ok: false, error: String((err && err.message) || err) });
} finally {
  db.close();
}
`;

/**
 * Counts what the database and the store hold, in a worker thread on a read-only connection of its
 * own: the hub answers meanwhile. The store's sizes are those its rows record (the store itself is
 * not listed); the avatar cache, which no row records, is listed and its first files statted.
 */
export function countStorage(dbFile: string, avatarDir: string): Promise<StorageFigures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { file: dbFile, avatarDir, avatarFilesStatted: AVATAR_FILES_STATTED, driver: createRequire(import.meta.url).resolve('better-sqlite3'), nativeBinding: sqliteBinding() },
    });
    // A count under way does not hold the process open once the hub has closed.
    worker.unref();
    let answered = false;
    worker.once('message', (m: { ok: true; figures: StorageFigures } | { ok: false; error: string }) => {
      answered = true;
      if (m.ok) resolve(m.figures);
      else reject(new Error(m.error));
    });
    worker.once('error', (err) => {
      answered = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the storage count stopped (exit code ${code})`));
    });
  });
}

/** Removes the notifications seen and created before `before` (a database date); how many went. */
export function deleteSeenNotificationsBefore(db: Db, before: string): number {
  return stmt<[string]>(db, 'DELETE FROM notify WHERE seen = 1 AND created < ?').run(before).changes;
}

/** The free pages and page size: what VACUUM would give back. */
export function freeSpace(db: Db): { freeBytes: number; bytes: number } {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return { freeBytes: (db.pragma('freelist_count', { simple: true }) as number) * pageSize, bytes: (db.pragma('page_count', { simple: true }) as number) * pageSize };
}

/** Rebuilds the database file without its free pages. Holds the connection, and so the hub, until done. */
export function vacuumDatabase(db: Db): void {
  db.exec('VACUUM');
}

/**
 * Copies the whole WAL back and truncates it (VACUUM writes the whole database through it, and the
 * WAL file keeps its size otherwise). False when a reader or another checkpoint was in the way.
 */
export function truncateWal(db: Db): boolean {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  return result?.busy === 0;
}
