import { test } from 'node:test';
import assert from 'node:assert/strict';
import { idleTrimmer } from '../../server/http/idle-trim.js';

test('memory is trimmed once after requests stop, not while they go on, and not again until new ones', async () => {
  let trims = 0;
  const trimmer = idleTrimmer(60_000, () => trims++);
  try {
    const request = () => trimmer.middleware({} as never, async () => undefined);
    trimmer.check();
    assert.equal(trims, 0, 'nothing to give back before any request');
    await request();
    trimmer.check();
    await request();
    trimmer.check();
    assert.equal(trims, 0, 'requests in every period: no trim');
    trimmer.check();
    assert.equal(trims, 1, 'one quiet period: trimmed');
    trimmer.check();
    trimmer.check();
    assert.equal(trims, 1, 'still quiet: not trimmed again');
    await request();
    trimmer.check();
    trimmer.check();
    assert.equal(trims, 2, 'new requests, then quiet: trimmed again');
  } finally {
    trimmer.stop();
  }
});
