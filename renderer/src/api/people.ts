import { addressHere } from '../addresses.ts';
import { COMPAT, get } from './http.ts';
import type { User } from './types.ts';

/** Someone named by address (user@host, @user@host) or by the URL of their profile elsewhere. */
export function looksLikeAddress(q: string): boolean {
  return /^https?:\/\/\S+$/i.test(q) || /^@?[^@\s/]+@[^@\s/]+$/.test(q);
}

/** People of other servers go by their address (nick@host); the hub's own channels by their nickname. */
export const isElsewhere = (u: Pick<User, 'screen_name'>) => u.screen_name.includes('@');

/** People known to the hub by name, address or profile URL; an address or URL is also looked up where it lives. */
export async function findPeople(q: string): Promise<User[]> {
  const res = await get<User[] | undefined>(`${COMPAT}users/search`, { q, resolve: looksLikeAddress(q) });
  return Array.isArray(res) ? res : [];
}

export interface Relationship {
  following: boolean;
  followed_by: boolean;
  /** The channel's follow waits for their (or their server's) answer. */
  following_requested: boolean;
}

/** Whether the channel follows them (or asked to) and they follow the channel (friendships/show). */
export async function relationshipWith(screenName: string): Promise<Relationship> {
  const res = await get<{ relationship: { source: Relationship } }>(`${COMPAT}friendships/show`, { target_screen_name: screenName });
  return res.relationship.source;
}

interface LookedUp {
  screen_name: string;
  connections: string[];
}

/** friendships/lookup takes at most this many people at once. */
const LOOKUP_MAX = 100;

/**
 * How the channel and each of these people (by address, nick@host) follow each other, keyed by the
 * address in lower case; `addressHost` is the host part of this hub's addresses, whose channels
 * the answer names by nickname.
 */
export async function relationshipsWith(addresses: string[], addressHost: string): Promise<Map<string, Relationship>> {
  const out = new Map<string, Relationship>();
  for (let i = 0; i < addresses.length; i += LOOKUP_MAX) {
    const res = await get<LookedUp[]>(`${COMPAT}friendships/lookup`, { screen_name: addresses.slice(i, i + LOOKUP_MAX).join(',') });
    for (const r of Array.isArray(res) ? res : []) {
      const address = r.screen_name.includes('@') ? r.screen_name : addressHere({ addressHost }, r.screen_name);
      out.set(address.toLowerCase(), {
        following: r.connections.includes('following'),
        following_requested: r.connections.includes('following_requested'),
        followed_by: r.connections.includes('followed_by'),
      });
    }
  }
  return out;
}
