import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing (images and fonts in the build are compressed formats already). */
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.ico', '.txt']);

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The compressed variants the hub serves by Accept-Encoding, named like the file plus this ending. */
export const VARIANTS = [
  { ending: '.br', compress: (data: Buffer) => brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }) },
  { ending: '.gz', compress: (data: Buffer) => gzipped(data, { level: constants.Z_BEST_COMPRESSION }) },
];

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/**
 * After `vite build`: writes file.br (brotli) and file.gz (gzip) next to every compressible file of
 * the build, once and at the highest levels, so the hub sends them without compressing per request.
 * A variant that would not be smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'hearth-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const work: Promise<void>[] = [];
      for await (const path of files(outDir)) {
        if (!COMPRESSIBLE.has(extname(path))) continue;
        const data = await readFile(path);
        for (const v of VARIANTS) {
          work.push(v.compress(data).then((packed) => (packed.length < data.length ? writeFile(path + v.ending, packed) : undefined)));
        }
      }
      await Promise.all(work);
    },
  };
}
