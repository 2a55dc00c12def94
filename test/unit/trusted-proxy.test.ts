import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Context } from 'koa';
import { isLoopback, trustedProxyHeaders } from '../../server/http/proxy.js';

/** The bits of a Koa context the middleware reads and writes. */
function fakeContext(peer: string, headers: Record<string, string>) {
  const ctx = {
    req: { socket: { remoteAddress: peer } },
    request: { ip: peer },
    cookies: { secure: false },
    get: (name: string) => headers[name.toLowerCase()] ?? '',
  };
  return ctx;
}

async function run(peer: string, headers: Record<string, string>) {
  const ctx = fakeContext(peer, headers);
  await trustedProxyHeaders()(ctx as unknown as Context, async () => {});
  return { ip: ctx.request.ip, secureCookies: ctx.cookies.secure };
}

test('a proxy on loopback is believed: the client is the last X-Forwarded-For entry, https from X-Forwarded-Proto', async () => {
  assert.deepEqual(await run('127.0.0.1', { 'x-forwarded-for': '10.9.9.9, 203.0.113.5', 'x-forwarded-proto': 'https' }), { ip: '203.0.113.5', secureCookies: true });
  assert.deepEqual(await run('::ffff:127.0.0.1', { 'x-forwarded-for': '2001:db8::1' }), { ip: '2001:db8::1', secureCookies: false });
  assert.deepEqual(await run('::1', { 'x-forwarded-for': '[2001:db8::2]', 'x-forwarded-proto': 'http' }), { ip: '2001:db8::2', secureCookies: false });
});

test('anybody else is not: headers from other addresses are ignored, and so are unusable values', async () => {
  assert.deepEqual(await run('192.168.1.30', { 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https' }), { ip: '192.168.1.30', secureCookies: false });
  assert.deepEqual(await run('127.0.0.1', { 'x-forwarded-for': 'not-an-address' }), { ip: '127.0.0.1', secureCookies: false });
  assert.deepEqual(await run('127.0.0.1', {}), { ip: '127.0.0.1', secureCookies: false });
  assert.equal(isLoopback('127.3.4.5'), true);
  assert.equal(isLoopback('128.0.0.1'), false);
  assert.equal(isLoopback(undefined), false);
});

test('hearth serve --trust-proxy, or HEARTH_TRUST_PROXY=1; off by default', async () => {
  const { serveOptions } = await import('../../server/cli.js');
  assert.equal(serveOptions([], {}).trustProxy, false);
  assert.equal(serveOptions(['--trust-proxy'], {}).trustProxy, true);
  assert.equal(serveOptions([], { HEARTH_TRUST_PROXY: '1' }).trustProxy, true);
  assert.equal(serveOptions([], { HEARTH_TRUST_PROXY: 'no' }).trustProxy, false);
});
