import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResults } from '../../bench/report.js';

const RUN = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));

// Proves the harness end to end in its tiniest mode; figures are not checked (speed is measured, not asserted).
test('npm run bench -- --tiny seeds, loads every endpoint and writes its results', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-test-'));
  try {
    const out = join(dir, 'results.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', RUN, '--tiny', '--data', join(dir, 'data'), '--out', out], { encoding: 'utf8', timeout: 300_000 });
    assert.equal(run.status, 0, run.stderr);
    const r = JSON.parse(readFileSync(out, 'utf8')) as BenchResults;
    const names = r.endpoints.map((e) => e.name);
    for (const name of ['home_timeline.json', 'home_timeline.xml', 'api/v1/timelines/home', 'user_timeline', 'search', 'network/stream', 'files', 'ext/notifications', 'item/update', 'statuses/update', 'ext/photo/create', 'filedata']) {
      assert.ok(names.includes(name), `${name} was loaded`);
    }
    for (const name of ['home_timeline.json 200', 'channel/stream', 'channel/stream all', 'network/stream 100', 'item/export_page', 'files 100', 'search 1 letter']) assert.ok(names.includes(name), `${name} was loaded`);
    for (const e of r.endpoints) {
      assert.equal(e.skipped, undefined, `${e.name} answered`);
      assert.ok(e.probe.status >= 200 && e.probe.status < 300, `${e.name} probe answered ${e.probe.status}`);
      if (e.kind === 'read') assert.ok(e.ceiling && e.ratio !== undefined, `${e.name} has a ceiling`);
      if (e.kind === 'read') assert.ok(e.uncached?.cpuMsPerAnswer !== undefined && e.uncached.cpuMsPerAnswer > 0, `${e.name} has its CPU time per answer`);
      if (e.kind === 'read' && !['files', 'files 100', 'ext/notifications'].includes(e.name)) assert.ok(e.floor && e.floor.floorMs > 0 && e.floor.items > 0, `${e.name} has a floor`);
    }
    assert.equal(r.exports.length, 2);
    assert.ok(r.exports.every((x) => x.status === 200 && x.bytes > 0));
    assert.ok(r.coldStartMs.median > 0);
    assert.ok(r.targets.length > 10);
    assert.match(run.stdout, /\| home_timeline\.json +\|/);
    assert.match(run.stdout, /of floor/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
