import { get, postJson } from './http.ts';

/** What a kind of row in the hub's database is counted as. */
export type RowKind = 'posts' | 'comments' | 'likes' | 'otherItems' | 'search' | 'notifications' | 'photos' | 'files' | 'people' | 'messages' | 'federation' | 'other';

/** The hub's storage as Settings → Storage sees it (the owner's /settings/storage/state). */
export interface StorageReport {
  countedAt: string;
  database: { bytes: number; freeBytes: number; unusedBytes: number | null; pageSize: number; measured: boolean };
  /** Rows are null where they are not counted (the search index, settings and the rest). */
  kinds: { kind: RowKind; rows: number | null; bytes: number }[];
  store: { bytes: number; photos: { count: number; bytes: number }; files: { count: number; bytes: number } };
  remoteMedia: { files: number; bytes: number; estimated: boolean };
  channels: {
    id: number;
    nick: string;
    name: string;
    rows: Partial<Record<RowKind, number>>;
    dbBytes: number;
    seenNotifications: number;
    photos: { count: number; bytes: number };
    files: { count: number; bytes: number };
  }[];
  /** What compacting would free, and about how long the hub would answer nothing else. */
  vacuum: { freeBytes: number; unusedBytes: number | null; seconds: number };
}

const BASE = '/settings/storage/';

export function storageReport(): Promise<StorageReport> {
  return get<StorageReport>(`${BASE}state`);
}

/** Removes the seen notifications older than `days` days, on every channel. */
export function cleanOldNotifications(days: number): Promise<{ removed: number }> {
  return postJson(`${BASE}notifications`, { days });
}

/** Empties the cache of remote people's avatars. */
export function cleanRemoteMedia(): Promise<{ files: number; bytes: number }> {
  return postJson(`${BASE}remote-media`, {});
}

/** Compacts the database (VACUUM): the hub answers nothing else meanwhile. */
export function compactDatabase(): Promise<{ freedBytes: number; bytes: number; ms: number }> {
  return postJson(`${BASE}vacuum`, {});
}
