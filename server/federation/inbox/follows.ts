import { Accept, Block, Follow, Reject, Undo } from '@fedify/vocab';
import type { InboxContext } from '@fedify/fedify';
import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { getChannel, getChannelByNick } from '../../store/channels.js';
import { deleteFedFollow, findFedFollowByActivity, getFedFollow, putFedFollow, setFedFollowAccepted } from '../../store/federation.js';
import { DEFAULT_CONNECTION_PERMS, followEnded, followerLeft, receiveFollow } from '../../services/connections.js';
import { notify, NOTIFY } from '../../services/notifications.js';
import { getXchan } from '../../store/xchans.js';
import { actorById } from '../remote-actors.js';
import { newActivityId, sendAs } from '../outgoing/send.js';

/** The channel of this hub an actor id names, if it does. */
export function localChannelOf(ctx: InboxContext<Hub>, id: URL | null | undefined): ChannelRow | undefined {
  const parsed = id ? ctx.parseUri(id) : null;
  return parsed?.type === 'actor' ? getChannelByNick(ctx.data.db, parsed.identifier) : undefined;
}

/** Someone elsewhere follows a channel: accepted at once, or a request while it approves followers by hand. */
export async function onFollow(ctx: InboxContext<Hub>, follow: Follow): Promise<void> {
  const channel = localChannelOf(ctx, follow.objectId);
  if (!channel || !follow.actorId || !follow.id) return;
  const follower = await actorById(ctx, follow.actorId.href);
  const hub = ctx.data;
  const { pending, blocked } = hub.db.transaction(() => {
    const before = getFedFollow(hub.db, channel.channel_id, follower.xchan_hash, 'in');
    const r = receiveFollow(hub, channel, { hash: follower.xchan_hash, name: follower.xchan_name }, { theirPerms: DEFAULT_CONNECTION_PERMS, followedBefore: Boolean(before) });
    if (!r.blocked) putFedFollow(hub.db, { channelId: channel.channel_id, actor: follower.xchan_hash, direction: 'in', activityId: follow.id!.href, accepted: !r.pending });
    return r;
  })();
  if (blocked) await sendAs(hub, channel, [follower.xchan_hash], new Reject({ id: newActivityId(hub), actor: ctx.getActorUri(channel.channel_address), object: follow }));
  else if (!pending) await sendAs(hub, channel, [follower.xchan_hash], new Accept({ id: newActivityId(hub), actor: ctx.getActorUri(channel.channel_address), object: follow }));
}

/** The Follow an Accept or Reject answers: one of the hub's channels' follows of the answering actor. */
async function answeredFollow(ctx: InboxContext<Hub>, answer: Accept | Reject) {
  if (!answer.actorId) return undefined;
  let followId = answer.objectId?.href;
  if (!followId) {
    const inner = await answer.getObject().catch(() => null);
    followId = inner instanceof Follow ? inner.id?.href : undefined;
  }
  const row = followId ? findFedFollowByActivity(ctx.data.db, followId) : undefined;
  return row && row.direction === 'out' && row.actor === answer.actorId.href ? row : undefined;
}

export async function onAccept(ctx: InboxContext<Hub>, accept: Accept): Promise<void> {
  const row = await answeredFollow(ctx, accept);
  if (!row || row.accepted) return;
  const hub = ctx.data;
  hub.db.transaction(() => {
    setFedFollowAccepted(hub.db, row.channel_id, row.actor, 'out');
    const name = getXchan(hub.db, row.actor)?.xchan_name;
    const msg = name ? `${name} accepted your connection request` : 'Your connection request was accepted';
    notify(hub, { uid: row.channel_id, ntype: NOTIFY.CONFIRM, actor: row.actor, msg, link: `${hub.baseUrl}/connections`, otype: 'intro' });
  })();
}

export async function onReject(ctx: InboxContext<Hub>, reject: Reject): Promise<void> {
  const row = await answeredFollow(ctx, reject);
  if (!row) return;
  const hub = ctx.data;
  const channel = getChannel(hub.db, row.channel_id);
  if (!channel) return;
  hub.db.transaction(() => {
    deleteFedFollow(hub.db, row.channel_id, row.actor, 'out');
    followEnded(hub, channel, row.actor);
  })();
}

/** Someone elsewhere stops following a channel (Undo of their Follow). */
export function onUndoFollow(ctx: InboxContext<Hub>, undo: Undo, follow: Follow): void {
  const channel = localChannelOf(ctx, follow.objectId);
  const actor = undo.actorId?.href;
  if (!channel || !actor || follow.actorId?.href !== actor) return;
  const hub = ctx.data;
  hub.db.transaction(() => {
    if (!getFedFollow(hub.db, channel.channel_id, actor, 'in')) return;
    deleteFedFollow(hub.db, channel.channel_id, actor, 'in');
    followerLeft(hub, channel, actor);
  })();
}

/** Someone elsewhere blocks a channel: neither follows the other any more. */
export function onBlock(ctx: InboxContext<Hub>, block: Block): void {
  const channel = localChannelOf(ctx, block.objectId);
  const actor = block.actorId?.href;
  if (!channel || !actor) return;
  const hub = ctx.data;
  hub.db.transaction(() => {
    if (getFedFollow(hub.db, channel.channel_id, actor, 'in')) {
      deleteFedFollow(hub.db, channel.channel_id, actor, 'in');
      followerLeft(hub, channel, actor);
    }
    if (getFedFollow(hub.db, channel.channel_id, actor, 'out')) {
      deleteFedFollow(hub.db, channel.channel_id, actor, 'out');
      followEnded(hub, channel, actor);
    }
  })();
}
