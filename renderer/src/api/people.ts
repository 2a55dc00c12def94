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
