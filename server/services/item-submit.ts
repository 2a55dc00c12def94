import type { Hub } from '../hub-context.js';
import { writeTogether } from '../db/group-commit.js';
import type { ChannelRow, ItemRow } from '../store/rows.js';
import { findItemByIconfig, getItem } from '../store/items.js';
import { notFound } from '../http/errors.js';
import { createItem, editItem, resolveParent, signAhead, type EditInput, type PostInput } from './items.js';
import { bodyWithMedia, itemAttachJson, withPostMedia, type PostMedia } from './media.js';
import type { FileSource } from './attachments.js';
import { PUBLIC_ACL, type AccessLists } from './acl.js';

/** What item/update asks for: a new item or an edit, possibly with uploaded media. */
export interface ItemSubmission {
  /** post_id: an edit of this item. */
  editId?: number;
  /** namespace + remote_id: an item identified by this external id is edited instead of created. */
  external?: { namespace: string; remoteId: string };
  post: PostInput;
  edit: EditInput;
  media: FileSource[];
  /** The album (top-level folder) the media go to; the month's when absent, none when ''. */
  album?: string;
}

function aclOf(row: AccessLists): AccessLists {
  return { allow_cid: row.allow_cid, allow_gid: row.allow_gid, deny_cid: row.deny_cid, deny_gid: row.deny_gid };
}

/** The audience the uploaded media get: the post's, which for a comment or an edit is the thread's. */
function mediaAudience(hub: Hub, channel: ChannelRow, s: ItemSubmission, editId: number | undefined): AccessLists {
  if (editId !== undefined) {
    const item = getItem(hub.db, editId);
    if (!item || item.item_deleted || item.author_xchan !== channel.channel_hash) throw notFound('item not found');
    return s.edit.acl ?? aclOf(item);
  }
  if (s.post.parentId !== undefined || s.post.parentMid) {
    const replyTo = resolveParent(hub, s.post.author ?? channel.channel_hash, { id: s.post.parentId, mid: s.post.parentMid });
    const top = replyTo.item_thread_top ? replyTo : getItem(hub.db, replyTo.parent);
    if (!top) throw notFound('parent item not found');
    return aclOf(top);
  }
  return s.post.acl ?? PUBLIC_ACL;
}

function mergedAttach(existing: string, media: PostMedia[]): string | undefined {
  if (!media.length) return undefined;
  let entries: unknown[] = [];
  try {
    const parsed = existing ? JSON.parse(existing) : [];
    if (Array.isArray(parsed)) entries = parsed;
  } catch {
    // An unreadable attach value is replaced.
  }
  return JSON.stringify([...entries, ...JSON.parse(itemAttachJson(media))]);
}

/**
 * Creates or edits an item for item/update. Uploaded media are stored with the post's audience
 * and linked from its body (and item.attach) in the same transaction as the item.
 */
export async function submitItem(hub: Hub, channel: ChannelRow, s: ItemSubmission): Promise<ItemRow> {
  const known = s.editId === undefined && s.external ? findItemByIconfig(hub.db, channel.channel_id, 'system', s.external.namespace, s.external.remoteId) : undefined;
  const editId = s.editId ?? known?.id;
  const signed = editId === undefined && !s.media.length && !s.post.author ? await signAhead(channel, s.post.body) : undefined;
  const write = (media: PostMedia[]): ItemRow => {
    if (editId !== undefined) {
      const attach = media.length ? mergedAttach(getItem(hub.db, editId)?.attach ?? '', media) : undefined;
      return editItem(hub, channel, editId, { ...s.edit, body: bodyWithMedia(s.edit.body ?? '', media), attach });
    }
    return createItem(hub, channel, { ...s.post, body: bodyWithMedia(s.post.body, media), attach: itemAttachJson(media) || s.post.attach, signed });
  };
  if (!s.media.length) return writeTogether(hub.db, () => write([]));
  return withPostMedia(hub, channel, s.media, mediaAudience(hub, channel, s, editId), write, s.album);
}
