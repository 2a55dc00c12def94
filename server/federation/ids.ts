import type { Db } from '../db/open.js';
import { getChannelByHash } from '../store/channels.js';
import { getXchan } from '../store/xchans.js';

export { objectIdOf } from '../util/ids.js';

/** The uuid of one of the hub's items named by its ActivityPub id, if the id is the hub's. */
export function localUuidOf(publicUrl: string, id: string): string | undefined {
  const prefix = publicUrl + '/item/';
  return id.startsWith(prefix) ? id.slice(prefix.length).split(/[#?]/)[0] : undefined;
}

/** The ActivityPub actor id of an identity: a channel of the hub, or a remote actor; undefined for others. */
export function actorIdOf(db: Db, publicUrl: string, xchanHash: string): string | undefined {
  const channel = getChannelByHash(db, xchanHash);
  if (channel) return `${publicUrl}/channel/${channel.channel_address}`;
  const x = getXchan(db, xchanHash);
  return x?.xchan_network === 'activitypub' ? x.xchan_hash : undefined;
}

/** The actor id of a channel of the hub. */
export const channelActorId = (publicUrl: string, nick: string) => `${publicUrl}/channel/${nick}`;
