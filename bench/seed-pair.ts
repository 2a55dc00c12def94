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
  /** The full set as a plain run seeds it (seed.ts, made before federation), when wanted. */
  beforeFederation?: Seeded;
}

const isHuge = (size: SeedSize | HugeSize): size is HugeSize => 'remoteShare' in size;

/**
 * The data directories under `seeds`, seeded once and kept: a directory that holds a manifest of
 * the same size is reused as it is (unless `reseed`). A size with people elsewhere is seeded by
 * the huge set's generator, the others as a plain run seeds them.
 */
export async function ensureSeeds(
  seeds: string,
  sizes: { full: SeedSize | HugeSize; huge: HugeSize; beforeFederation?: SeedSize },
  reseed: boolean,
  log: (msg: string) => void,
): Promise<SeededPair> {
  const one = async (name: SizeName | 'before-federation'): Promise<Seeded> => {
    const dir = join(seeds, name);
    const size = name === 'before-federation' ? sizes.beforeFederation! : sizes[name];
    const existing = reseed ? undefined : await readManifest(dir);
    if (existing && JSON.stringify(existing.size) === JSON.stringify(size)) {
      log(`Reusing the ${name} data set in ${dir} (seeded ${existing.createdAt})`);
      return { dir, manifest: existing, seeded: false };
    }
    log(`Seeding the ${name} data set in ${dir} (${size.items} items, ${size.photos} photos, ${size.files + 1} files)…`);
    const manifest = isHuge(size) ? await seedHuge(dir, size, log) : await seed(dir, size, log);
    return { dir, manifest, seeded: true };
  };
  return { full: await one('full'), huge: await one('huge'), beforeFederation: sizes.beforeFederation ? await one('before-federation') : undefined };
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
