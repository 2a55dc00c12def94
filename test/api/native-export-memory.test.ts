import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startHub } from '../helpers/hub.js';
import { seedPosts } from '../helpers/native.js';

const child = fileURLToPath(new URL('../helpers/export-memory-child.ts', import.meta.url));
const MB = 1024 * 1024;

interface Measure {
  items: number;
  bytes: number;
  baseline: { heap: number; rss: number };
  peak: { heap: number; rss: number };
}

/**
 * Seeds a data directory with `posts` posts of alice (and 1,000 of a warm-up channel, exported
 * first so that both runs start from the same state), then measures a streamed export of alice's
 * posts in a child process.
 */
async function measureExport(posts: number): Promise<Measure> {
  const t = await startHub({ channels: ['alice', 'warm'] });
  try {
    seedPosts(t.hub, t.channels.alice!, posts);
    seedPosts(t.hub, t.channels.warm!, 1000);
    await t.hub.close();
    // A small young generation keeps short-lived garbage from showing up as resident memory.
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--max-semi-space-size=1', '--import', 'tsx', child, t.dataDir, 'alice', 'warm'], { maxBuffer: MB });
    return JSON.parse(stdout.trim().split('\n').pop()!) as Measure;
  } finally {
    await rm(t.dataDir, { recursive: true, force: true });
  }
}

test('channel/export/basic?posts=true streams 10,000 posts in about the memory it needs for 1,000', async () => {
  const small = await measureExport(1000);
  const large = await measureExport(10_000);
  assert.equal(small.items, 1000);
  assert.equal(large.items, 10_000);
  assert.ok(large.bytes > 9 * small.bytes, 'the large export really is ten times the size');
  const heap = (m: Measure) => m.peak.heap - m.baseline.heap;
  const rss = (m: Measure) => m.peak.rss - m.baseline.rss;
  const report = `live heap growth ${(heap(small) / MB).toFixed(1)} → ${(heap(large) / MB).toFixed(1)} MB, peak rss growth ${(rss(small) / MB).toFixed(1)} → ${(rss(large) / MB).toFixed(1)} MB, export ${(large.bytes / MB).toFixed(1)} MB`;
  // Holding the export (about 35 MB of JSON for 10,000 posts) would show in both measures.
  assert.ok(heap(large) - heap(small) < 4 * MB, `live memory grew with the number of posts: ${report}`);
  assert.ok(rss(large) - rss(small) < 4 * MB, `peak resident memory grew with the number of posts: ${report}`);
});
