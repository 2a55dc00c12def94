import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import Koa from 'koa';
import Router from '@koa/router';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { apiFallback, mountApis, type ApiDefinition } from '../../server/http/api.js';
import { compatApi } from '../../server/api/compat/api.js';
import { nativeApi } from '../../server/api/native/api.js';
import { reply } from '../../server/api/compat/reply.js';
import { badRequest } from '../../server/http/errors.js';
import { startHub, type TestHub } from '../helpers/hub.js';

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false });

// A small API mounted with the hub's own machinery, so that method tables and errors are tested
// independently of which endpoints exist.
const testApi: ApiDefinition = {
  ...compatApi,
  prefixes: ['/api'],
  routes: [
    { path: 'echo', methods: ['POST', 'PUT'], auth: 'none', handler: ({ params }) => reply({ a: params.str('a') ?? null, n: 1, ok: true }, 'echo') },
    { path: 'fail', methods: ['GET'], auth: 'none', handler: () => { throw badRequest('bad thing'); } },
    { path: 'things', methods: ['GET'], auth: 'none', idParam: true, handler: ({ pathParams }) => reply({ route: 'things', id: pathParams.id ?? null }, 'r') },
    // Registered after 'things', whose id form matches it: the router picks 'things', and so must the path map.
    { path: 'things/special', methods: ['GET'], auth: 'none', handler: () => reply({ route: 'things/special' }, 'r') },
    { path: 'plain/route', methods: ['GET'], auth: 'none', handler: ({ format }) => reply({ route: 'plain/route', format }, 'r') },
    { path: 'boom', methods: ['GET'], auth: 'none', handler: () => { throw new Error('secret internal detail at /home/x'); } },
  ],
};

let server: import('node:http').Server;
let base = '';
let hub: TestHub;

before(async () => {
  const app = new Koa();
  const router = new Router();
  const apiRoutes = mountApis(router, [testApi]);
  app.context.hub = { log: { error() {}, warn() {}, info() {} }, authenticators: [], parseBody: (_ctx: unknown, next: () => Promise<void>) => next() } as never;
  app.use(apiFallback([testApi]));
  app.use(async (ctx, next) => {
    (ctx.request as { body?: unknown }).body = Object.fromEntries(new URLSearchParams(ctx.querystring));
    await next();
  });
  app.use(apiRoutes);
  app.use(router.routes());
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hub = await startHub({ options: { limits: { maxUploadBytes: 1024, maxFormBytes: 2048 } } });
});

after(async () => {
  server.close();
  await hub.stop();
});

test('the same value renders as JSON (no suffix or .json) and XML (.xml)', async () => {
  const j1 = await fetch(`${base}/api/echo?a=x`, { method: 'POST' });
  assert.equal(j1.status, 200);
  assert.match(j1.headers.get('content-type')!, /^application\/json/);
  assert.deepEqual(await j1.json(), { a: 'x', n: 1, ok: true });
  const j2 = await fetch(`${base}/api/echo.json?a=x`, { method: 'POST' });
  assert.deepEqual(await j2.json(), { a: 'x', n: 1, ok: true });
  const x = await fetch(`${base}/api/echo.xml?a=x`, { method: 'POST' });
  assert.match(x.headers.get('content-type')!, /^text\/xml/);
  const doc = xml.parse(await x.text());
  assert.deepEqual({ a: doc.echo.a, n: doc.echo.n, ok: doc.echo.ok }, { a: 'x', n: '1', ok: 'true' });
});

