import type { Hub } from '../hub-context.js';
import type { ChannelRow } from '../store/rows.js';

/**
 * What a channel did about someone who is not on this hub, for the federation to tell their server:
 * it follows or stops following them, accepts or rejects their follow, blocks or unblocks them.
 */
export type SocialEvent =
  | { kind: 'follow'; channel: ChannelRow; target: string }
  | { kind: 'unfollow'; channel: ChannelRow; target: string }
  | { kind: 'accept'; channel: ChannelRow; follower: string }
  | { kind: 'reject'; channel: ChannelRow; follower: string }
  | { kind: 'block'; channel: ChannelRow; target: string }
  | { kind: 'unblock'; channel: ChannelRow; target: string };

/** What the listener found: whether a follow waits for the other side's approval. */
export interface SocialOutcome {
  pending: boolean;
}

/**
 * Tells the listener (event 'social') inside the caller's transaction, so that what it records
 * (a follow waiting for the other server) commits or rolls back with the change itself.
 */
export function emitSocialEvent(hub: Hub, e: SocialEvent): SocialOutcome {
  const outcome: SocialOutcome = { pending: false };
  hub.events.emit('social', e, outcome);
  return outcome;
}
