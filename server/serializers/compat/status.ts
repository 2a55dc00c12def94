import type { ItemRow, StatusItemRow } from '../../store/rows.js';
import { bodyToText, escapeHtml, htmlToText } from '../../content/render.js';
import { TERM_HASHTAG } from '../../content/terms.js';
import { twitterDate } from '../../util/time.js';
import type { CompatUser } from './user.js';
import { compatEntities, type CompatEntities, type EntitySources } from './entities.js';

export const ACTIVITY_NAMES = ['like', 'dislike', 'attendyes', 'attendno', 'attendmaybe'] as const;
export type ActivityName = (typeof ACTIVITY_NAMES)[number];
export type CompatActivities = Record<ActivityName, CompatUser[]>;

export interface CompatAttachment {
  url: string;
  mimetype?: string;
  size?: number;
}

/** A Twitter status with the StatusNet/Friendica additions (§2.2 of the notes). */
export interface CompatStatus {
  text: string;
  /** tweet_mode=extended (text is kept too: nothing is ever truncated here). */
  full_text?: string;
  display_text_range?: [number, number];
  truncated: boolean;
  created_at: string;
  in_reply_to_status_id: number | null;
  in_reply_to_status_id_str: string | null;
  source: string;
  id: number;
  id_str: string;
  in_reply_to_user_id: number | null;
  in_reply_to_user_id_str: string | null;
  in_reply_to_screen_name: string | null;
  geo: { type: 'Point'; coordinates: [number, number] } | null;
  /** GeoJSON order (longitude first), as Twitter's `coordinates`. */
  coordinates: { type: 'Point'; coordinates: [number, number] } | null;
  place: null;
  contributors: null;
  is_quote_status: boolean;
  /** Starred by the viewer. */
  favorited: boolean;
  /** Shared (retweeted) by the viewer. */
  retweeted: boolean;
  retweet_count: number;
  favorite_count: number;
  lang: string;
  user: CompatUser;
  friendica_author: CompatUser;
  friendica_owner: CompatUser;
  friendica_private: boolean;
  statusnet_html: string;
  statusnet_conversation_id: number;
  external_url: string;
  friendica_activities: CompatActivities;
  friendica_title: string;
  friendica_html: string;
  friendica_comments: number;
  retweeted_status?: CompatStatus;
  /** Friendica's list of the files of the status (null when it has none). */
  attachments: CompatAttachment[] | null;
  /** Twitter's entities; left out when the client asked include_entities=false. */
  entities?: CompatEntities;
  /** The pictures again, as Twitter has them; only for statuses with pictures. */
  extended_entities?: { media: NonNullable<CompatEntities['media']> };
}

/** A term of the item as stored (hashtags, mentions); mentions come with the mentioned user. */
export interface StatusTerm {
  ttype: number;
  term: string;
  url: string;
  user?: CompatUser;
}

/** Everything the status serializer needs, gathered by the loader. */
export interface StatusFacts {
  item: StatusItemRow;
  author: CompatUser;
  owner: CompatUser;
  /** The item this one answers (comments only). */
  replyTo?: { id: number; user?: CompatUser };
  activities: CompatActivities;
  /** Number of direct comments. */
  comments: number;
  /** Starred by the viewer. */
  favorited: boolean;
  /** Shared by the viewer. */
  retweetedByViewer: boolean;
  /** How many shares and stars it has. */
  counts: { retweets: number; favorites: number };
  terms: StatusTerm[];
  /** Photos of the hub among its attachments, by attach hash. */
  photos: Map<string, StatusPhoto>;
  /** The shared original, for a share. */
  retweeted?: CompatStatus;
}

/** A photo of the hub attached to a status. */
export interface StatusPhoto {
  /** Its media id (the id media/upload answers). */
  id: number;
  width: number;
  height: number;
  /** The full-size image. */
  url: string;
  /** Its page. */
  pageUrl: string;
}

export interface StatusOptions {
  /** Twitter's default is true; include_entities=false leaves entities out. */
  includeEntities?: boolean;
  /** tweet_mode=extended: the text also as full_text, with display_text_range. */
  extended?: boolean;
}

export function emptyActivities(): CompatActivities {
  return { like: [], dislike: [], attendyes: [], attendno: [], attendmaybe: [] };
}

