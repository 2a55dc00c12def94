import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow, StatusItemRow, XchanRow } from '../../store/rows.js';
import { childrenOf, itemsByIds, itemsByUidMid, termsOf, visibleAmong } from '../../store/item-batch.js';
import { foreignStars } from '../../store/item-stars.js';
import { sharesAmong } from '../../store/item-shares.js';
import { fullScalesOf } from '../../store/photos.js';
import { getChannel } from '../../store/channels.js';
import { parseAttach } from '../../serializers/compat/status.js';
import { photoUrls } from '../photos.js';
import { TERM_HASHTAG, TERM_MENTION } from '../../content/terms.js';
import { compatStatus, emptyActivities, type ActivityName, type CompatStatus, type StatusPhoto, type StatusTerm } from '../../serializers/compat/status.js';
import { compatUser, NO_RELATION, type CompatUser } from '../../serializers/compat/user.js';
import { CONTENT_VERBS, VERB } from '../verbs.js';
import { loadUsers } from './users.js';

export interface StatusLoadOptions {
  includeEntities?: boolean;
  extended?: boolean;
  /** How the people the statuses name become users; by default loadUsers for the viewer. */
  loadPeople?: (hashes: Set<string>) => Map<string, CompatUser>;
  /**
   * For loaders that only count likes and the like (the Mastodon API): the people of each item's
   * activities are reported here by xchan hash, keyed by item id, and not loaded as users (the
   * statuses' activity lists hold placeholders). A federated page names more likers than authors.
   */
  activitiesOut?: Map<number, Record<ActivityName, string[]>>;
}

const ACTIVITY_BY_VERB: Record<string, ActivityName> = {
  [VERB.LIKE]: 'like',
  [VERB.DISLIKE]: 'dislike',
  [VERB.ATTENDYES]: 'attendyes',
  [VERB.ATTENDNO]: 'attendno',
  [VERB.ATTENDMAYBE]: 'attendmaybe',
};

const CONTENT = new Set<string>(CONTENT_VERBS);

