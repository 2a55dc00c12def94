import { Delete, type Activity } from '@fedify/vocab';
import type { RequestContext, UnverifiedActivityReason } from '@fedify/fedify';
import type { Hub } from '../../hub-context.js';
import { getChannel } from '../../store/channels.js';
import { getItem } from '../../store/items.js';
import { channelsConnectedTo, clearRemoteIcon, deleteFedFollowsOf, liveItemsBy, markRemoteActorDeleted } from '../../store/federation.js';
import { followEnded, followerLeft } from '../../services/connections.js';
import { receiveDelete } from '../../services/received-items.js';
import { getXchan } from '../../store/xchans.js';
import { guardedGet } from '../fetch-documents.js';
import { federationInsecure } from '../settings.js';
import { refreshRemoteAvatar } from '../avatars.js';

/**
 * A remote actor deleted its account (Delete of itself). As Mastodon does: the follows between it and
 * the hub's channels end (either way), and what it wrote, liked or shared goes, and so does the copy
 * of its avatar. Its identity stays, flagged deleted, and a block of it stays a block.
 */
export function actorDeleted(hub: Hub, actorId: string): void {
  const db = hub.db;
  db.transaction(() => {
    markRemoteActorDeleted(db, actorId);
    clearRemoteIcon(db, actorId);
    deleteFedFollowsOf(db, actorId);
    for (const uid of channelsConnectedTo(db, actorId)) {
      const channel = getChannel(db, uid);
      if (!channel) continue;
      followEnded(hub, channel, actorId);
      followerLeft(hub, channel, actorId);
    }
  })();
  void refreshRemoteAvatar(hub, actorId); // its copy goes
  for (const item of liveItemsBy(db, actorId)) {
    // A thread top took its thread along already.
    const now = getItem(db, item.id);
    if (now && !now.item_deleted) receiveDelete(hub, now);
  }
}

/**
 * A Delete of an actor whose signature could not be checked because its key is gone with it (the
 * key's document answers 410 Gone): taken when the hub knows the actor and its document, fetched
 * again here, answers 410 Gone too. Anything else unverified is refused as Fedify refuses it.
 */
export async function onUnverifiedActivity(ctx: RequestContext<Hub>, activity: Activity, reason: UnverifiedActivityReason): Promise<Response | void> {
  const actor = activity.actorId?.href;
  if (!(activity instanceof Delete) || !actor || activity.objectId?.href !== actor) return;
  if (reason.type !== 'keyFetchError' || !('status' in reason.result) || reason.result.status !== 410) return;
  const known = getXchan(ctx.data.db, actor);
  if (known?.xchan_network !== 'activitypub' || known.xchan_deleted) return;
  const { response } = await guardedGet(actor, { insecure: federationInsecure() }).catch(() => ({ response: undefined }));
  if (response?.status !== 410) return;
  actorDeleted(ctx.data, actor);
  return new Response(null, { status: 202 });
}
