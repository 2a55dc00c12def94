import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryTrimmer } from '../../server/http/memory-trim.js';

test('memory is trimmed in every period with requests, once more after they stop, and never while idle', async () => {
  let trims = 0;
  const trimmer = memoryTrimmer(60_000, () => trims++);
  try {
    const request = () => trimmer.middleware({} as never, async () => undefined);
    trimmer.check();
    assert.equal(trims, 0, 'nothing to give back before any request');
    await request();
    trimmer.check();
    assert.equal(trims, 1, 'requests in the period: trimmed');
    await request();
    await request();
    trimmer.check();
    assert.equal(trims, 2, 'once per period, however many requests');
    trimmer.check();
    assert.equal(trims, 3, 'the first quiet period: trimmed once more');
    trimmer.check();
    trimmer.check();
    assert.equal(trims, 3, 'still quiet: not trimmed again');
    await request();
    trimmer.check();
    trimmer.check();
    trimmer.check();
    assert.equal(trims, 5, 'new requests, then quiet: trimmed twice');
  } finally {
    trimmer.stop();
  }
});
