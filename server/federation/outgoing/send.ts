import type { Activity, Recipient } from '@fedify/vocab';
import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { getFedActors, remoteFollowers, type FedActorRow } from '../../store/federation.js';
import { uuid } from '../../util/ids.js';

/** A new id for an activity the hub sends (it names the activity; nothing is served there). */
export function newActivityId(hub: Hub): URL {
  return new URL(`${hub.baseUrl}/activity/${uuid()}`);
}

function recipientOf(a: FedActorRow): Recipient {
  return { id: new URL(a.xchan_hash), inboxId: new URL(a.inbox), endpoints: a.shared_inbox ? { sharedInbox: new URL(a.shared_inbox) } : null };
}

/**
 * Sends an activity of `channel` to remote actors (by id) and, with `followers`, to its followers
 * elsewhere: queued durably, each inbox (a host's shared inbox once) delivered to by the queue.
 * Does nothing while federation does not run.
 */
export async function sendAs(hub: Hub, channel: ChannelRow, to: string[], activity: Activity, o: { followers?: boolean } = {}): Promise<void> {
  const federation = hub.federation.federation;
  if (!federation) return;
  const byId = new Map<string, FedActorRow>();
  if (o.followers) for (const a of remoteFollowers(hub.db, channel.channel_id)) byId.set(a.xchan_hash, a);
  for (const a of getFedActors(hub.db, to)) byId.set(a.xchan_hash, a);
  if (!byId.size) return;
  const ctx = federation.createContext(new URL(hub.baseUrl), hub);
  await ctx.sendActivity({ identifier: channel.channel_address }, [...byId.values()].map(recipientOf), activity, { preferSharedInbox: true });
}
