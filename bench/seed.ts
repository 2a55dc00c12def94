import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHub, type Hub } from '../server/hub.js';
import type { ChannelRow } from '../server/store/rows.js';
import { createChannel } from '../server/services/channels.js';
import { connect } from '../server/services/connections.js';
import { addGroupMember, insertGroup } from '../server/store/groups.js';
import { getXchan } from '../server/store/xchans.js';
import { randomHex64 } from '../server/util/ids.js';
import type { SeedSize } from './options.js';
import { Random } from './random.js';
import { seedItems, type ItemSeedResult, type SeedChannel } from './seed-items.js';
import { seedFiles, seedPhotos } from './seed-media.js';
import { SEARCH_HASHTAG, SEARCH_WORD } from './seed-text.js';

export const PASSWORD = 'bench password';
/** The base URL items are written with; the hub under test relocates channel URLs to its own port. */
export const SEED_BASE_URL = 'http://127.0.0.1:8420';
const NICKS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'oscar'];
/** The owner writes most; the last channel almost nothing (its export is the small one). */
const WEIGHTS = [30, 12, 10, 9, 8, 7, 6, 5, 4, 0.2];

export interface Manifest {
  version: 1;
  createdAt: string;
  size: SeedSize;
  owner: string;
  /** The channel with the fewest posts (export comparison). */
  smallChannel: string;
  password: string;
  channels: { nick: string; id: number; hash: string; xchanId: number }[];
  items: ItemSeedResult;
  photos: number;
  albums: string[];
  files: number;
  fileBytes: number;
  bigFile: { hash: string; size: number; filename: string };
  searchWord: string;
  searchHashtag: string;
  seconds: Record<string, number>;
  /** The huge set (seed-huge.ts): people elsewhere, the owner's connections and groups, files in the store. */
  huge?: {
    remoteActors: number; instances: number; connections: number; groups: number; storeFiles: number; databaseMB: number; storeMB: number;
    /** The owner's items in its export (item/export_page): its wall's, not those it received. */
    exportItems?: number;
  };
}

export const MANIFEST = 'bench-manifest.json';

export async function readManifest(dataDir: string): Promise<Manifest | undefined> {
  const file = join(dataDir, MANIFEST);
  if (!existsSync(file)) return undefined;
  return JSON.parse(await readFile(file, 'utf8')) as Manifest;
}

export type Timed = <T>(name: string, work: () => Promise<T> | T) => Promise<T>;

/** Runs named seeding steps, recording and logging how long each took. */
export function stepTimer(seconds: Record<string, number>, log: (msg: string) => void): Timed {
  return async (name, work) => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const r = await work();
    seconds[name] = Number(((performance.now() - t0) / 1000).toFixed(2));
    const cpu = process.cpuUsage(cpu0);
    log(`  seeded ${name} in ${seconds[name]} s (${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU)`);
    return r;
  };
}

export interface SeededChannels {
  rows: ChannelRow[];
  owner: ChannelRow;
  channels: SeedChannel[];
  /** The owner's privacy group "Friends" and its members. */
  group: { hash: string; members: Set<string> };
}

