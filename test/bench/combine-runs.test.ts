import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineRuns, type LoadResult } from '../../bench/load.js';

function run(seconds: number, rps: number, p50Ms: number, p99Ms: number, codes: Record<string, number>): LoadResult {
  return { connections: 10, seconds, requests: rps * seconds, rps, p50Ms, p99Ms, meanMs: p50Ms, maxMs: p99Ms * 2, non2xx: 0, errors: 0, timeouts: 0, statusCodes: codes, refused: 0, bytesPerSec: rps * 1000 };
}

test('runs of one load combine into rates over the summed time, the median p50 and the worst p99', () => {
  const combined = combineRuns([run(5, 1000, 2, 9, { 200: 5000 }), run(5, 3000, 1, 4, { 200: 15000 }), run(10, 500, 3, 30, { 200: 4999, 503: 1 })]);
  assert.equal(combined.seconds, 20);
  assert.equal(combined.requests, 25_000);
  assert.equal(combined.rps, 1250);
  assert.equal(combined.bytesPerSec, 1_250_000);
  assert.equal(combined.p50Ms, 2);
  assert.equal(combined.p99Ms, 30);
  assert.equal(combined.maxMs, 60);
  assert.deepEqual(combined.statusCodes, { 200: 24_999, 503: 1 });
  assert.throws(() => combineRuns([]));
});
