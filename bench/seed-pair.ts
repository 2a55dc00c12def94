import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HugeSize, SeedSize } from './options.js';
import { readManifest, seed, type Manifest } from './seed.js';
import { seedHuge } from './seed-huge.js';

export type SizeName = 'full' | 'huge';

interface Seeded {
  dir: string;
  manifest: Manifest;
  seeded: boolean;
}

export interface SeededPair {
  full: Seeded;
  huge: Seeded;
  /** The huge set's generator at a tenth (options.ts TENTH_OF_HUGE), when wanted. */
  tenth?: Seeded;
}

/**
 * The full and the huge data directories under `seeds`, seeded once and kept: a directory that
 * holds a manifest of the same size is reused as it is (unless `reseed`).
 */
export async function ensureSeeds(seeds: string, sizes: { full: SeedSize; huge: HugeSize; tenth?: HugeSize }, reseed: boolean, log: (msg: string) => void): Promise<SeededPair> {
  const one = async (name: SizeName | 'tenth'): Promise<Seeded> => {
    const dir = join(seeds, name);
    const size = name === 'tenth' ? sizes.tenth! : sizes[name];
    const existing = reseed ? undefined : await readManifest(dir);
    if (existing && JSON.stringify(existing.size) === JSON.stringify(size)) {
      log(`Reusing the ${name} data set in ${dir} (seeded ${existing.createdAt})`);
      return { dir, manifest: existing, seeded: false };
    }
    log(`Seeding the ${name} data set in ${dir} (${size.items} items, ${size.photos} photos, ${size.files + 1} files)…`);
    const manifest = name === 'full' ? await seed(dir, size, log) : await seedHuge(dir, size as HugeSize, log);
    return { dir, manifest, seeded: true };
  };
  return { full: await one('full'), huge: await one('huge'), tenth: sizes.tenth ? await one('tenth') : undefined };
}

/**
 * A fresh working copy of a seeded data directory, which the bench may write to: the database and
 * every other file copied, the attachment store's files hard-linked (the store never changes a file
 * it wrote, it writes new ones and unlinks old ones, so the seed's stay as they were).
 */
export function workingCopy(from: string, to: string): void {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.name === 'store' && entry.isDirectory()) execFileSync('cp', ['-al', src, dst]);
    else if (entry.isDirectory()) execFileSync('cp', ['-a', src, dst]);
    else copyFileSync(src, dst);
  }
  if (!existsSync(join(to, 'hearth.db'))) throw new Error(`no database in ${from}`);
}
