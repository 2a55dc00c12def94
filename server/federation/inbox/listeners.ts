import type { Federation } from '@fedify/fedify';
import type { Hub } from '../../hub-context.js';

/** What the inboxes (per channel and shared) do with each kind of activity. */
export function mountInbox(federation: Federation<Hub>): void {
  federation.setInboxListeners('/channel/{identifier}/inbox', '/inbox');
}
