import type { ItemRow } from '../../store/rows.js';
import { bodyToText, escapeHtml, htmlToText } from '../../content/render.js';
import { TERM_HASHTAG } from '../../content/terms.js';
import { twitterDate } from '../../util/time.js';
import type { CompatUser } from './user.js';

export const ACTIVITY_NAMES = ['like', 'dislike', 'attendyes', 'attendno', 'attendmaybe'] as const;
export type ActivityName = (typeof ACTIVITY_NAMES)[number];
export type CompatActivities = Record<ActivityName, CompatUser[]>;

export interface CompatAttachment {
  url: string;
  mimetype?: string;
  size?: number;
}

export interface CompatEntities {
  hashtags: { text: string }[];
  symbols: never[];
  urls: { url: string; expanded_url: string; display_url: string }[];
  user_mentions: { id: number; id_str: string; name: string; screen_name: string }[];
  media: CompatMediaEntity[];
}

export interface CompatMediaEntity {
  id: number;
  id_str: string;
  media_url: string;
  media_url_https: string;
  url: string;
  display_url: string;
  expanded_url: string;
  type: 'photo' | 'video';
  sizes?: Record<string, { w: number; h: number; resize: 'fit' }>;
}

/** A Twitter status with the StatusNet/Friendica additions (§2.2 of the notes). */
export interface CompatStatus {
  text: string;
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
  favorited: boolean;
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
  attachments: CompatAttachment[] | null;
  entities: CompatEntities | null;
  extended_entities: CompatEntities | null;
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
  item: ItemRow;
  author: CompatUser;
  owner: CompatUser;
  /** The item this one answers (comments only). */
  replyTo?: { id: number; user?: CompatUser };
  activities: CompatActivities;
  /** Number of direct comments. */
  comments: number;
  /** Starred by the viewer. */
  favorited: boolean;
  terms: StatusTerm[];
  /** The shared original, for a share. */
  retweeted?: CompatStatus;
}

export interface StatusOptions {
  includeEntities?: boolean;
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

function htmlAttributes(html: string, tag: string, attr: string): string[] {
  const re = new RegExp(`<${tag}\\s[^>]*?\\b${attr}="([^"]*)"`, 'gi');
  return [...html.matchAll(re)].map((m) => decodeAttr(m[1]!)).filter(Boolean);
}

function displayUrl(url: string): string {
  const s = url.replace(/^[a-z]+:\/\//i, '').replace(/^www\./i, '');
  return s.length > 26 ? `${s.slice(0, 25)}…` : s;
}

function geoOf(coord: string): CompatStatus['geo'] {
  const parts = coord.trim().split(/[\s,]+/).map(Number);
  if (parts.length !== 2 || !parts.every((n) => Number.isFinite(n))) return null;
  return { type: 'Point', coordinates: [parts[0]!, parts[1]!] };
}

function isPrivate(item: ItemRow): boolean {
  return item.item_private !== 0 || Boolean(item.allow_cid || item.allow_gid || item.deny_cid || item.deny_gid);
}

/** Attachments: the item's files plus images shown in its body, each once. */
function attachmentsOf(item: ItemRow): (AttachEntry & { mediaIndex: number })[] {
  const seen = new Set<string>();
  const out: (AttachEntry & { mediaIndex: number })[] = [];
  for (const a of parseAttach(item.attach)) {
    if (seen.has(a.href)) continue;
    seen.add(a.href);
    out.push({ ...a, mediaIndex: out.length + 1 });
  }
  // A photo attached to a post is also shown in its body, at a URL naming the same file key.
  const keys = out.map((a) => /[0-9a-f]{64}/.exec(a.href)?.[0]).filter((k): k is string => Boolean(k));
  for (const src of htmlAttributes(item.html, 'img', 'src')) {
    if (seen.has(src) || src.startsWith('data:') || keys.some((k) => src.includes(k))) continue;
    seen.add(src);
    out.push({ href: src, type: '', mediaIndex: out.length + 1 });
  }
  return out;
}

function sizeName(w: number, h: number): string {
  if (w <= 680 && h <= 680) return 'small';
  if (w <= 1200 && h <= 1200) return 'medium';
  return 'large';
}

function entitiesOf(f: StatusFacts, text: string, attachments: ReturnType<typeof attachmentsOf>): CompatEntities {
  const termUrls = new Set(f.terms.map((t) => t.url).filter(Boolean));
  const mediaUrls = new Set(attachments.map((a) => a.href));
  const bareUrls = [...text.matchAll(/\bhttps?:\/\/[^\s<>"']+/g)].map((m) => m[0].replace(/[.,;:!?)\]]+$/, ''));
  const linkUrls = [...new Set([...htmlAttributes(f.item.html, 'a', 'href'), ...bareUrls])].filter((u) => !termUrls.has(u) && !mediaUrls.has(u) && !u.startsWith('mailto:'));
  return {
    hashtags: f.terms.filter((t) => t.ttype === TERM_HASHTAG).map((t) => ({ text: t.term })),
    symbols: [],
    urls: linkUrls.map((u) => ({ url: u, expanded_url: u, display_url: displayUrl(u) })),
    user_mentions: f.terms.flatMap((t) => (t.user ? [{ id: t.user.id, id_str: t.user.id_str, name: t.user.name, screen_name: t.user.screen_name }] : [])),
    media: attachments
      .filter((a) => !a.type || a.type.startsWith('image/') || a.type.startsWith('video/') || a.type.startsWith('audio/'))
      .map((a) => {
        const id = a.id ?? a.mediaIndex;
        const m: CompatMediaEntity = {
          id,
          id_str: String(id),
          media_url: a.href,
          media_url_https: a.href,
          url: a.href,
          display_url: displayUrl(a.href),
          expanded_url: a.href,
          type: a.type && !a.type.startsWith('image/') ? 'video' : 'photo',
        };
        if (a.width && a.height) m.sizes = { [sizeName(a.width, a.height)]: { w: a.width, h: a.height, resize: 'fit' } };
        return m;
      }),
  };
}

/** Plain text of an item: its title, then the text of its body (from the stored rendering when there is one). */
export function statusText(item: Pick<ItemRow, 'title' | 'body' | 'mimetype'> & Partial<Pick<ItemRow, 'html'>>): string {
  const body = item.html ? htmlToText(item.html) : bodyToText(item.body, item.mimetype);
  return (item.title ? `${item.title} ${body}` : body).trim();
}

/** Builds a status from its gathered facts. Pure: no database access. */
export function compatStatus(f: StatusFacts, opts: StatusOptions = {}): CompatStatus {
  const item = f.item;
  const html = item.title ? `<h4>${escapeHtml(item.title)}</h4>${item.html}` : item.html;
  const text = statusText(item);
  const files = attachmentsOf(item);
  const entities = opts.includeEntities ? entitiesOf(f, text, files) : null;
  const attachments = opts.includeEntities || files.length === 0 ? null : files.map((a) => {
    const out: CompatAttachment = { url: a.href };
    if (a.type) out.mimetype = a.type;
    if (a.length !== undefined) out.size = a.length;
    return out;
  });
  const reply = f.replyTo;
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
    geo: geoOf(item.coord),
    favorited: f.favorited,
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
    retweeted_status: f.retweeted,
    attachments,
    entities,
    extended_entities: entities,
  };
  if (!f.retweeted) delete status.retweeted_status;
  return status;
}