/** The owner and `count - 1` local channels connected to it, and the owner's group of four of them. */
export async function seedChannels(hub: Hub, count: number, timed: Timed): Promise<SeededChannels> {
  const site = { baseUrl: hub.baseUrl };
  const nicks = NICKS.slice(0, count);
  const rows = await timed('channels', async () => {
    const out = [];
    for (const [i, nick] of nicks.entries()) {
      const name = nick[0]!.toUpperCase() + nick.slice(1);
      out.push(await createChannel(hub.db, site, { nick, name: `${name} Example`, password: PASSWORD, email: i === 0 ? `${nick}@example.org` : undefined }));
    }
    return out;
  });
  const owner = rows[0]!;
  const group = { hash: randomHex64(), members: new Set<string>() };
  await timed('connections', () =>
    hub.db.transaction(() => {
      for (const other of rows.slice(1)) {
        connect(hub, owner, other.channel_hash);
        connect(hub, other, owner.channel_hash);
      }
      const gid = insertGroup(hub.db, owner.channel_id, group.hash, 'Friends', true);
      for (const other of rows.slice(1, 5)) {
        addGroupMember(hub.db, owner.channel_id, gid, other.channel_hash);
        group.members.add(other.channel_hash);
      }
    })(),
  );
  const channels: SeedChannel[] = rows.map((row, i) => {
    const x = getXchan(hub.db, row.channel_hash)!;
    return { row, url: x.xchan_url, photo: x.xchan_photo_s, weight: i === rows.length - 1 ? WEIGHTS[WEIGHTS.length - 1]! : WEIGHTS[i] ?? 5 };
  });
  return { rows, owner, channels, group };
}


/** What a seeded data set holds, as both seeders record it (the huge set adds its own part). */
export function manifestOf(
  hub: Hub,
  s: {
    size: SeedSize;
    owner: ChannelRow;
    rows: ChannelRow[];
    items: ItemSeedResult;
    photos: { photos: number; albums: string[] };
    files: { files: number; bytes: number; bigFile: Manifest['bigFile'] };
    seconds: Record<string, number>;
  },
): Manifest {
  return {
    version: 1,
    createdAt: new Date().toISOString(),
    size: s.size,
    owner: s.owner.channel_address,
    smallChannel: s.rows[s.rows.length - 1]!.channel_address,
    password: PASSWORD,
    channels: manifestChannels(hub, s.rows),
    items: s.items,
    photos: s.photos.photos,
    albums: s.photos.albums,
    files: s.files.files,
    fileBytes: s.files.bytes,
    bigFile: s.files.bigFile,
    searchWord: SEARCH_WORD,
    searchHashtag: SEARCH_HASHTAG,
    seconds: s.seconds,
  };
}

/** What a manifest says of the channels (ids and hashes, for the endpoints and the floor). */
export function manifestChannels(hub: Hub, rows: ChannelRow[]): Manifest['channels'] {
  return rows.map((r) => ({ nick: r.channel_address, id: r.channel_id, hash: r.channel_hash, xchanId: getXchan(hub.db, r.channel_hash)!.xchan_id }));
}

/**
 * Creates a fresh data directory: the owner and connected local channels, items over the years,
 * photos in albums and files with one big one, through the hub's own services and stores.
 */
export async function seed(dataDir: string, size: SeedSize, log: (msg: string) => void = () => {}): Promise<Manifest> {
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const seconds: Record<string, number> = {};
  const timed = stepTimer(seconds, log);
  const rnd = new Random(20261121);
  // No background integrity check while seeding: the seeders write store files straight to their
  // place, not through the store, so a check would take the newest for orphans and remove them.
  const hub = await createHub({ dataDir, host: '127.0.0.1', port: 0, baseUrl: SEED_BASE_URL, integrity: { delayMs: 2 ** 31 - 1 } });
  const tmpDir = join(dataDir, 'tmp', 'bench-seed');
  await mkdir(tmpDir, { recursive: true });
  try {
    const { rows, owner, channels, group } = await seedChannels(hub, size.channels, timed);
    const items = await timed('items', () => seedItems(hub, rnd, { items: size.items, years: size.years, channels, group }));
    const photos = await timed('photos', () => seedPhotos(hub, rnd, owner, size.photos, size.albums, tmpDir));
    const files = await timed('files', () => seedFiles(hub, rnd, owner, size.files, size.bigFileBytes, tmpDir));
    const manifest = manifestOf(hub, { size, owner, rows, items, photos, files, seconds });
    await writeFile(join(dataDir, MANIFEST), JSON.stringify(manifest, null, 2));
    return manifest;
  } finally {
    await hub.close();
    await rm(tmpDir, { recursive: true, force: true });
  }
}