/** A file attached to an item (item.attach holds a JSON array; Hubzilla's keys and ours are both read). */
interface AttachEntry {
  href: string;
  type: string;
  length?: number;
  width?: number;
  height?: number;
  id?: number;
}

function num(v: unknown): number | undefined {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function parseAttach(attach: string): AttachEntry[] {
  if (!attach) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(attach);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: AttachEntry[] = [];
  for (const a of raw) {
    if (!a || typeof a !== 'object') continue;
    const o = a as Record<string, unknown>;
    const href = typeof o.href === 'string' ? o.href : typeof o.url === 'string' ? o.url : '';
    if (!href) continue;
    const type = typeof o.type === 'string' ? o.type : typeof o.mimetype === 'string' ? o.mimetype : '';
    out.push({ href, type, length: num(o.length ?? o.size ?? o.filesize), width: num(o.width), height: num(o.height), id: num(o.media_id ?? o.id) });
  }
  return out;
}

function decodeAttr(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const IMG_SRC = /<img\s[^>]*?\bsrc="([^"]*)"/gi;
const A_HREF = /<a\s[^>]*?\bhref="([^"]*)"/gi;

/** Values of one attribute of one tag in stored HTML (which always quotes attributes with "). */
function htmlAttributes(html: string, re: RegExp): string[] {
  const out: string[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const value = decodeAttr(m[1]!);
    if (value) out.push(value);
  }
  return out;
}

function geoOf(coord: string): CompatStatus['geo'] {
  const parts = coord.trim().split(/[\s,]+/).map(Number);
  if (parts.length !== 2 || !parts.every((n) => Number.isFinite(n))) return null;
  return { type: 'Point', coordinates: [parts[0]!, parts[1]!] };
}

function isPrivate(item: StatusItemRow): boolean {
  return item.item_private !== 0 || Boolean(item.allow_cid || item.allow_gid || item.deny_cid || item.deny_gid);
}

/** Attachments: the item's files plus images shown in its body, each once. */
function attachmentsOf(item: StatusItemRow): (AttachEntry & { mediaIndex: number })[] {
  const seen = new Set<string>();
  const out: (AttachEntry & { mediaIndex: number })[] = [];
  for (const a of parseAttach(item.attach)) {
    if (seen.has(a.href)) continue;
    seen.add(a.href);
    out.push({ ...a, mediaIndex: out.length + 1 });
  }
  // A photo attached to a post is also shown in its body, at a URL naming the same file key.
  const keys = out.map((a) => /[0-9a-f]{64}/.exec(a.href)?.[0]).filter((k): k is string => Boolean(k));
  for (const src of htmlAttributes(item.html, IMG_SRC)) {
    if (seen.has(src) || src.startsWith('data:') || keys.some((k) => src.includes(k))) continue;
    seen.add(src);
    out.push({ href: src, type: '', mediaIndex: out.length + 1 });
  }
  return out;
}

const mentionOf = (u: Pick<CompatUser, 'id' | 'id_str' | 'name' | 'screen_name'>) => ({ id: u.id, id_str: u.id_str, name: u.name, screen_name: u.screen_name });

const ATTACH_KEY = /\/attach\/([0-9a-f]{64})$/;

