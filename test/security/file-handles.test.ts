import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';

// Issue 16, finding 5: a package that fails to load while the process is out of file handles is
// not taken as broken for good; the request that hit it gets 503, the next one works.

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice'] });
});
after(() => t.stop());

test('an image library that failed to load for want of file handles loads on the next upload', async () => {
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  let failures = 0;
  loader._load = function (request: string, ...rest: unknown[]) {
    if (request === 'sharp' && failures === 0) {
      failures++;
      throw Object.assign(new Error("EMFILE: too many open files, open '/node_modules/sharp/lib/index.js'"), { code: 'EMFILE', errno: -24 });
    }
    return original.call(this, request, ...rest);
  };
  try {
    const png = await makeImage(30, 20, 'png');
    const upload = () => t.request('/api/media/upload.json', { as: 'alice', method: 'POST', body: form({}, { media: { data: png, name: 'a.png', type: 'image/png' } }) });
    const first = await upload();
    const body = await first.json();
    assert.equal(failures, 1, 'the hub loads the image library on the first upload, and that load failed');
    assert.equal(first.status, 503, JSON.stringify(body));
    assert.match(body.error, /file handles/);
    assert.ok(Number(first.headers.get('retry-after')) > 0);
    const second = await upload();
    assert.equal(second.status, 200, await second.text());
  } finally {
    loader._load = original;
  }
});
