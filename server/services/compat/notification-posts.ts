import type { Hub } from '../../hub-context.js';
import type { ItemRow, NotifyRow } from '../../store/rows.js';
import { itemsByIds, itemsByUidMid, visibleAmong } from '../../store/item-batch.js';
import { bodyToText } from '../../content/render.js';
import { NOTIFY } from '../notifications.js';
import { VERB } from '../verbs.js';

/** The post a notification is about, as ext/notifications tells it: its id and its first line. */
export interface NotificationPost {
  id: number;
  excerpt: string;
}

/** The longest excerpt, in characters; a longer first line is cut at a word and ends in "…". */
const EXCERPT_MAX = 140;

/** The first line of a post's text (its title when it has one), at most EXCERPT_MAX characters. */
export function excerptOf(item: Pick<ItemRow, 'title' | 'body' | 'mimetype'>): string {
  const text = item.title.trim() || bodyToText(item.body, item.mimetype || 'text/bbcode');
  const line = text.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  if (line.length <= EXCERPT_MAX) return line;
  const cut = line.slice(0, EXCERPT_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > EXCERPT_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

type Subject = { id: number } | { activity: number };

/**
 * Which item a notification is about: what was liked or disliked (the activity item `iid` names it
 * by its message id), the post shared, the post commented on (the thread's top), the post that
 * mentions the channel, was written on its wall or was posted by someone it follows. Messages and
 * connections are about no post.
 */
function subjectOf(n: NotifyRow): Subject | undefined {
  if (n.otype !== 'item') return undefined;
  if (n.ntype === NOTIFY.LIKE) return n.verb === VERB.SHARE ? (n.iid ? { id: n.iid } : undefined) : n.iid ? { activity: n.iid } : undefined;
  if (n.ntype === NOTIFY.COMMENT) return n.parent ? { id: n.parent } : undefined;
  if (n.ntype === NOTIFY.TAGSELF || n.ntype === NOTIFY.WALL || n.ntype === NOTIFY.POST) return n.iid ? { id: n.iid } : undefined;
  return undefined;
}

/**
 * The posts these notifications of `observer`'s channel are about, by notification id, with a
 * fixed number of queries: only those the channel may still see (not deleted, still in its audience).
 */
export function notificationPosts(hub: Hub, observer: string, rows: NotifyRow[]): Map<number, NotificationPost> {
  const db = hub.db;
  const subjects = new Map<number, Subject>();
  for (const n of rows) {
    const s = subjectOf(n);
    if (s) subjects.set(n.id, s);
  }
  // A like is an item of its own, in the thread of what it likes (its thr_parent).
  const activityIds = [...subjects.values()].flatMap((s) => ('activity' in s ? [s.activity] : []));
  const activities = new Map(itemsByIds(db, activityIds).map((a) => [a.id, a]));
  const liked = new Map(itemsByUidMid(db, [...activities.values()].map((a) => ({ uid: a.uid, mid: a.thr_parent }))).map((t) => [`${t.uid} ${t.mid}`, t.id]));
  const postIdOf = (s: Subject): number | undefined => {
    if ('id' in s) return s.id;
    const a = activities.get(s.activity);
    return a && liked.get(`${a.uid} ${a.thr_parent}`);
  };
  const postIds = new Map<number, number>();
  for (const [nid, s] of subjects) {
    const id = postIdOf(s);
    if (id) postIds.set(nid, id);
  }
  const visible = visibleAmong(db, [...new Set(postIds.values())], observer);
  const posts = new Map(itemsByIds(db, [...visible]).map((i) => [i.id, i]));
  const out = new Map<number, NotificationPost>();
  for (const [nid, id] of postIds) {
    const post = posts.get(id);
    if (post) out.set(nid, { id, excerpt: excerptOf(post) });
  }
  return out;
}
