import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientKey, isOwnerLoopback } from '../../server/http/client-address.js';

test('per-client limits count an IPv6 client by its /64 and IPv4 in IPv6 form as IPv4', () => {
  assert.equal(clientKey('192.168.1.30'), '192.168.1.30');
  assert.equal(clientKey('::ffff:192.168.1.30'), '192.168.1.30');
  assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee'), '2001:db8:1:2::/64', 'another address of the same device');
  assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(clientKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(clientKey('::'), '0:0:0:0::/64');
  assert.notEqual(clientKey('2001:db8:1:3::1'), clientKey('2001:db8:1:2::1'));
  assert.equal(clientKey(undefined), '');
});

test('only the addresses Hearth itself uses count as the owner’s loopback', () => {
  for (const a of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) assert.equal(isOwnerLoopback(a), true, a);
  for (const a of ['127.0.0.2', '192.168.1.30', '::ffff:127.0.0.2', undefined, '']) assert.equal(isOwnerLoopback(a), false, String(a));
});
