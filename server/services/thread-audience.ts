import type { Db } from '../db/open.js';
import type { ItemRow } from '../store/rows.js';
import { getChannelByHash } from '../store/channels.js';
import { getThread, setThreadChildrenAcl, updateItem } from '../store/items.js';
import { getAttachByHash, updateAttach } from '../store/attachments.js';
import { getPhotoItem, getPhotoScales, updatePhotoResource } from '../store/photos.js';
import { isPublicAcl, type AccessLists } from './acl.js';

/** This hub's photos and files named in an item's text or attachments: /photo/<hash>-<scale>, /attach/<hash>. */
const MEDIA_URL = /\/(?:photo|attach)\/([0-9a-f]{64})/gi;

function mediaOf(item: ItemRow): string[] {
  const text = `${item.body}\n${item.attach}`;
  return [...new Set(Array.from(text.matchAll(MEDIA_URL), (m) => m[1]!.toLowerCase()))];
}

/**
 * After a thread top's audience changed: the rest of the thread (comments, likes, other
 * activities) and the photos and files its items carry take the same audience, as Hubzilla gives
 * a post's attachments its permissions. Only media of the item's own author follow (nobody's edit
 * changes another channel's files). Run it in the edit's transaction.
 */
export function applyThreadAudience(db: Db, top: ItemRow, acl: AccessLists): void {
  const lists = { allow_cid: acl.allow_cid, allow_gid: acl.allow_gid, deny_cid: acl.deny_cid, deny_gid: acl.deny_gid };
  const itemPrivate = isPublicAcl(lists) ? 0 : 1;
  setThreadChildrenAcl(db, top.id, { ...lists, item_private: itemPrivate });
  const seen = new Set<string>();
  for (const item of getThread(db, top.id)) {
    const author = getChannelByHash(db, item.author_xchan);
    if (!author) continue;
    for (const hash of mediaOf(item)) {
      if (seen.has(hash)) continue;
      seen.add(hash);
      const attach = getAttachByHash(db, hash);
      if (!attach || attach.uid !== author.channel_id) continue;
      const scales = getPhotoScales(db, hash);
      // Profile and cover photos stay as they are: everybody sees the channel's face.
      if (scales.some((p) => p.profile || p.photo_usage)) continue;
      updateAttach(db, attach.id, lists);
      if (!scales.length) continue;
      updatePhotoResource(db, hash, lists);
      // The photo's own item (and what was said on it) follows too, unless it is this thread.
      const photoItem = getPhotoItem(db, author.channel_id, hash);
      if (photoItem && photoItem.id !== top.id) {
        updateItem(db, photoItem.id, { ...lists, item_private: itemPrivate });
        setThreadChildrenAcl(db, photoItem.id, { ...lists, item_private: itemPrivate });
      }
    }
  }
}
