import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { findItemByIconfig } from '../../store/items.js';
import { SHARE_ICONFIG } from '../../store/item-shares.js';
import { getXchan } from '../../store/xchans.js';
import { getChannelByHash } from '../../store/channels.js';
import { notify, NOTIFY } from '../notifications.js';
import { bodyToText } from '../../content/render.js';
import { isMediaLine } from '../../content/markup.js';
import { forbidden } from '../../http/errors.js';
import { createItem, deleteItem } from '../items.js';
import { isPublicAcl } from '../acl.js';
import { OBJ, VERB } from '../verbs.js';


function attr(s: string): string {
  return s.replace(/["\]\[]/g, '');
}

/** A Markdown or plain-text body for a BBCode share: its text, after its media lines (BBCode in any body). */
function bbcodeOf(body: string, mimetype: string): string {
  const lines = body.split('\n');
  const media = lines.filter(isMediaLine);
  const text = bodyToText(media.length ? lines.filter((l) => !isMediaLine(l)).join('\n') : body, mimetype);
  return [...media, text].filter(Boolean).join('\n');
}

/**
 * statuses/retweet: a new post of the channel with verb share that embeds the original (Hubzilla's
 * [share] BBCode) and records its id in obj. Only public posts can be shared, and only once.
 */
export function shareItem(hub: Hub, channel: ChannelRow, original: ItemRow, app: string): ItemRow {
  if (original.item_private || !isPublicAcl(original)) throw forbidden('only public statuses can be retweeted');
  if (original.verb !== VERB.POST && original.verb !== VERB.SHARE) throw forbidden('this item cannot be retweeted');
  const existing = findItemByIconfig(hub.db, channel.channel_id, SHARE_ICONFIG.cat, SHARE_ICONFIG.k, String(original.id));
  if (existing) throw forbidden('You have already retweeted this status.');
  const author = getXchan(hub.db, original.author_xchan);
  const content = original.mimetype === 'text/bbcode' ? original.body : bbcodeOf(original.body, original.mimetype);
  const body =
    `[share author="${attr(author?.xchan_name ?? '')}" profile="${attr(author?.xchan_url ?? '')}" avatar="${attr(author?.xchan_photo_s ?? '')}"` +
    ` link="${attr(original.plink)}" posted="${original.created}" message_id="${attr(original.mid)}"]${content}[/share]`;
  const share = createItem(hub, channel, {
    body,
    title: original.title,
    verb: VERB.SHARE,
    objType: OBJ.NOTE,
    obj: JSON.stringify({ type: 'Note', id: original.mid, item_id: original.id, link: original.plink }),
    app,
    iconfig: [{ ...SHARE_ICONFIG, v: String(original.id) }],
  });
  // Stored like a like (Hubzilla has no kind of its own for it), with the share verb and the shared item.
  const authorChannel = getChannelByHash(hub.db, original.author_xchan);
  if (authorChannel) notify(hub, { uid: authorChannel.channel_id, ntype: NOTIFY.LIKE, actor: channel.channel_hash, msg: `${channel.channel_name} shared your post`, link: original.llink, iid: original.id, parent: original.parent, verb: VERB.SHARE, otype: 'item' });
  return share;
}

/** statuses/unretweet: deletes the channel's share of the item, if it has one; returns whether it had. */
export function unshareItem(hub: Hub, channel: ChannelRow, original: ItemRow): boolean {
  const share = findItemByIconfig(hub.db, channel.channel_id, SHARE_ICONFIG.cat, SHARE_ICONFIG.k, String(original.id));
  if (!share) return false;
  deleteItem(hub, channel, share.id);
  return true;
}
