import type { Hub } from '../hub.js';
import type { ChannelRow } from '../store/rows.js';
import { getChannelByHash } from '../store/channels.js';
import { getPConfig } from '../store/config.js';
import { deleteConnection, getConnection, getConnectionById, insertConnection, updateConnection, type ConnectionRow } from '../store/connections.js';
import { getXchan } from '../store/xchans.js';
import { badRequest, notFound } from '../http/errors.js';
import { nowDb } from '../util/time.js';
import { notify, NOTIFY } from './notifications.js';

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

/** Whether a channel accepts connection requests without asking (pconfig system/autoperms = 1). */
export function autoAccepts(hub: Hub, channelId: number): boolean {
  return getPConfig(hub.db, channelId, 'system', 'autoperms') === '1';
}

export interface ConnectResult {
  connection: ConnectionRow;
  /** True when the other side has not accepted yet. */
  pending: boolean;
}

/**
 * `channel` connects to (follows) `targetHash`. The channel's own connection is active at once.
 * A local target gets an incoming request that stays pending until it connects back (or at once
 * when it auto-accepts); connecting back to a pending request accepts it.
 */
export function connect(hub: Hub, channel: ChannelRow, targetHash: string): ConnectResult {
  const db = hub.db;
  if (targetHash === channel.channel_hash) throw badRequest('a channel cannot connect to itself');
  const target = getXchan(db, targetHash);
  if (!target) throw notFound('no such channel');
  return db.transaction(() => {
    let mine = getConnection(db, channel.channel_id, targetHash);
    if (!mine) {
      insertConnection(db, { account: channel.channel_account_id, channel: channel.channel_id, xchan: targetHash, pending: false, myPerms: DEFAULT_CONNECTION_PERMS, theirPerms: 0 });
    } else if (mine.abook_pending) {
      // Accepting their request (also one ignored before).
      updateConnection(db, mine.abook_id, { abook_pending: 0, abook_ignored: 0, abook_connected: nowDb(), abook_my_perms: DEFAULT_CONNECTION_PERMS });
      const other = getChannelByHash(db, targetHash);
      const theirs = other && getConnection(db, other.channel_id, channel.channel_hash);
      if (other) notify(hub, { uid: other.channel_id, ntype: NOTIFY.CONFIRM, actor: channel.channel_hash, msg: `${channel.channel_name} accepted your connection request`, link: connectionLink(hub, theirs?.abook_id), otype: 'intro' });
    }
    let pending = false;
    const local = getChannelByHash(db, targetHash);
    if (local) {
      const theirs = getConnection(db, local.channel_id, channel.channel_hash);
      if (!theirs) {
        const auto = autoAccepts(hub, local.channel_id);
        const request = insertConnection(db, { account: local.channel_account_id, channel: local.channel_id, xchan: channel.channel_hash, pending: !auto, myPerms: auto ? DEFAULT_CONNECTION_PERMS : 0, theirPerms: DEFAULT_CONNECTION_PERMS });
        pending = !auto;
        notify(hub, {
          uid: local.channel_id, ntype: NOTIFY.INTRO, actor: channel.channel_hash,
          msg: auto ? `${channel.channel_name} connected with you` : `${channel.channel_name} wants to connect with you`,
          link: connectionLink(hub, request), otype: 'intro',
        });
      } else {
        pending = theirs.abook_pending === 1;
        const mineNow = getConnection(db, channel.channel_id, targetHash)!;
        updateConnection(db, theirs.abook_id, { abook_their_perms: mineNow.abook_my_perms });
      }
    }
    mine = getConnection(db, channel.channel_id, targetHash)!;
    return { connection: mine, pending };
  })();
}

/** Where a connection is seen and answered in the UI. */
function connectionLink(hub: Hub, abookId: number | undefined): string {
  return `${hub.baseUrl}/connections${abookId ? `/${abookId}` : ''}`;
}

/**
 * The channel ignores a connection request: it stays unanswered (they get no access) and is no
 * longer among the requests waiting; accepting it later is still possible. 400 for anything but
 * a pending request.
 */
export function ignoreRequest(hub: Hub, channel: ChannelRow, abookId: number): ConnectionRow {
  const db = hub.db;
  return db.transaction(() => {
    const c = getConnectionById(db, channel.channel_id, abookId);
    if (!c || c.abook_self) throw notFound('connection not found');
    if (!c.abook_pending) throw badRequest('only a connection request that waits for an answer can be ignored');
    updateConnection(db, c.abook_id, { abook_ignored: 1 });
    return getConnectionById(db, channel.channel_id, abookId)!;
  })();
}

/** Removes the channel's connection to `targetHash` (and its group memberships). */
export function disconnect(hub: Hub, channel: ChannelRow, targetHash: string): ConnectionRow {
  const existing = getConnection(hub.db, channel.channel_id, targetHash);
  if (!existing || existing.abook_self) throw notFound('not connected to that channel');
  deleteConnection(hub.db, existing.abook_id);
  return existing;
}
