import { Accept, Block, Follow, Reject, Undo } from '@fedify/vocab';
import type { Hub } from '../../hub-context.js';
import { deleteFedFollow, getFedActor, getFedFollow, putFedFollow, setFedFollowAccepted } from '../../store/federation.js';
import { getAbconfig, setAbconfig } from '../../store/connections.js';
import type { SocialEvent, SocialOutcome } from '../../services/social-events.js';
import { channelActorId } from '../ids.js';
import { newActivityId, sendAs } from './send.js';

/** Where the id of the Block a channel sent someone is kept, for its Undo. */
const BLOCK_ID = { cat: 'federation', k: 'block' } as const;

/**
 * What a channel did about someone elsewhere, told to their server: Follow, Undo of it, the
 * answer to their Follow, Block and Undo of it. The bookkeeping happens here, in the caller's
 * transaction; the activity is queued once that has committed.
 */
export function onSocialEvent(hub: Hub, e: SocialEvent, outcome: SocialOutcome): void {
  const db = hub.db;
  const other = e.kind === 'accept' || e.kind === 'reject' ? e.follower : e.target;
  if (!getFedActor(db, other)) return; // not someone the federation knows (an imported Hubzilla identity)
  const me = new URL(channelActorId(hub.baseUrl, e.channel.channel_address));
  const later = (send: () => Promise<void>) => setImmediate(() => send().catch((err: Error) => hub.log.warn(`federation: could not queue a ${e.kind}: ${err.message}`)));
  switch (e.kind) {
    case 'follow': {
      const id = newActivityId(hub);
      putFedFollow(db, { channelId: e.channel.channel_id, actor: other, direction: 'out', activityId: id.href, accepted: false });
      outcome.pending = true;
      later(() => sendAs(hub, e.channel, [other], new Follow({ id, actor: me, object: new URL(other) })));
      return;
    }
    case 'unfollow': {
      const row = getFedFollow(db, e.channel.channel_id, other, 'out');
      if (!row) return;
      deleteFedFollow(db, e.channel.channel_id, other, 'out');
      later(() => sendAs(hub, e.channel, [other], new Undo({ id: newActivityId(hub), actor: me, object: new Follow({ id: new URL(row.activity_id), actor: me, object: new URL(other) }) })));
      return;
    }
    case 'accept':
    case 'reject': {
      const row = getFedFollow(db, e.channel.channel_id, other, 'in');
      if (!row) return;
      const follow = new Follow({ id: new URL(row.activity_id), actor: new URL(other), object: me });
      if (e.kind === 'accept') setFedFollowAccepted(db, e.channel.channel_id, other, 'in');
      else deleteFedFollow(db, e.channel.channel_id, other, 'in');
      const Answer = e.kind === 'accept' ? Accept : Reject;
      later(() => sendAs(hub, e.channel, [other], new Answer({ id: newActivityId(hub), actor: me, object: follow })));
      return;
    }
    case 'block': {
      const id = newActivityId(hub);
      setAbconfig(db, e.channel.channel_id, other, BLOCK_ID.cat, BLOCK_ID.k, id.href);
      later(() => sendAs(hub, e.channel, [other], new Block({ id, actor: me, object: new URL(other) })));
      return;
    }
    case 'unblock': {
      const blockId = getAbconfig(db, e.channel.channel_id, other, BLOCK_ID.cat, BLOCK_ID.k);
      const block = new Block({ id: blockId ? new URL(blockId) : null, actor: me, object: new URL(other) });
      later(() => sendAs(hub, e.channel, [other], new Undo({ id: newActivityId(hub), actor: me, object: block })));
      return;
    }
  }
}