/** The item a share (statuses/retweet) embeds: its id is kept in the share's obj. */
export function sharedItemId(item: Pick<ItemRow, 'verb' | 'obj'>): number | undefined {
  if (item.verb !== VERB.SHARE || !item.obj) return undefined;
  try {
    const id = (JSON.parse(item.obj) as { item_id?: unknown }).item_id;
    return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

function placeholderUser(hash: string): CompatUser {
  const xchan = { xchan_id: 0, xchan_hash: hash, xchan_name: 'unknown', xchan_addr: '', xchan_url: '', xchan_photo_s: '', xchan_photo_m: '', xchan_photo_l: '', xchan_network: '', xchan_name_date: '0001-01-01 00:00:00' } as XchanRow;
  return compatUser({ xchan, local: false, created: xchan.xchan_name_date, locked: false, counts: { followers: 0, friends: 0, statuses: 0, favourites: 0 }, relation: NO_RELATION });
}

const key = (uid: number, mid: string) => `${uid} ${mid}`;

const ATTACH_HASH = /\/attach\/([0-9a-f]{64})$/;

/** The hub's photos among the items' attachments, by attach hash, with their media ids and URLs. */
function attachedPhotos(hub: Hub, items: StatusItemRow[]): Map<string, StatusPhoto> {
  const hashes = [...new Set(items.flatMap((i) => parseAttach(i.attach).map((a) => ATTACH_HASH.exec(a.href)?.[1] ?? '')).filter(Boolean))];
  const out = new Map<string, StatusPhoto>();
  const nicks = new Map<number, string>();
  for (const [hash, p] of fullScalesOf(hub.db, hashes)) {
    if (!nicks.has(p.uid)) nicks.set(p.uid, getChannel(hub.db, p.uid)?.channel_address ?? '');
    const urls = photoUrls(hub, nicks.get(p.uid)!, hash, p.mimetype);
    out.set(hash, { id: p.id, width: p.width, height: p.height, url: urls.scale(0), pageUrl: urls.page });
  }
  return out;
}

/**
 * Renders items as Twitter statuses for `viewer` (undefined = anonymous), in the given order.
 * Authors, reply targets, activities, terms, stars and shared originals are read in bulk: the number
 * of queries does not grow with the number of items.
 */
export function loadStatuses(hub: Hub, viewer: ChannelRow | undefined, items: StatusItemRow[], opts: StatusLoadOptions = {}): CompatStatus[] {
  if (!items.length) return [];
  const db = hub.db;
  const observer = viewer?.channel_hash ?? '';

  const shareTargets = [...new Set(items.map(sharedItemId).filter((id): id is number => id !== undefined))];
  const visibleTargets = visibleAmong(db, shareTargets, observer);
  const originals = new Map(itemsByIds(db, shareTargets.filter((id) => visibleTargets.has(id))).map((i) => [i.id, i]));
  const all = [...items, ...originals.values()];

  // What comments answer: often an item of the same page, else read.
  const replies = new Map<string, { id: number; author_xchan: string }>(all.map((i) => [key(i.uid, i.mid), i]));
  const unread = all.filter((i) => i.thr_parent && i.thr_parent !== i.mid && !replies.has(key(i.uid, i.thr_parent)));
  for (const r of itemsByUidMid(db, unread.map((i) => ({ uid: i.uid, mid: i.thr_parent })))) replies.set(key(r.uid, r.mid), r);
  const activities = new Map<string, Record<ActivityName, string[]>>();
  const comments = new Map<string, number>();
  for (const c of childrenOf(db, all)) {
    const k = key(c.uid, c.thr_parent);
    const name = ACTIVITY_BY_VERB[c.verb];
    if (name) {
      let a = activities.get(k);
      if (!a) activities.set(k, (a = { like: [], dislike: [], attendyes: [], attendno: [], attendmaybe: [] }));
      a[name].push(c.author_xchan);
    } else if (CONTENT.has(c.verb)) {
      comments.set(k, (comments.get(k) ?? 0) + 1);
    }
  }
  const terms = termsOf(db, all.map((i) => i.id));
  const stars = foreignStars(db, all.map((i) => i.id), viewer?.channel_id ?? 0);
  const shares = sharesAmong(db, all.map((i) => i.id), viewer?.channel_id ?? 0);
  const photos = attachedPhotos(hub, all);

  const hashes = new Set<string>();
  for (const i of all) hashes.add(i.author_xchan).add(i.owner_xchan);
  for (const r of replies.values()) hashes.add(r.author_xchan);
  if (!opts.activitiesOut) for (const a of activities.values()) for (const list of Object.values(a)) for (const h of list) hashes.add(h);
  for (const t of terms) if (t.ttype === TERM_MENTION && t.term_hash) hashes.add(t.term_hash);
  const users = opts.loadPeople ? opts.loadPeople(hashes) : loadUsers(hub, viewer, hashes);
  const user = (hash: string) => users.get(hash) ?? placeholderUser(hash);

  const termsByItem = new Map<number, StatusTerm[]>();
  for (const t of terms) {
    if (t.ttype !== TERM_HASHTAG && t.ttype !== TERM_MENTION) continue;
    const list = termsByItem.get(t.oid) ?? [];
    list.push({ ttype: t.ttype, term: t.term, url: t.url, user: t.ttype === TERM_MENTION && t.term_hash ? users.get(t.term_hash) : undefined });
    termsByItem.set(t.oid, list);
  }

  const render = (item: StatusItemRow, retweeted?: CompatStatus): CompatStatus => {
    const reply = item.thr_parent && item.thr_parent !== item.mid ? replies.get(key(item.uid, item.thr_parent)) : undefined;
    const acts = activities.get(key(item.uid, item.mid));
    if (acts && opts.activitiesOut) opts.activitiesOut.set(item.id, acts);
    const resolved = emptyActivities();
    if (acts) for (const name of Object.keys(acts) as ActivityName[]) resolved[name] = acts[name].map(user);
    return compatStatus(
      {
        item,
        author: user(item.author_xchan),
        owner: user(item.owner_xchan),
        replyTo: reply ? { id: reply.id, user: users.get(reply.author_xchan) } : !item.item_thread_top && item.parent ? { id: item.parent } : undefined,
        activities: resolved,
        comments: comments.get(key(item.uid, item.mid)) ?? 0,
        favorited: (viewer !== undefined && item.uid === viewer.channel_id && item.item_starred === 1) || stars.get(item.id)?.mine === true,
        // A share of the viewer's own counts as retweeted, as Twitter marks the retweet it answers.
        retweetedByViewer: shares.mine.has(item.id) || (retweeted !== undefined && item.author_xchan === observer),
        counts: { retweets: shares.counts.get(item.id) ?? 0, favorites: item.item_starred + (stars.get(item.id)?.count ?? 0) },
        terms: termsByItem.get(item.id) ?? [],
        photos,
        retweeted,
      },
      opts,
    );
  };
  return items.map((item) => {
    const original = originals.get(sharedItemId(item) ?? 0);
    return render(item, original ? render(original) : undefined);
  });
}

/** One item as a status. */
export function loadStatus(hub: Hub, viewer: ChannelRow | undefined, item: StatusItemRow, opts: StatusLoadOptions = {}): CompatStatus {
  return loadStatuses(hub, viewer, [item], opts)[0]!;
}
