import { objectIdOf } from '../../util/ids.js';
import type { StatusItemRow } from '../../store/rows.js';
import type { MastodonAccount } from './account.js';
import type { MastodonMedia } from './media.js';
import { isoDate } from './dates.js';
import { mastodonContent } from './content.js';

export interface StatusMention {
  id: string;
  username: string;
  url: string;
  acct: string;
}

/** Everything a Status is made of, gathered by the status loader. */
export interface MastodonStatusFacts {
  item: StatusItemRow;
  account: MastodonAccount;
  /** The item's sanitized HTML, without the pictures that are its media attachments. */
  content: string;
  visibility: string;
  spoilerText: string;
  sensitive: boolean;
  media: MastodonMedia[];
  mentions: StatusMention[];
  tags: string[];
  inReplyToId: string | null;
  inReplyToAccountId: string | null;
  replies: number;
  reblogs: number;
  favourites: number;
  favourited: boolean;
  reblogged: boolean;
  bookmarked: boolean;
  pinned: boolean;
  application: string;
  edited: boolean;
  reblog: MastodonStatus | null;
}

export interface MastodonStatus {
  id: string;
  uri: string;
  url: string;
  created_at: string;
  edited_at: string | null;
  account: MastodonAccount;
  content: string;
  visibility: string;
  sensitive: boolean;
  spoiler_text: string;
  media_attachments: MastodonMedia[];
  application: { name: string; website: null } | null;
  mentions: StatusMention[];
  tags: { name: string; url: string }[];
  emojis: never[];
  reblogs_count: number;
  favourites_count: number;
  replies_count: number;
  in_reply_to_id: string | null;
  in_reply_to_account_id: string | null;
  reblog: MastodonStatus | null;
  poll: null;
  card: null;
  language: string | null;
  text: null;
  favourited: boolean;
  reblogged: boolean;
  muted: boolean;
  bookmarked: boolean;
  pinned: boolean;
  filtered: never[];
}

/** Mastodon's Status entity. */
export function mastodonStatus(f: MastodonStatusFacts, baseUrl: string): MastodonStatus {
  const item = f.item;
  return {
    id: String(item.id),
    uri: objectIdOf(baseUrl, item),
    url: item.plink || item.llink,
    created_at: isoDate(item.created),
    edited_at: f.edited ? isoDate(item.edited) : null,
    account: f.account,
    content: f.reblog ? '' : mastodonContent(f.content, f.mentions, (t) => `${baseUrl}/search?tag=${encodeURIComponent(t)}`),
    visibility: f.visibility,
    sensitive: f.sensitive,
    spoiler_text: f.spoilerText,
    media_attachments: f.reblog ? [] : f.media,
    application: f.application ? { name: f.application, website: null } : null,
    mentions: f.mentions,
    tags: f.tags.map((name) => ({ name, url: `${baseUrl}/search?tag=${encodeURIComponent(name)}` })),
    emojis: [],
    reblogs_count: f.reblogs,
    favourites_count: f.favourites,
    replies_count: f.replies,
    in_reply_to_id: f.inReplyToId,
    in_reply_to_account_id: f.inReplyToAccountId,
    reblog: f.reblog,
    poll: null,
    card: null,
    language: item.lang && item.lang !== 'und' ? item.lang : null,
    text: null,
    favourited: f.favourited,
    reblogged: f.reblogged,
    muted: false,
    bookmarked: f.bookmarked,
    pinned: f.pinned,
    filtered: [],
  };
}
