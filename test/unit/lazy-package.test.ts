import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lazyPackage } from '../../server/util/lazy.js';
import { HttpError } from '../../server/http/errors.js';

test('a package whose load or init failed is loaded again on the next use; out of file handles is a 503', () => {
  let loads = 0;
  let inits = 0;
  const outcomes = ['EMFILE', 'init fails', 'ok'];
  const get = lazyPackage<{ n: number }>(
    'anything',
    () => {
      inits++;
      if (outcomes[loads - 1] === 'init fails') throw new Error('init failed');
    },
    () => {
      loads++;
      if (outcomes[loads - 1] === 'EMFILE') throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
      return { n: loads };
    },
  );
  assert.throws(get, (err) => err instanceof HttpError && err.status === 503);
  assert.throws(get, /init failed/);
  assert.deepEqual(get(), { n: 3 });
  assert.deepEqual(get(), { n: 3 });
  assert.deepEqual([loads, inits], [3, 2]);
});
