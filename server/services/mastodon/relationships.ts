import type { Hub } from '../../hub-context.js';
import type { ChannelRow, XchanRow } from '../../store/rows.js';
import { viewerConnections } from '../../store/user-facts.js';
import { followStates } from '../../store/social-graph.js';
import { deleteConnection, getAbconfig, getConnection, insertConnection, POST_SUBSCRIPTION, setAbconfig, updateConnection } from '../../store/connections.js';
import { mastodonRelationship } from '../../serializers/mastodon/relationship.js';
import { HttpError } from '../../http/errors.js';
import { endFollowsBothWays } from '../connections.js';
import { emitSocialEvent } from '../social-events.js';

/** How the channel relates to each of these identities. */
export function relationships(hub: Hub, channel: ChannelRow, people: XchanRow[]) {
  const db = hub.db;
  const hashes = people.map((p) => p.xchan_hash);
  const mine = viewerConnections(db, channel.channel_id, hashes);
  const states = followStates(db, channel.channel_id, channel.channel_hash, hashes);
  return people.map((p) => {
    const c = mine.get(p.xchan_hash);
    const s = states.get(p.xchan_hash);
    const following = Boolean(s?.following);
    return mastodonRelationship({
      id: p.xchan_id,
      following,
      requested: Boolean(s?.requested),
      followedBy: Boolean(s?.followedBy),
      requestedBy: Boolean(s?.requestedBy),
      blocking: Boolean(c && !c.abook_self && c.abook_blocked),
      muting: getAbconfig(db, channel.channel_id, p.xchan_hash, 'mastodon', 'muted') === '1',
      notifying: following && getAbconfig(db, channel.channel_id, p.xchan_hash, POST_SUBSCRIPTION.cat, POST_SUBSCRIPTION.k) === '1',
    });
  });
}

/**
 * Blocks or unblocks: the connection record is kept (or made) with the block flag, as the
 * connections page does it, so that blocked channels see none of the channel's posts. A block
 * ends the follows both ways first (as Mastodon does); someone elsewhere is sent Block, and
 * Undo of it on unblock.
 */
export function setBlocked(hub: Hub, channel: ChannelRow, target: XchanRow, on: boolean): void {
  if (target.xchan_hash === channel.channel_hash) throw new HttpError(422, 'Validation failed: you cannot block yourself');
  const db = hub.db;
  db.transaction(() => {
    const was = Boolean(getConnection(db, channel.channel_id, target.xchan_hash)?.abook_blocked);
    if (on === was) return;
    if (on) endFollowsBothWays(hub, channel, target.xchan_hash);
    // Told before the record (and what it keeps of the Block sent) may go.
    else emitSocialEvent(hub, { kind: 'unblock', channel, target: target.xchan_hash });
    const c = getConnection(db, channel.channel_id, target.xchan_hash);
    // A record kept only for the block (nobody follows, nothing waits for an answer) goes with it.
    if (c && !on && c.abook_unconnected && c.abook_pending && c.abook_ignored) deleteConnection(db, c.abook_id);
    else if (c) updateConnection(db, c.abook_id, { abook_blocked: on ? 1 : 0 });
    else if (on) {
      const id = insertConnection(db, { account: channel.channel_account_id, channel: channel.channel_id, xchan: target.xchan_hash, pending: true, unconnected: true, myPerms: 0, theirPerms: 0 });
      updateConnection(db, id, { abook_blocked: 1, abook_ignored: 1 });
    }
    if (on) emitSocialEvent(hub, { kind: 'block', channel, target: target.xchan_hash });
  })();
}

/** Mutes are remembered per connection (abconfig); the hub has no notion that hides their posts. */
export function setMuted(hub: Hub, channel: ChannelRow, target: XchanRow, on: boolean): void {
  if (target.xchan_hash === channel.channel_hash) throw new HttpError(422, 'Validation failed: you cannot mute yourself');
  setAbconfig(hub.db, channel.channel_id, target.xchan_hash, 'mastodon', 'muted', on ? '1' : '0');
}

/** Asks to be told of each new post of `target` (a Mastodon app's bell on a profile), or stops. */
export function setPostSubscription(hub: Hub, channel: ChannelRow, target: XchanRow, on: boolean): void {
  setAbconfig(hub.db, channel.channel_id, target.xchan_hash, POST_SUBSCRIPTION.cat, POST_SUBSCRIPTION.k, on ? '1' : '0');
}
