import { statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHub } from '../server/hub.js';
import type { HugeSize } from './options.js';
import { Random } from './random.js';
import { manifestOf, MANIFEST, SEED_BASE_URL, seedChannels, stepTimer, type Manifest } from './seed.js';
import { seedFiles } from './seed-media.js';
import { seedHugeFiles, seedHugePhotos } from './seed-huge-media.js';
import { seedHugeItems } from './seed-huge-items.js';
import { seedPeople } from './seed-huge-people.js';
import { listStoreKeys } from '../server/files/list-keys.js';
import { countExportPageItems } from '../server/store/item-streams.js';
import { NULL_DATE, nowDb } from '../server/util/time.js';

/**
 * Creates a fresh data directory with the huge data set: the full set's channels, and people on
 * other servers connected to the owner, years of posts, comments, likes and shares of both,
 * notifications, photos and files. The database is the hub's own (createHub opens it through
 * db/open.ts, so every migration applies); channels, their connections, a template photo and the
 * big file go through the hub's services, everything else in bulk: prepared statements in large
 * transactions, files written straight into the attachment store. The time of each step is in the
 * manifest (`seconds`).
 */
export async function seedHuge(dataDir: string, size: HugeSize, log: (msg: string) => void = () => {}): Promise<Manifest> {
  const t0 = performance.now();
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const seconds: Record<string, number> = {};
  const timed = stepTimer(seconds, log);
  const rnd = new Random(20261128);
  // No background integrity check while seeding: the seeders write store files straight to their
  // place, not through the store, so a check would take the newest for orphans and remove them.
  const hub = await createHub({ dataDir, host: '127.0.0.1', port: 0, baseUrl: SEED_BASE_URL, integrity: { delayMs: 2 ** 31 - 1 } });
  const tmpDir = join(dataDir, 'tmp', 'bench-seed');
  await mkdir(tmpDir, { recursive: true });
  try {
    // Only while seeding: the indexes of a million items stay in memory (1 GiB of page cache), and
    // commits are not flushed to the disk (a crash while seeding means seeding again).
    hub.db.pragma('cache_size = -1048576');
    hub.db.pragma('synchronous = OFF');
    const { rows, owner, channels, group } = await seedChannels(hub, size.channels, timed);
    const people = await timed('people', () =>
      seedPeople(hub.db, rnd, { baseUrl: hub.baseUrl, channels, count: size.connections - (size.channels - 1), instances: size.instances, groups: size.groups, years: size.years }),
    );
    const items = await timed('items', () =>
      seedHugeItems(hub.db, rnd, { items: size.items, years: size.years, remoteShare: size.remoteShare, notifications: size.notifications, channels, group, remote: people.remote, baseUrl: hub.baseUrl, hostname: hub.hostname }),
    );
    const photos = await timed('photos', () => seedHugePhotos(hub, rnd, owner, size.photos, size.albums, size.years, tmpDir));
    const files = await timed('files', async () => {
      const small = seedHugeFiles(hub, rnd, owner, size.files, size.years);
      const big = await seedFiles(hub, rnd, owner, 0, size.bigFileBytes, tmpDir);
      return { files: small.files + big.files, bytes: small.bytes + big.bytes, bigFile: big.bigFile };
    });
    await timed('checkpoint', () => hub.db.pragma('wal_checkpoint(TRUNCATE)'));
    const storeFiles = (await listStoreKeys(hub.files.root)).length;
    seconds.total = Number(((performance.now() - t0) / 1000).toFixed(2));
    const manifest: Manifest = {
      ...manifestOf(hub, { size, owner, rows, items, photos, files, seconds }),
      huge: {
        remoteActors: people.remote.length, instances: size.instances, connections: people.connections + size.channels - 1, groups: people.groups,
        storeFiles, exportItems: countExportPageItems(hub.db, owner.channel_id, NULL_DATE, nowDb()), databaseMB: Math.round(statSync(join(dataDir, 'hearth.db')).size / 1e6), storeMB: Math.round((files.bytes + photos.bytes) / 1e6),
      },
    };
    await writeFile(join(dataDir, MANIFEST), JSON.stringify(manifest, null, 2));
    log(`  seeded the set in ${seconds.total} s: ${manifest.huge!.databaseMB} MB of database, ${storeFiles} files in the store`);
    return manifest;
  } finally {
    await hub.close();
    await rm(tmpDir, { recursive: true, force: true });
  }
}
