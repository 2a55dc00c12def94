import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { getItem, itemVisibleTo, setIconfig, updateItem } from '../../store/items.js';
import { deleteItemConfig, insertStatusEdit, itemOfIdempotencyKey, rememberIdempotencyKey } from '../../store/mastodon.js';
import { writeTogether } from '../../db/group-commit.js';
import { HttpError, notFound } from '../../http/errors.js';
import { nowDb, toDbDate } from '../../util/time.js';
import { createItem, deleteItem, editItem, MAX_BODY } from '../items.js';
import { bodyWithMedia, claimMedia, itemAttachJson } from '../media.js';
import { audienceFor, type Visibility } from './visibility.js';
import { learnMentioned } from '../remote-mentions.js';

export interface NewStatus {
  text: string;
  inReplyToId?: number;
  mediaIds: number[];
  sensitive: boolean;
  spoilerText: string;
  visibility: Visibility;
  app: string;
  idempotencyKey?: string;
}

const MAX_MEDIA = 4;
const MAX_SPOILER = 1000;

function invalid(message: string): HttpError {
  return new HttpError(422, `Validation failed: ${message}`);
}

function check(s: { text: string; mediaIds: number[]; spoilerText: string }): void {
  if (!s.text.trim() && !s.mediaIds.length) throw invalid("Text can't be blank");
  if (s.text.length > MAX_BODY) throw invalid(`Text character limit of ${MAX_BODY} exceeded`);
  if (s.mediaIds.length > MAX_MEDIA) throw invalid(`You can attach at most ${MAX_MEDIA} pictures`);
  if (s.spoilerText.length > MAX_SPOILER) throw invalid('Spoiler text is too long');
}

/** An item the viewer may see (404 otherwise, as Mastodon says for what is not there for you). */
export function visibleItem(hub: Hub, viewer: ChannelRow | undefined, id: number): ItemRow {
  const item = getItem(hub.db, id);
  if (!item || item.item_deleted || item.item_hidden || !itemVisibleTo(hub.db, id, viewer?.channel_hash ?? '')) throw notFound('Record not found');
  return item;
}

/**
 * POST /api/v1/statuses: a post or a reply, with claimed uploads; people elsewhere it names by
 * address are looked up first. A reply takes its thread's audience (as on the other APIs); the
 * visibility then names that audience. The same Idempotency-Key within an hour answers the first
 * post again.
 */
export async function createStatus(hub: Hub, channel: ChannelRow, s: NewStatus): Promise<ItemRow> {
  check(s);
  const db = hub.db;
  const since = toDbDate(new Date(Date.now() - 60 * 60 * 1000));
  if (s.idempotencyKey) {
    const earlier = itemOfIdempotencyKey(db, channel.channel_id, s.idempotencyKey, since);
    const item = earlier !== undefined ? getItem(db, earlier) : undefined;
    if (item && !item.item_deleted) return item;
  }
  await learnMentioned(hub, s.text);
  const acl = audienceFor(db, channel, s.visibility, s.text);
  return writeTogether(db, () => {
    const media = claimMedia(hub, channel, s.mediaIds, acl);
    const item = createItem(hub, channel, {
      body: bodyWithMedia(s.text, media),
      summary: s.spoilerText || undefined,
      app: s.app,
      acl,
      parentId: s.inReplyToId,
      attach: itemAttachJson(media),
      iconfig: [{ cat: 'mastodon', k: 'visibility', v: s.visibility }],
    });
    if (s.sensitive) updateItem(db, item.id, { item_nsfw: 1 });
    if (s.idempotencyKey) rememberIdempotencyKey(db, channel.channel_id, s.idempotencyKey, item.id, nowDb());
    return getItem(db, item.id)!;
  });
}

export interface StatusEdit {
  text: string;
  mediaIds?: number[];
  sensitive?: boolean;
  spoilerText?: string;
}

/** PUT /api/v1/statuses/:id: the author edits; the version before is kept for the history. */
export async function editStatus(hub: Hub, channel: ChannelRow, id: number, e: StatusEdit): Promise<ItemRow> {
  const db = hub.db;
  const item = getItem(db, id);
  if (!item || item.item_deleted || item.author_xchan !== channel.channel_hash) throw notFound('Record not found');
  check({ text: e.text, mediaIds: e.mediaIds ?? [], spoilerText: e.spoilerText ?? '' });
  return writeTogether(db, () => {
    insertStatusEdit(db, { iid: id, created: item.edited, html: item.html, summary: item.summary, sensitive: item.item_nsfw, attach: item.attach });
    const acl = { allow_cid: item.allow_cid, allow_gid: item.allow_gid, deny_cid: item.deny_cid, deny_gid: item.deny_gid };
    const media = e.mediaIds ? claimMedia(hub, channel, e.mediaIds, acl) : undefined;
    const body = media ? bodyWithMedia(e.text, media) : e.text;
    editItem(hub, channel, id, { body, summary: e.spoilerText ?? item.summary, attach: media ? itemAttachJson(media) : undefined });
    if (e.sensitive !== undefined) updateItem(db, id, { item_nsfw: e.sensitive ? 1 : 0 });
    setIconfig(db, id, 'mastodon', 'edited', '1');
    return getItem(db, id)!;
  });
}

/** DELETE /api/v1/statuses/:id: the author (or the thread's channel) deletes; the item before is answered. */
export function deleteStatus(hub: Hub, channel: ChannelRow, id: number): ItemRow {
  try {
    return deleteItem(hub, channel, id);
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) throw notFound('Record not found');
    throw err;
  }
}

/** Pins or unpins one of the channel's own posts on its profile. */
export function setPinned(hub: Hub, channel: ChannelRow, item: ItemRow, on: boolean): void {
  if (item.author_xchan !== channel.channel_hash || !item.item_thread_top) throw invalid('You can only pin your own posts');
  if (on) setIconfig(hub.db, item.id, 'mastodon', 'pinned', '1');
  else deleteItemConfig(hub.db, item.id, 'mastodon', 'pinned');
}

