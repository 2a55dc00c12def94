import { ApiError, COMPAT, NATIVE, get, post, upload, type UploadHandle } from './http.ts';
import type { ItemUpdateResult, NativeItem, Status } from './types.ts';

export const PAGE_SIZE = 10;

/** One page of the owner's network stream, newest first; `maxId` is inclusive, as in Twitter. */
export function homeTimeline(maxId?: number, count = PAGE_SIZE): Promise<Status[]> {
  return get<Status[]>(`${COMPAT}statuses/home_timeline`, { count, max_id: maxId, exclude_replies: true });
}

/** One page of a channel's posts that the owner may see, newest first. */
export function userTimeline(screenName: string, maxId?: number, count = PAGE_SIZE): Promise<Status[]> {
  return get<Status[]>(`${COMPAT}statuses/user_timeline`, { screen_name: screenName, count, max_id: maxId, exclude_replies: true });
}

/** One page of full-text search results (`#tag` finds the posts tagged so), newest first. */
export function searchStatuses(q: string, maxId?: number, count = PAGE_SIZE): Promise<Status[]> {
  return get<Status[]>(`${COMPAT}search`, { q, count, max_id: maxId });
}

const THREAD_PAGE = 100;

/**
 * Every post and comment of the thread containing `id`, replies to comments included
 * (conversation/show gives only the direct answers), read a page at a time, newest first.
 */
export async function conversation(id: number): Promise<Status[]> {
  const all: Status[] = [];
  for (let maxId: number | undefined; ; ) {
    const page = await get<Status[]>(`${COMPAT}statuses/show`, { id, conversation: 1, count: THREAD_PAGE, max_id: maxId });
    all.push(...page);
    if (page.length < THREAD_PAGE) return all;
    maxId = Math.min(...page.map((s) => s.id)) - 1;
  }
}

export function showStatus(id: number): Promise<Status> {
  return get<Status>(`${COMPAT}statuses/show`, { id });
}

/** Comments on a post or answers a comment, in BBCode unless `mimetype` says otherwise. */
export function comment(parentId: number, text: string, mimetype?: string): Promise<Status> {
  return post<Status>(`${COMPAT}statuses/update`, { status: text, in_reply_to_status_id: parentId, source: 'Hearth', mimetype });
}

/** Shares (retweets) a public post to the channel's own followers, or withdraws the share. */
export function share(id: number, undo: boolean): Promise<Status> {
  return post<Status>(`${COMPAT}statuses/${undo ? 'unretweet' : 'retweet'}/${id}`, {});
}

/** Replaces the text of one of the channel's own comments (native item/update with post_id). */
export function editComment(id: number, body: string): Promise<ItemUpdateResult> {
  return post<ItemUpdateResult>(`${NATIVE}item/update`, { post_id: id, body });
}

export function destroyStatus(id: number): Promise<Status> {
  return post<Status>(`${COMPAT}statuses/destroy`, { id });
}

export type Reaction = 'like' | 'dislike';

export function react(id: number, verb: Reaction, undo: boolean): Promise<unknown> {
  return post(`${COMPAT}ext/activity/${undo ? 'un' : ''}${verb}`, { id });
}

export interface PostDraft {
  title: string;
  body: string;
  /** A content warning: shown in place of the post until opened. */
  summary?: string;
  /** How the body is written (text/bbcode unless said). */
  mimetype?: string;
  /** Group hashes and connection xchan hashes; both empty means public. */
  groups: string[];
  contacts: string[];
  location: string;
  coord: string;
  attachments: File[];
  /** The album (folder) the attachments go to. */
  album?: string;
  /** Nobody may comment on (or like) the new post. */
  commentsClosed?: boolean;
  /** Set when editing an existing post. */
  postId?: number;
}

/** Creates or edits a top-level post through the native item/update, with upload progress. */
export function publishPost(draft: PostDraft, onProgress: (fraction: number) => void): UploadHandle<ItemUpdateResult> {
  const form = new FormData();
  form.append('body', draft.body);
  form.append('title', draft.title);
  if (draft.summary) form.append('summary', draft.summary);
  if (draft.mimetype) form.append('mimetype', draft.mimetype);
  if (draft.postId) form.append('post_id', String(draft.postId));
  else {
    for (const g of draft.groups) form.append('group_allow[]', g);
    for (const c of draft.contacts) form.append('contact_allow[]', c);
    if (draft.location) form.append('location', draft.location);
    if (draft.coord) form.append('coord', draft.coord);
    if (draft.commentsClosed) form.append('nocomment', '1');
  }
  if (draft.attachments.length && draft.album !== undefined) form.append('album', draft.album);
  for (const file of draft.attachments) form.append('media', file, file.name);
  return upload<ItemUpdateResult>(`${NATIVE}item/update`, form, onProgress);
}

/** The stored source (BBCode body, title) of one of the channel's own thread tops, for editing. */
export async function itemSource(id: number): Promise<NativeItem | undefined> {
  const res = await get<{ item?: Array<NativeItem & { id?: string }> } | unknown[]>(`${NATIVE}item/full`, { item_id: id });
  const items = Array.isArray(res) ? [] : (res.item ?? []);
  return items.find((i) => String(i.id) === String(id)) ?? items[0];
}

/** A status by its message id (the `mid` in /display/<mid> and plink URLs); undefined when it is gone or hidden. */
export async function statusByMid(mid: string): Promise<Status | undefined> {
  try {
    return await get<Status>(`${COMPAT}statuses/show`, { mid });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}
