import type { Hub } from '../hub-context.js';
import type { ChannelRow } from '../store/rows.js';
import { getChannelByHash } from '../store/channels.js';
import { deleteConnection, getConnection, getConnectionById, insertConnection, updateConnection, type ConnectionRow } from '../store/connections.js';
import { getXchan } from '../store/xchans.js';
import { badRequest, notFound } from '../http/errors.js';
import { nowDb } from '../util/time.js';
import { notify, NOTIFY } from './notifications.js';
import { settleRequestNotifications } from '../store/notify.js';
import { approvesFollowersByHand } from './social-settings.js';
import { emitSocialEvent } from './social-events.js';
import { followsChannel } from '../store/social-graph.js';

/** Legacy permission bits (abook_my_perms / abook_their_perms), Hubzilla's numbering. */
export const PERM_BITS = {
  view_stream: 0x1, view_profile: 0x2, view_photos: 0x4, view_contacts: 0x8, send_stream: 0x10, post_wall: 0x20,
  tag_deliver: 0x40, post_comments: 0x80, post_mail: 0x100, write_photos: 0x200, chat: 0x400, delegate: 0x800,
  view_storage: 0x1000, write_storage: 0x2000, view_pages: 0x4000, write_pages: 0x8000, republish: 0x10000, post_like: 0x20000,
} as const;

/** What a new connection may do by default: see and send, comment, like, write messages. */
export const DEFAULT_CONNECTION_PERMS =
  PERM_BITS.view_stream | PERM_BITS.view_profile | PERM_BITS.view_photos | PERM_BITS.view_contacts | PERM_BITS.send_stream |
  PERM_BITS.post_wall | PERM_BITS.post_comments | PERM_BITS.post_mail | PERM_BITS.chat | PERM_BITS.view_storage |
  PERM_BITS.view_pages | PERM_BITS.post_like;

/**
 * The verb of the notification a followed channel gets when the follow needed no approval; a
 * follow request's notification has none (as those stored before), and becomes a follow once accepted.
 */
export const FOLLOW_NOTIFY_VERB = 'Follow';

/*
 * Follows are one-way, kept in the connection records (abook) of both sides (store/social-graph.ts):
 * the follower's record of the followed (abook_unconnected = 0: "I follow them") and, on this hub,
 * the followed channel's record of the follower (abook_pending = 1 while it waits for approval;
 * abook_unconnected = 1 when the channel does not follow them back). A record that is neither
 * pending nor blocked makes the other a connection of the channel, with what its permissions grant.
 */

export interface ConnectResult {
  connection: ConnectionRow;
  /** True when the follow waits for the other side's approval. */
  pending: boolean;
}

/**
 * `channel` follows `targetHash`. A channel of this hub that approves followers by hand gets a
 * follow request (unless it already counts the follower among its connections, having followed
 * them first); any other is followed at once and told so. Following someone who asked to follow
 * the channel is a follow of its own: their request still waits for an answer (approveRequest).
 */
export function connect(hub: Hub, channel: ChannelRow, targetHash: string): ConnectResult {
  const db = hub.db;
  if (targetHash === channel.channel_hash) throw badRequest('a channel cannot connect to itself');
  const target = getXchan(db, targetHash);
  if (!target) throw notFound('no such channel');
  return db.transaction(() => {
    const mine = getConnection(db, channel.channel_id, targetHash);
    const followedBefore = Boolean(mine && !mine.abook_unconnected);
    if (!mine) insertConnection(db, { account: channel.channel_account_id, channel: channel.channel_id, xchan: targetHash, pending: false, myPerms: DEFAULT_CONNECTION_PERMS, theirPerms: 0 });
    else if (mine.abook_unconnected) updateConnection(db, mine.abook_id, { abook_unconnected: 0 });
    const mineNow = getConnection(db, channel.channel_id, targetHash)!;

    let pending = false;
    const local = getChannelByHash(db, targetHash);
    if (local) pending = receiveFollow(hub, local, { hash: channel.channel_hash, name: channel.channel_name }, { theirPerms: mineNow.abook_my_perms, followedBefore }).pending;
    else if (!followedBefore) pending = emitSocialEvent(hub, { kind: 'follow', channel, target: targetHash }).pending;
    return { connection: getConnection(db, channel.channel_id, targetHash)!, pending };
  })();
}

/**
 * Someone (a channel of this hub or a person elsewhere) follows `channel`: the channel keeps a
 * record of them, a request while it approves followers by hand (unless it counts them among its
 * connections already), and is told. `theirPerms` is what the follower grants the channel.
 */
