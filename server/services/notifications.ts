import type { Hub } from '../hub-context.js';
import { getChannel } from '../store/channels.js';
import { insertNotification } from '../store/notify.js';
import { getXchan } from '../store/xchans.js';
import { nowDb } from '../util/time.js';
import { randomUUID } from 'node:crypto';
import type { ChannelRow, XchanRow } from '../store/rows.js';

/** Notification types (notify.ntype bits, as Hubzilla and Friendica number them). */
export const NOTIFY = {
  INTRO: 1,
  CONFIRM: 2,
  WALL: 4,
  COMMENT: 8,
  MAIL: 16,
  TAGSELF: 128,
  LIKE: 1024,
  /** Not a Hubzilla kind: a post by someone the channel asked to hear of (Mastodon's "status"). */
  POST: 0x10000,
} as const;

export interface NotificationEvent {
  /** The channel to notify. */
  uid: number;
  ntype: number;
  /** Who did it (xchan hash). */
  actor: string;
  /** BBCode text; '{0}' is not used, the actor's name is written out. */
  msg: string;
  link: string;
  iid?: number;
  parent?: number;
  verb?: string;
  otype: 'item' | 'intro' | 'mail';
  /** The channel `uid` and the actor's xchan, when the caller has them at hand already. */
  known?: { channel?: ChannelRow; actor?: XchanRow };
}

/**
 * A URL of this hub as a path (/display/…), so that a stored notification follows the hub when
 * its base URL changes (another port, LAN access on or off); other URLs stay as they are.
 */
function hubPath(hub: Hub, url: string): string {
  return url.startsWith(`${hub.baseUrl}/`) ? url.slice(hub.baseUrl.length) : url;
}

/**
 * Records a notification for a local channel and tells the desktop shell (hub.events
 * 'notification', channel id, notification id). Nobody is notified of their own actions.
 */
export function notify(hub: Hub, e: NotificationEvent): number | undefined {
  const channel = e.known?.channel?.channel_id === e.uid ? e.known.channel : getChannel(hub.db, e.uid);
  if (!channel || channel.channel_hash === e.actor) return undefined;
  const actor = e.known?.actor?.xchan_hash === e.actor ? e.known.actor : getXchan(hub.db, e.actor);
  const id = insertNotification(hub.db, {
    // Only needs to be unique; randomUUID draws from a buffered pool instead of asking OpenSSL each time.
    hash: randomUUID().replaceAll('-', ''),
    xname: actor?.xchan_name ?? '',
    url: hubPath(hub, actor?.xchan_url ?? ''),
    photo: hubPath(hub, actor?.xchan_photo_s ?? ''),
    created: nowDb(),
    msg: e.msg,
    aid: channel.channel_account_id,
    uid: e.uid,
    link: hubPath(hub, e.link),
    iid: e.iid ?? 0,
    parent: e.parent ?? 0,
    ntype: e.ntype,
    verb: e.verb ?? '',
    otype: e.otype,
    xchan: e.actor,
  });
  // After the surrounding transaction has committed.
  setImmediate(() => hub.events.emit('notification', e.uid, id));
  return id;
}