function entitySources(f: StatusFacts, text: string, attachments: ReturnType<typeof attachmentsOf>): EntitySources {
  const termUrls = new Set(f.terms.map((t) => t.url).filter(Boolean));
  const mediaUrls = new Set(attachments.map((a) => a.href));
  const bareUrls = [...text.matchAll(/\bhttps?:\/\/[^\s<>"']+/g)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, ''));
  const links = [...new Set([...htmlAttributes(f.item.html, A_HREF), ...bareUrls])].filter((u) => !termUrls.has(u) && !mediaUrls.has(u) && !u.startsWith('mailto:'));
  const media = attachments
    .filter((a) => !a.type || a.type.startsWith('image/') || a.type.startsWith('video/') || a.type.startsWith('audio/'))
    .map((a) => {
      const photo = f.photos.get(ATTACH_KEY.exec(a.href)?.[1] ?? '');
      if (photo) return { id: photo.id, url: photo.url, pageUrl: photo.pageUrl, video: false, width: photo.width, height: photo.height };
      return { id: a.id ?? a.mediaIndex, url: a.href, pageUrl: a.href, video: Boolean(a.type && !a.type.startsWith('image/')), width: a.width, height: a.height };
    });
  return {
    hashtags: f.terms.filter((t) => t.ttype === TERM_HASHTAG).map((t) => t.term),
    mentions: f.terms.flatMap((t) => (t.user ? [mentionOf(t.user)] : [])),
    links,
    media,
  };
}

/**
 * An item's HTML as statuses carry it: the title as a heading, then the body. With `contentWarning`,
 * a summary hides the body in a <details> any HTML client can open (the Mastodon API carries the
 * summary apart, as spoiler_text).
 */
export function statusHtml(item: Pick<ItemRow, 'title' | 'summary' | 'html'>, opts: { contentWarning: boolean }): string {
  const body = opts.contentWarning && item.summary ? `<details class="content-warning"><summary>${escapeHtml(item.summary)}</summary><div>${item.html}</div></details>` : item.html;
  return item.title ? `<h4>${escapeHtml(item.title)}</h4>${body}` : body;
}

/** Plain text of an item: its title, then the text of its body (from the stored rendering when there is one). */
export function statusText(item: Pick<ItemRow, 'title' | 'body' | 'mimetype'> & Partial<Pick<ItemRow, 'html' | 'html_text'>>): string {
  const body = item.html ? (item.html_text ?? htmlToText(item.html)) : bodyToText(item.body, item.mimetype);
  return (item.title ? `${item.title} ${body}` : body).trim();
}

/** Builds a status from its gathered facts. Pure: no database access. */
export function compatStatus(f: StatusFacts, opts: StatusOptions = {}): CompatStatus {
  const item = f.item;
  const html = statusHtml(item, { contentWarning: true });
  const original = f.retweeted;
  // Twitter's retweets read "RT @author: text"; the original itself is in retweeted_status.
  const text = original ? `RT @${original.user.screen_name}: ${original.text}` : statusText(item);
  const files = attachmentsOf(item);
  const attachments = files.length === 0 ? null : files.map((a) => {
    const out: CompatAttachment = { url: a.href };
    if (a.type) out.mimetype = a.type;
    if (a.length !== undefined) out.size = a.length;
    return out;
  });
  const reply = f.replyTo;
  const geo = geoOf(item.coord);
  const status: CompatStatus = {
    text,
    truncated: false,
    created_at: twitterDate(item.created),
    in_reply_to_status_id: reply ? reply.id : null,
    in_reply_to_status_id_str: reply ? String(reply.id) : null,
    source: item.app || 'web',
    id: item.id,
    id_str: String(item.id),
    in_reply_to_user_id: reply?.user ? reply.user.id : null,
    in_reply_to_user_id_str: reply?.user ? reply.user.id_str : null,
    in_reply_to_screen_name: reply?.user ? reply.user.screen_name : null,
    geo,
    coordinates: geo ? { type: 'Point', coordinates: [geo.coordinates[1], geo.coordinates[0]] } : null,
    place: null,
    contributors: null,
    is_quote_status: false,
    favorited: f.favorited,
    retweeted: f.retweetedByViewer,
    retweet_count: f.counts.retweets,
    favorite_count: f.counts.favorites,
    lang: 'und',
    user: f.author,
    friendica_author: f.author,
    friendica_owner: f.owner,
    friendica_private: isPrivate(item),
    statusnet_html: html,
    statusnet_conversation_id: item.parent || item.id,
    external_url: item.plink,
    friendica_activities: f.activities,
    friendica_title: item.title,
    friendica_html: html,
    friendica_comments: f.comments,
  } as CompatStatus;
  // Added, never deleted: see compatUser.
  if (original) status.retweeted_status = original;
  status.attachments = attachments;
  if (opts.extended) {
    status.full_text = text;
    status.display_text_range = [0, [...text].length];
  }
  if (opts.includeEntities !== false) {
    // A retweet's entities are those of the original, as its text is.
    const entities = original?.entities
      ? compatEntities(text, { hashtags: original.entities.hashtags.map((h) => h.text), mentions: [original.user, ...original.entities.user_mentions].map(mentionOf), links: original.entities.urls.map((u) => u.url), media: [] })
      : compatEntities(text, entitySources(f, text, files));
    if (original?.entities?.media) entities.media = original.entities.media;
    status.entities = entities;
    if (entities.media) status.extended_entities = { media: entities.media };
  }
  return status;
}
