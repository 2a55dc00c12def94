// The UI's files go over the wire compressed when the browser asks for it: the build writes
// brotli (.br) and gzip (.gz) variants next to them, and the hub picks one by Accept-Encoding,
// with Vary: Accept-Encoding, the file's own type and the variant's length. A client that did not
// ask for a coding never gets it.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { ensureRendererBuilt } from '../helpers/ui.js';

const DIST = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with exactly these headers (fetch would add its own Accept-Encoding and decode the answer). */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(res: Raw): Buffer {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body);
  if (coding === 'gzip') return gunzipSync(res.body);
  assert.equal(coding, undefined, 'no other coding');
  return res.body;
}

function varies(res: Raw): boolean {
  return String(res.headers.vary ?? '').split(',').some((v) => v.trim().toLowerCase() === 'accept-encoding');
}

let t: TestHub;
let script: string;
let style: string;

before(async () => {
  await ensureRendererBuilt();
  t = await startHub({ channels: ['alice'] });
  const assets = readdirSync(join(DIST, 'assets'));
  script = assets.find((f) => f.endsWith('.js') && readFileSync(join(DIST, 'index.html'), 'utf8').includes(f))!;
  style = assets.find((f) => f.endsWith('.css'))!;
});
after(() => t?.stop());

describe('the UI’s files, compressed by Accept-Encoding', () => {
  it('sends the main script as brotli or gzip when asked, byte for byte the file once decoded', async () => {
    const file = readFileSync(join(DIST, 'assets', script));
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip, deflate, br, zstd', 'br'], // what Chromium sends
      ['gzip, deflate', 'gzip'], // Chromium over plain http to another machine
      ['br;q=0.5, gzip', 'gzip'],
      ['*', 'br'],
      ['br;q=0, *;q=0.3', 'gzip'],
      ['identity', undefined],
      ['gzip;q=0, br;q=0', undefined],
      ['deflate', undefined],
      [undefined, undefined],
    ];
    for (const [accept, expected] of cases) {
      const res = await raw(`${t.url}/assets/${script}`, accept === undefined ? {} : { 'accept-encoding': accept });
      assert.equal(res.status, 200, String(accept));
      assert.equal(res.headers['content-encoding'], expected, `Accept-Encoding: ${accept}`);
      assert.ok(varies(res), `Vary: Accept-Encoding (${accept})`);
      assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
      assert.equal(res.headers['content-length'], String(res.body.length));
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.ok(decode(res).equals(file), `the same script (${accept})`);
      if (expected) assert.ok(res.body.length < file.length / 2.5, `${expected} is much smaller: ${res.body.length} of ${file.length}`);
    }
  });

  it('compresses the stylesheet, the page and the icon too, and HEAD says what GET sends', async () => {
    const css = await raw(`${t.url}/assets/${style}`, { 'accept-encoding': 'gzip' });
    assert.equal(css.headers['content-encoding'], 'gzip');
    assert.equal(css.headers['content-type'], 'text/css; charset=utf-8');
    assert.ok(decode(css).equals(readFileSync(join(DIST, 'assets', style))));

    const index = readFileSync(join(DIST, 'index.html'));
    for (const path of ['/', '/stream', '/photos']) {
      const res = await raw(t.url + path, { 'accept-encoding': 'br', accept: 'text/html' });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], 'br', path);
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.ok(varies(res));
      assert.ok(decode(res).equals(index), path);
    }
    const missing = await raw(`${t.url}/no/such/page`, { 'accept-encoding': 'gzip', accept: 'text/html' });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers['content-encoding'], 'gzip');
    assert.ok(decode(missing).equals(index), 'the app, which shows its own "nothing here"');
    const plain = await raw(`${t.url}/stream`, { accept: 'text/html' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.equals(index));

    const icon = await raw(`${t.url}/favicon.ico`, { 'accept-encoding': 'br' });
    assert.equal(icon.headers['content-type'], 'image/x-icon');
    assert.ok(decode(icon).equals(readFileSync(join(DIST, 'favicon.ico'))));

    const get = await raw(`${t.url}/assets/${script}`, { 'accept-encoding': 'br' });
    const head = await raw(`${t.url}/assets/${script}`, { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-encoding'], 'br');
    assert.equal(head.headers['content-length'], get.headers['content-length']);
  });
});