test('plain paths and routed paths reach the same route', async () => {
  const get = async (path: string) => {
    const res = await fetch(base + path);
    return { status: res.status, body: res.status === 200 ? await res.json() : await res.text() };
  };
  assert.deepEqual((await get('/api/plain/route.json')).body, { route: 'plain/route', format: 'json' });
  assert.deepEqual((await get('/api/plain/route')).body, { route: 'plain/route', format: 'json' });
  assert.deepEqual((await get('/api/PLAIN/Route.json')).body, { route: 'plain/route', format: 'json' }, 'paths are case-insensitive');
  assert.deepEqual((await get('/api/plain/route/')).body, { route: 'plain/route', format: 'json' }, 'a trailing slash is accepted');
  assert.deepEqual((await get('/api/things/7.json')).body, { route: 'things', id: '7' });
  assert.deepEqual((await get('/api/things.json')).body, { route: 'things', id: null });
  assert.deepEqual((await get('/api/things/special.json')).body, { route: 'things', id: 'special' }, 'first registered route wins');
  assert.equal((await get('/api/plain/route.json.xml')).status, 404);
  assert.equal((await get('/api/plain/nothing.json')).status, 404);
});

test('a wrong method gets 405 with Allow, in the API error shape', async () => {
  const res = await fetch(`${base}/api/echo.json`, { method: 'DELETE' });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get('allow'), 'POST, PUT');
  const body = await res.json();
  assert.equal(body.code, '405 Method Not Allowed');
  assert.equal(body.request, 'api/echo.json');
  const get = await fetch(`${base}/api/echo.xml`);
  assert.equal(get.status, 405);
  assert.equal(xml.parse(await get.text()).status.code, '405 Method Not Allowed');
});

test('handler errors keep their status; internal errors are 500 without details', async () => {
  const res = await fetch(`${base}/api/fail`);
  assert.equal(res.status, 400);
  assert.equal((await res.json()).error, 'bad thing');
  const boom = await fetch(`${base}/api/boom`);
  assert.equal(boom.status, 500);
  const text = await boom.text();
  assert.doesNotMatch(text, /secret|home|at /);
});

test('unknown API paths are 404 in each API\'s own error shape', async () => {
  const compat = await fetch(`${hub.url}/api/no/such/thing.json`);
  assert.equal(compat.status, 404);
  const cb = await compat.json();
  assert.equal(cb.code, '404 Not Found');
  assert.equal(cb.request, 'api/no/such/thing.json');
  const compatXml = await fetch(`${hub.url}/api/no/such/thing.xml`);
  assert.equal(xml.parse(await compatXml.text()).status.code, '404 Not Found');
  const native = await fetch(`${hub.url}/api/z/1.0/no/such/thing`);
  assert.equal(native.status, 404);
  const nb = await native.json();
  assert.equal(nb.success, false);
  assert.match(nb.message, /not implemented/);
});

test('an upload over the size limit is refused with 413 and leaves no temporary file', async () => {
  const form = new FormData();
  form.append('media', new Blob([new Uint8Array(4096)]), 'big.bin');
  const res = await fetch(`${hub.url}/api/z/1.0/version`, { method: 'POST', body: form });
  assert.equal(res.status, 413);
  assert.equal((await res.json()).success, false);
  const compat = await fetch(`${hub.url}/api/help/test.xml`, { method: 'POST', body: form });
  assert.equal(compat.status, 413);
  assert.equal(xml.parse(await compat.text()).status.code, '413 Payload Too Large');
  const { readdir } = await import('node:fs/promises');
  assert.deepEqual(await readdir(`${hub.dataDir}/tmp`), []);
});

test('an oversized form body is refused with 413, a malformed JSON body with 400', async () => {
  const big = await fetch(`${hub.url}/api/help/test.json`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'status=' + 'x'.repeat(10_000) });
  assert.equal(big.status, 413);
  const bad = await fetch(`${hub.url}/api/help/test.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"broken' });
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).code, '400 Bad Request');
});

test('a forged Host header is refused and never appears in URLs', async () => {
  const { request } = await import('node:http');
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${hub.url}/api/help/test.json`, { headers: { host: 'evil.example' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(status, 421);
});

test('the native version endpoint answers without credentials, in JSON and XML', async () => {
  const res = await fetch(`${hub.url}/api/z/1.0/version`);
  assert.equal(res.status, 200);
  assert.equal(typeof (await res.json()), 'string');
  const x = await fetch(`${hub.url}/api/z/1.0/version.xml`);
  assert.match(await x.text(), /<version>[\d.]+<\/version>/);
});
