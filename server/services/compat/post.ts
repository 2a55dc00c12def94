import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { getItem } from '../../store/items.js';
import { badRequest } from '../../http/errors.js';
import type { FileSource } from '../attachments.js';
import { createItem, signAhead } from '../items.js';
import { bodyWithMedia, claimMedia, itemAttachJson, withPostMedia, type PostMedia } from '../media.js';
import { writeTogether } from '../../db/group-commit.js';
import type { AccessLists } from '../acl.js';

export interface StatusInput {
  text: string;
  title?: string;
  /** How the text is written: text/bbcode (the default), text/markdown or text/plain. */
  mimetype?: string;
  /** The posting client (item.app). */
  app: string;
  acl: AccessLists;
  /** Makes the status a reply to this item. */
  inReplyTo?: number;
  /** 'lat long' */
  coord?: string;
  /** Uploads of media/upload to attach. */
  mediaIds: number[];
  /** Files uploaded with the status. */
  files: FileSource[];
}

/**
 * statuses/update and update_with_media: a post, or a reply when inReplyTo is set, with its media.
 * Uploaded files, claimed uploads and the item are written together or not at all; media take the
 * audience of the post (for a reply, of its thread).
 */
export async function postStatus(hub: Hub, channel: ChannelRow, input: StatusInput): Promise<ItemRow> {
  if (!input.text.trim() && !input.mediaIds.length && !input.files.length) throw badRequest('status is empty');
  let acl = input.acl;
  if (input.inReplyTo !== undefined) {
    const parent = getItem(hub.db, input.inReplyTo);
    const top = parent && (parent.item_thread_top ? parent : getItem(hub.db, parent.parent));
    // createItem checks the parent again and refuses unknown or invisible ones.
    if (top) acl = { allow_cid: top.allow_cid, allow_gid: top.allow_gid, deny_cid: top.deny_cid, deny_gid: top.deny_gid };
  }
  const textOnly = !input.files.length && !input.mediaIds.length;
  const signed = textOnly ? await signAhead(channel, input.text) : undefined;
  const post = (media: PostMedia[]) =>
    createItem(hub, channel, {
      body: bodyWithMedia(input.text, media),
      title: input.title,
      mimetype: input.mimetype,
      app: input.app,
      acl: input.acl,
      parentId: input.inReplyTo,
      coord: input.coord,
      attach: itemAttachJson(media),
      signed,
    });
  if (textOnly) return writeTogether(hub.db, () => post([]));
  return withPostMedia(hub, channel, input.files, acl, (uploaded) => post([...uploaded, ...claimMedia(hub, channel, input.mediaIds, acl)]));
}
