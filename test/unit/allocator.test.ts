import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const glibc = Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);
const allocator = fileURLToPath(new URL('../../server/util/allocator.ts', import.meta.url));

test('trimMalloc gives memory freed inside the heap back to the system', { skip: !glibc && 'not glibc' }, () => {
  // 100 MB in 100 kB blocks, each followed by a small block that stays, so that the freed blocks
  // are holes glibc keeps rather than a top it would release by itself.
  const script = `import { readFileSync } from 'node:fs';
import { trimMalloc } from ${JSON.stringify(allocator)};
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
let big = [];
const small = [];
for (let i = 0; i < 1000; i++) { big.push(Buffer.alloc(100000)); small.push(Buffer.allocUnsafeSlow(512)); }
big = [];
gc();
await new Promise((resolve) => setTimeout(resolve, 20));
gc();
const before = rss();
const released = trimMalloc();
console.log(JSON.stringify({ before, after: rss(), released, kept: small.length }));`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 0, run.stderr);
  const r = JSON.parse(run.stdout) as { before: number; after: number; released: boolean };
  assert.equal(r.released, true);
  assert.ok(r.before - r.after > 40, `resident ${r.before.toFixed(0)} MB → ${r.after.toFixed(0)} MB`);
});
