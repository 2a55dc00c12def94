import type { Hub } from '../hub-context.js';
import { findTerms } from '../content/terms.js';
import { getXchanByAddress } from '../store/xchans.js';

/** People a post may name that are looked up on their servers, at most. */
const MAX_LOOKUPS = 5;

/**
 * Looks up the people elsewhere that a text names by address (@nick@host) and the hub does not know
 * yet, on their servers (while federation runs), so that the post can mention and reach them.
 */
export async function learnMentioned(hub: Hub, text: string): Promise<void> {
  const unknown = findTerms(text).mentions.filter((m) => m.includes('@') && !getXchanByAddress(hub.db, m));
  await Promise.all(unknown.slice(0, MAX_LOOKUPS).map((address) => hub.federation.resolve(address)));
}