export function receiveFollow(hub: Hub, channel: ChannelRow, follower: { hash: string; name: string }, o: { theirPerms: number; followedBefore: boolean }): { pending: boolean; blocked: boolean } {
  const db = hub.db;
  const theirs = getConnection(db, channel.channel_id, follower.hash);
  if (!theirs) {
    const byHand = approvesFollowersByHand(db, channel.channel_id);
    const request = insertConnection(db, {
      account: channel.channel_account_id, channel: channel.channel_id, xchan: follower.hash, pending: byHand, unconnected: true,
      myPerms: byHand ? 0 : DEFAULT_CONNECTION_PERMS, theirPerms: o.theirPerms,
    });
    notify(hub, {
      uid: channel.channel_id, ntype: NOTIFY.INTRO, actor: follower.hash, verb: byHand ? '' : FOLLOW_NOTIFY_VERB,
      msg: byHand ? `${follower.name} wants to connect with you` : `${follower.name} connected with you`,
      link: connectionLink(hub, request), otype: 'intro',
    });
    return { pending: byHand, blocked: false };
  }
  const pending = theirs.abook_pending === 1;
  updateConnection(db, theirs.abook_id, { abook_their_perms: o.theirPerms });
  if (!o.followedBefore && !theirs.abook_blocked) {
    // A follow asked anew waits again, even where an earlier request was ignored. Where they
    // count the channel among their connections already (they follow it, or accepted it
    // before), it is a new follower all the same, accepted at once.
    if (pending) updateConnection(db, theirs.abook_id, { abook_ignored: 0 });
    notify(hub, {
      uid: channel.channel_id, ntype: NOTIFY.INTRO, actor: follower.hash, verb: pending ? '' : FOLLOW_NOTIFY_VERB,
      msg: pending ? `${follower.name} wants to connect with you` : `${follower.name} connected with you`,
      link: connectionLink(hub, theirs.abook_id), otype: 'intro',
    });
  }
  return { pending, blocked: theirs.abook_blocked === 1 };
}

/**
 * A follower of `channel` stops following it: a record kept only for their follow goes (their
 * request with it); a request the channel left unanswered no longer waits.
 */
export function followerLeft(hub: Hub, channel: ChannelRow, followerHash: string): void {
  const theirs = getConnection(hub.db, channel.channel_id, followerHash);
  if (!theirs || theirs.abook_blocked || theirs.abook_self) return;
  if (theirs.abook_unconnected) deleteConnection(hub.db, theirs.abook_id);
  // They follow the channel but never accepted it: nothing waits for their answer any more,
  // and it stays no connection of theirs.
  else if (theirs.abook_pending) updateConnection(hub.db, theirs.abook_id, { abook_ignored: 1 });
}

/**
 * The channel's follow of `targetHash` ends (it unfollowed, or their server refused or blocked it):
 * its record of them stays while they follow the channel or ask to, and goes otherwise.
 */
export function followEnded(hub: Hub, channel: ChannelRow, targetHash: string): void {
  const db = hub.db;
  const mine = getConnection(db, channel.channel_id, targetHash);
  if (!mine || mine.abook_self || mine.abook_unconnected) return;
  const local = getChannelByHash(db, targetHash);
  const theirs = local && getConnection(db, local.channel_id, channel.channel_hash);
  const theyFollow = Boolean(theirs && !theirs.abook_unconnected) || (!local && followsChannel(db, channel.channel_id, targetHash));
  if (mine.abook_pending || mine.abook_blocked || theyFollow) updateConnection(db, mine.abook_id, { abook_unconnected: 1 });
  else deleteConnection(db, mine.abook_id);
}

/**
 * Before `channel` blocks `targetHash`, as Mastodon does: neither follows the other any more. Its
 * follow of them ends (someone elsewhere gets Undo of the Follow), and so does their follow of it
 * or their request (someone elsewhere gets a Reject of it; a channel here stops following).
 */
export function endFollowsBothWays(hub: Hub, channel: ChannelRow, targetHash: string): void {
  const db = hub.db;
  const mine = getConnection(db, channel.channel_id, targetHash);
  if (mine && !mine.abook_self && !mine.abook_unconnected) disconnect(hub, channel, targetHash);
  const local = getChannelByHash(db, targetHash);
  const theirs = local && getConnection(db, local.channel_id, channel.channel_hash);
  if (local && theirs && !theirs.abook_self && !theirs.abook_unconnected) disconnect(hub, local, channel.channel_hash);
  if (!local && followsChannel(db, channel.channel_id, targetHash)) {
    emitSocialEvent(hub, { kind: 'reject', channel, follower: targetHash });
    followerLeft(hub, channel, targetHash);
  }
}

