import { isIPv6 } from 'node:net';

/**
 * Whether a peer is the owner's own machine as Hearth itself reaches it: the desktop window and the
 * base URL use 127.0.0.1 (or ::1). Other loopback addresses (127.0.0.2…) are used by nothing of
 * Hearth's; they count as ordinary clients.
 */
export function isOwnerLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/** The eight groups of an IPv6 address, written out ('fe80::1' → ['fe80', '0', …, '1']). */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}

/**
 * What per-client limits count by: the IPv4 address, or the /64 network of an IPv6 address (one
 * device picks new addresses within its /64 at will). IPv4 in IPv6 form counts as IPv4.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return '';
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1]!;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address.replace(/%.*$/, '')).slice(0, 4).join(':')}::/64`;
}
