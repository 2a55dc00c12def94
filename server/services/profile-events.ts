import type { Hub } from '../hub-context.js';
import type { ChannelRow } from '../store/rows.js';

/**
 * The channel's profile (what its actor shows: name, bio, photo, approving followers by hand) may
 * have changed: its followers elsewhere are told, once the change commits. Call it inside the
 * transaction that changes the profile; nothing is sent when nothing they see changed.
 */
export function emitProfileChange(hub: Pick<Hub, 'federation'>, channel: ChannelRow): void {
  hub.federation.queueActorUpdate(channel);
}
