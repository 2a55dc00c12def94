import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Address ranges no federation traffic may reach: loopback, private, link-local, CGNAT, multicast,
 * reserved. Two lists, because a BlockList also matches IPv4 addresses against its IPv6 rules.
 */
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) NOT_PUBLIC_V4.addSubnet(net, bits, 'ipv4');
// IPv6: unspecified and loopback, IPv4-compatible and -mapped, NAT64, discard, Teredo, documentation,
// 6to4 (any IPv4 inside), unique-local, link-local, site-local, multicast.
for (const [net, bits] of [
  ['::', 96], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32], ['2002::', 16],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC_V6.addSubnet(net, bits, 'ipv6');

/** Whether an IP address (v4 or v6) is on the public internet. */
export function isPublicIp(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return isPublicIp(mapped);
  return family === 4 ? !NOT_PUBLIC_V4.check(ip, 'ipv4') : !NOT_PUBLIC_V6.check(ip, 'ipv6');
}

/** Names that never resolve on the public internet. */
function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || !h.includes('.') || /\.(localhost|local|lan|home|internal|intranet|corp|home\.arpa|test|invalid|example)$/.test(h);
}

/**
 * Why a URL is not one other servers can use to reach this hub (https on a public host), or
 * undefined when it is. Only the name is judged here; it is not resolved.
 */
export function publicUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${url} is not a URL`;
  }
  if (u.protocol !== 'https:') return `${u.origin} is not https`;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) ? !isPublicIp(host) : isLocalName(host)) return `${u.hostname} is not a public host name`;
  return undefined;
}

/** The addresses a host name resolves to (tests answer in place of DNS). */
export type HostLookup = (host: string) => Promise<string[]>;

export const dnsLookup: HostLookup = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Whether the hub may fetch from or deliver to this URL: http(s), and every address its host
 * resolves to public. Undefined when allowed, else the reason.
 */
export async function outboundUrlProblem(url: URL, insecure: boolean, resolve: HostLookup = dnsLookup): Promise<string | undefined> {
  if (url.protocol !== 'https:' && !(insecure && url.protocol === 'http:')) return `${url.protocol} URLs are not fetched`;
  if (insecure) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicIp(host) ? undefined : `${host} is not a public address`;
  if (isLocalName(host)) return `${host} is not a public host name`;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `${host} does not resolve`;
  }
  if (!addresses.length) return `${host} does not resolve`;
  const bad = addresses.find((a) => !isPublicIp(a));
  return bad ? `${host} resolves to ${bad}, which is not a public address` : undefined;
}
