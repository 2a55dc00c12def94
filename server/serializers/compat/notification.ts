import type { ReadNotification } from '../../store/notify.js';
import { htmlToText, renderBody } from '../../content/render.js';
import { fromDbDate } from '../../util/time.js';

/** A notification as ext/notifications returns it (notes §2.7). */
export interface CompatNotification {
  id: number;
  type: number;
  name: string;
  url: string;
  photo: string;
  date: string;
  msg: string;
  uid: number;
  link: string;
  iid: number | null;
  parent: number | null;
  seen: boolean;
  verb: string;
  otype: string;
  name_cache: string;
  msg_cache: string;
  timestamp: string;
  date_rel: string;
  msg_html: string;
  msg_plain: string;
  /** Hearth: the post the notification is about (what was liked, commented on…), if the channel may still see it. */
  post_id: number | null;
  /** Hearth: the first line of that post, to tell which post it is; empty without one. */
  post_excerpt: string;
}

const UNITS: [number, string][] = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** '3 hours ago', 'now', or 'in 2 days' for dates ahead of `now`. */
export function relativeTime(date: Date, now: Date): string {
  const diff = Math.round((now.getTime() - date.getTime()) / 1000);
  const abs = Math.abs(diff);
  if (abs < 1) return 'now';
  const [size, unit] = UNITS.find(([s]) => abs >= s)!;
  const n = Math.floor(abs / size);
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

/** A URL stored as a path of the hub (/display/…) with the hub's current base URL in front. */
export function hubUrl(baseUrl: string, stored: string): string {
  return stored.startsWith('/') && !stored.startsWith('//') ? `${baseUrl}${stored}` : stored;
}

/**
 * Builds the notification object; `now` gives the relative date, `post` the post it is about. The
 * hub's own URLs follow its current base URL: the link is stored as a path, the actor's URL and
 * photo are read from the actor's identity. Pure.
 */
export function compatNotification(n: ReadNotification, now: Date, baseUrl: string, post?: { id: number; excerpt: string }): CompatNotification {
  const date = fromDbDate(n.created);
  const html = renderBody(n.msg, 'text/bbcode');
  const plain = htmlToText(html);
  // A message's notification is about the message (its link), as Friendica's are, not about the
  // post the message is (which the Mastodon API shows).
  const aboutItem = n.otype !== 'mail';
  return {
    id: n.id,
    type: n.ntype,
    name: n.xname,
    url: hubUrl(baseUrl, n.actor_url || n.url),
    photo: hubUrl(baseUrl, n.actor_photo || n.photo),
    date: n.created,
    msg: n.msg,
    uid: n.uid,
    link: hubUrl(baseUrl, n.link),
    iid: (aboutItem && n.iid) || null,
    parent: (aboutItem && n.parent) || null,
    seen: n.seen !== 0,
    verb: n.verb,
    otype: n.otype,
    name_cache: n.xname,
    msg_cache: n.xname && plain.startsWith(n.xname) ? `{0}${plain.slice(n.xname.length)}` : plain,
    timestamp: String(Math.floor(date.getTime() / 1000)),
    date_rel: relativeTime(date, now),
    msg_html: html,
    msg_plain: plain.split('\n')[0] ?? '',
    post_id: post?.id ?? null,
    post_excerpt: post?.excerpt ?? '',
  };
}
