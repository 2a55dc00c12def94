import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOutboundUrl, isPublicAddress, publicLookup } from '../../server/http/outbound.js';

// What the hub may send requests to on its own (Web Push, later federation): public addresses only,
// unless HEARTH_FEDERATION_INSECURE=1, read at each call.

async function withInsecure<T>(on: boolean, run: () => T | Promise<T>): Promise<T> {
  const before = process.env.HEARTH_FEDERATION_INSECURE;
  if (on) process.env.HEARTH_FEDERATION_INSECURE = '1';
  else delete process.env.HEARTH_FEDERATION_INSECURE;
  try {
    return await run();
  } finally {
    if (before === undefined) delete process.env.HEARTH_FEDERATION_INSECURE;
    else process.env.HEARTH_FEDERATION_INSECURE = before;
  }
}

test('loopback, private, link-local, unique-local and reserved addresses are not public, in IPv4 and IPv6', () => {
  for (const a of [
    '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.0.1', '172.31.255.254', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:192.168.1.1', 'not an address',
  ]) assert.equal(isPublicAddress(a), false, a);
  for (const a of ['1.1.1.1', '8.8.8.8', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8']) assert.equal(isPublicAddress(a), true, a);
});

test('outbound URLs: https to public hosts; http and private literals only when insecure', async () => {
  await withInsecure(false, () => {
    assert.equal(checkOutboundUrl('https://push.example.com/x').host, 'push.example.com');
    for (const u of ['http://push.example.com/x', 'https://127.0.0.1/x', 'https://[::1]/x', 'https://localhost/x', 'https://a.localhost/x', 'https://10.0.0.8/x', 'https://user:pw@push.example.com/', 'ftp://push.example.com/', 'nonsense']) {
      assert.throws(() => checkOutboundUrl(u), Error, u);
    }
  });
  await withInsecure(true, () => {
    assert.equal(checkOutboundUrl('http://127.0.0.1:9/x').port, '9');
    assert.throws(() => checkOutboundUrl('ftp://127.0.0.1/'));
  });
});

test('the lookup of outbound sockets refuses names that resolve to private addresses, unless insecure', async () => {
  const look = (all: boolean) =>
    new Promise<unknown>((resolve) => publicLookup('localhost', { all }, (err, address) => resolve(err ?? address)));
  const refused = await withInsecure(false, () => look(false));
  assert.ok(refused instanceof Error, String(refused));
  assert.ok((await withInsecure(false, () => look(true))) instanceof Error);
  const allowed = await withInsecure(true, () => look(false));
  assert.ok(typeof allowed === 'string' && !isPublicAddress(allowed), String(allowed));
  assert.ok(Array.isArray(await withInsecure(true, () => look(true))));
});
