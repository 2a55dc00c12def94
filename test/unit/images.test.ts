import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectImage, renderScale } from '../../server/services/images.js';
import { HttpError } from '../../server/http/errors.js';
import { tinyPng } from '../helpers/hostile.js';

/** Runs with a small PNG written to a temporary directory, which is removed afterwards. */
async function withPng(run: (dir: string, source: string, info: Awaited<ReturnType<typeof inspectImage>>) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-images-'));
  try {
    const source = join(dir, 'in.png');
    await writeFile(source, tinyPng());
    await run(dir, source, await inspectImage(source));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a scale is written to the given file, with its size and dimensions', () =>
  withPng(async (dir, source, info) => {
    const dest = join(dir, 'out');
    const r = await renderScale(source, info, 0, dest);
    assert.equal(r.size, (await stat(dest)).size);
    assert.deepEqual([r.width, r.height, r.mimetype], [info.width, info.height, 'image/png']);
  }));

test('a scale that cannot be written is a file-system error (a storage failure), not a bad image', () =>
  withPng(async (dir, source, info) => {
    const cases: [string, string][] = [
      [join(dir, 'missing', 'out'), 'ENOENT'],
      ['/dev/full', 'ENOSPC'],
    ];
    for (const [dest, code] of cases) {
      const err = await renderScale(source, info, 1, dest).then(() => undefined, (e: unknown) => e);
      assert.ok(!(err instanceof HttpError), `${dest}: ${String(err)}`);
      assert.equal((err as NodeJS.ErrnoException).code, code, String(err));
    }
  }));