/** Where a connection is seen and answered in the UI. */
function connectionLink(hub: Hub, abookId: number | undefined): string {
  return `${hub.baseUrl}/connections${abookId ? `/${abookId}` : ''}`;
}

function pendingRequest(hub: Hub, channel: ChannelRow, abookId: number, answer: 'accepted' | 'ignored' | 'rejected'): ConnectionRow {
  const c = getConnectionById(hub.db, channel.channel_id, abookId);
  if (!c || c.abook_self || c.abook_blocked) throw notFound('connection not found');
  if (!c.abook_pending) throw badRequest(`only a connection request that waits for an answer can be ${answer}`);
  return c;
}

/**
 * The channel accepts a follow request (also one ignored before): the follower becomes a
 * connection with the default permissions and is told; the channel's notification of the request
 * tells of the follow from now on. The channel does not follow them by this.
 */
export function approveRequest(hub: Hub, channel: ChannelRow, abookId: number): ConnectionRow {
  const db = hub.db;
  return db.transaction(() => {
    const c = pendingRequest(hub, channel, abookId, 'accepted');
    updateConnection(db, c.abook_id, { abook_pending: 0, abook_ignored: 0, abook_connected: nowDb(), abook_my_perms: c.abook_my_perms || DEFAULT_CONNECTION_PERMS });
    const other = getChannelByHash(db, c.abook_xchan);
    const theirs = other && getConnection(db, other.channel_id, channel.channel_hash);
    if (theirs) updateConnection(db, theirs.abook_id, { abook_their_perms: c.abook_my_perms || DEFAULT_CONNECTION_PERMS });
    const name = getXchan(db, c.abook_xchan)?.xchan_name || 'They';
    settleRequestNotifications(db, channel.channel_id, c.abook_xchan, { ntype: NOTIFY.INTRO, verb: FOLLOW_NOTIFY_VERB, msg: `${name} follows you now: you accepted their request` });
    if (other) notify(hub, { uid: other.channel_id, ntype: NOTIFY.CONFIRM, actor: channel.channel_hash, msg: `${channel.channel_name} accepted your connection request`, link: connectionLink(hub, theirs?.abook_id), otype: 'intro' });
    else emitSocialEvent(hub, { kind: 'accept', channel, follower: c.abook_xchan });
    return getConnectionById(db, channel.channel_id, abookId)!;
  })();
}

/**
 * The channel ignores a connection request: it stays unanswered (they get no access) and is no
 * longer among the requests waiting; accepting it later is still possible. 400 for anything but
 * a pending request.
 */
export function ignoreRequest(hub: Hub, channel: ChannelRow, abookId: number): ConnectionRow {
  const db = hub.db;
  return db.transaction(() => {
    const c = pendingRequest(hub, channel, abookId, 'ignored');
    updateConnection(db, c.abook_id, { abook_ignored: 1 });
    return getConnectionById(db, channel.channel_id, abookId)!;
  })();
}

/**
 * The channel rejects a follow request (Mastodon's reject): their follow ends as if they had
 * unfollowed, so they may ask again and keep what anyone may do. Ignoring (ignoreRequest) keeps
 * the request, unanswered, and them without access.
 */
export function rejectRequest(hub: Hub, channel: ChannelRow, abookId: number): void {
  const db = hub.db;
  db.transaction(() => {
    const c = pendingRequest(hub, channel, abookId, 'rejected');
    const follower = getChannelByHash(db, c.abook_xchan);
    const theirs = follower && getConnection(db, follower.channel_id, channel.channel_hash);
    if (!follower) emitSocialEvent(hub, { kind: 'reject', channel, follower: c.abook_xchan });
    if (follower && theirs && !theirs.abook_unconnected) disconnect(hub, follower, channel.channel_hash);
    else if (c.abook_unconnected) deleteConnection(db, c.abook_id);
    else updateConnection(db, c.abook_id, { abook_ignored: 1 });
  })();
}

/**
 * The channel stops following `targetHash` (404 when it does not follow them). Its record of them
 * stays while they follow the channel or ask to; on their side, a record kept only for this follow
 * goes (its request with it), and a request of the channel's that they left unanswered no longer waits.
 */
export function disconnect(hub: Hub, channel: ChannelRow, targetHash: string): ConnectionRow {
  const db = hub.db;
  return db.transaction(() => {
    const mine = getConnection(db, channel.channel_id, targetHash);
    if (!mine || mine.abook_self || mine.abook_unconnected) throw notFound('not connected to that channel');
    const local = getChannelByHash(db, targetHash);
    if (!local) emitSocialEvent(hub, { kind: 'unfollow', channel, target: targetHash });
    followEnded(hub, channel, targetHash);
    if (local) followerLeft(hub, local, channel.channel_hash);
    return mine;
  })();
}
