import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup, type LookupAddress } from 'node:dns';

/**
 * What the hub may send requests to on its own (Web Push now, federation later): public https
 * servers only, so that nobody can point it at this machine or the local network. Tests and LAN
 * experiments set HEARTH_FEDERATION_INSECURE=1 to allow http and private addresses; it is read on
 * every call, so a test can set it for a hub running in its own process.
 */
export function insecureOutbound(): boolean {
  return process.env.HEARTH_FEDERATION_INSECURE === '1';
}

const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001:db8::', 32], ['2002::', 16],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is on the public internet (not loopback, private, link-local, unique-local or reserved). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // BlockList matches IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) against the IPv4 rules.
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class OutboundRefused extends Error {}

/** A URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Checks a URL the hub is to send to: https (http too when insecure), and no private IP literal. */
export function checkOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('is not a URL');
  }
  const insecure = insecureOutbound();
  if (url.protocol !== 'https:' && !(insecure && url.protocol === 'http:')) throw new OutboundRefused('must be an https URL');
  if (url.username || url.password) throw new OutboundRefused('must not carry credentials');
  const host = hostOf(url);
  if (!insecure && (isIP(host) ? !isPublicAddress(host) : host === 'localhost' || host.endsWith('.localhost'))) throw new OutboundRefused('must be on a public address');
  return url;
}

/** The addresses a host name has; refused when any of them is not public (unless insecure). */
export async function checkOutboundHost(host: string): Promise<void> {
  if (isIP(host)) {
    if (!insecureOutbound() && !isPublicAddress(host)) throw new OutboundRefused('must be on a public address');
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => lookup(host, { all: true }, (err, list) => (err ? reject(err) : resolve(list))));
  if (!insecureOutbound() && addresses.some((a) => !isPublicAddress(a.address))) throw new OutboundRefused('must be on a public address');
}

/**
 * A DNS lookup for the sockets of outbound requests that refuses private answers, so that the
 * address connected to is the one checked (a name cannot resolve to a public address when checked
 * and to a private one when connecting).
 */
export const publicLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as LookupAddress[];
    if (!list.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    if (!insecureOutbound() && list.some((a) => !isPublicAddress(a.address))) return callback(new OutboundRefused(`${hostname} resolves to an address that is not public`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
