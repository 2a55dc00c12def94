import { escapeHtml } from '../../content/render.js';
import type { UserFacts } from '../compat/user.js';
import { screenName } from '../compat/user.js';
import { isoDate } from './dates.js';

export interface AccountField {
  name: string;
  value: string;
  verified_at: null;
}

/** What the Mastodon API keeps of a local channel beyond its profile (pconfig 'mastodon'). */
export interface AccountExtras {
  /** The channel belongs to this hub: acct is its bare nickname. */
  local: boolean;
  header?: string;
  fields: { name: string; value: string }[];
  bot: boolean;
}

export interface MastodonAccount {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  locked: boolean;
  bot: boolean;
  discoverable: boolean;
  group: boolean;
  created_at: string;
  note: string;
  url: string;
  uri: string;
  avatar: string;
  avatar_static: string;
  header: string;
  header_static: string;
  followers_count: number;
  following_count: number;
  statuses_count: number;
  last_status_at: string | null;
  noindex: boolean;
  emojis: never[];
  roles: never[];
  fields: AccountField[];
}

/** Paragraphs of escaped text, with line breaks, as Mastodon renders a plain-text note. */
export function plainToHtml(text: string): string {
  const t = text.trim();
  if (!t) return '';
  return t.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('');
}

/** A default header: Mastodon's apps expect a URL even when there is no picture. */
export function defaultHeader(baseUrl: string): string {
  return `${baseUrl}/mastodon/header-missing.png`;
}

/** Mastodon's Account entity from the facts the user loader gathers. */
export function mastodonAccount(f: UserFacts, e: AccountExtras, baseUrl: string): MastodonAccount {
  const x = f.xchan;
  const nick = screenName(x);
  const header = e.header || defaultHeader(baseUrl);
  const avatar = x.xchan_photo_l || x.xchan_photo_m || x.xchan_photo_s;
  return {
    id: String(x.xchan_id),
    username: nick,
    acct: e.local ? nick : x.xchan_addr || nick,
    display_name: x.xchan_name || nick,
    locked: f.locked,
    bot: e.bot,
    discoverable: true,
    group: false,
    created_at: isoDate(f.created),
    note: plainToHtml(f.profile?.description ?? ''),
    url: x.xchan_url,
    uri: x.xchan_url,
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    followers_count: f.counts.followers,
    following_count: f.counts.friends,
    statuses_count: f.counts.statuses,
    last_status_at: null,
    noindex: false,
    emojis: [],
    roles: [],
    fields: e.fields.map((fl) => ({ name: escapeHtml(fl.name), value: escapeHtml(fl.value), verified_at: null })),
  };
}

/** verify_credentials and update_credentials add the owner's own settings. */
export function credentialAccount(a: MastodonAccount, source: { note: string; fields: { name: string; value: string }[]; privacy: string; followRequests: number }) {
  return {
    ...a,
    source: { privacy: source.privacy, sensitive: false, language: '', note: source.note, fields: source.fields.map((f) => ({ ...f, verified_at: null })), follow_requests_count: source.followRequests },
    role: { id: '-99', name: '', permissions: '0', color: '', highlighted: false },
  };
}
