import type { Hub } from '../../hub-context.js';
import type { ChannelRow, StatusItemRow } from '../../store/rows.js';
import { itemsByIds, termsOf } from '../../store/item-batch.js';
import { mastodonItemConfig, photoIdsOfResources } from '../../store/mastodon.js';
import { getXchansByHash } from '../../store/xchans.js';
import { TERM_HASHTAG, TERM_MENTION } from '../../content/terms.js';
import { parseAttach, statusHtml, type CompatStatus } from '../../serializers/compat/status.js';
import { screenName } from '../../serializers/compat/user.js';
import { mastodonMedia } from '../../serializers/mastodon/media.js';
import { mastodonStatus, type MastodonStatus } from '../../serializers/mastodon/status.js';
import type { MastodonAccount } from '../../serializers/mastodon/account.js';
import { loadStatuses } from '../compat/statuses.js';
import { accountsFromFacts } from './accounts.js';
import { loadUserFacts, usersFromFacts } from '../compat/users.js';
import type { UserFacts } from '../../serializers/compat/user.js';
import type { ActivityName } from '../../serializers/compat/status.js';
import { loadMedia } from './media.js';
import { visibilityOf } from './visibility.js';

const ATTACH_HASH = /\/attach\/([0-9a-f]{64})$/;

/**
 * The picture that shows an attached photo in the body (a linked image naming its key) goes, with
 * the line break after it: it is a media attachment.
 */
function withoutMediaImages(html: string, keys: string[]): string {
  let out = html;
  for (const key of keys) {
    out = out
      .replace(new RegExp(`<a\\b[^>]*>\\s*<img\\b[^>]*${key}[^>]*>\\s*</a>(\\s*<br\\s*/?>)?\\s*`, 'g'), '')
      .replace(new RegExp(`<img\\b[^>]*${key}[^>]*>(\\s*<br\\s*/?>)?\\s*`, 'g'), '');
  }
  return keys.length ? out.replace(/^(\s*<br\s*\/?>)+/, '').trim() : out;
}

function placeholderAccount(id: string): MastodonAccount {
  return {
    id, username: 'unknown', acct: 'unknown', display_name: 'unknown', locked: false, bot: false, discoverable: false, group: false,
    created_at: '1970-01-01T00:00:00.000Z', note: '', url: '', uri: '', avatar: '', avatar_static: '', header: '', header_static: '',
    followers_count: 0, following_count: 0, statuses_count: 0, last_status_at: null, noindex: false, emojis: [], roles: [], fields: [],
  };
}

/**
 * Items as Mastodon statuses for `viewer` (undefined = anonymous), in the given order. The caller
 * chose items the viewer may see; shared originals the viewer may not see are left out of reblogs
 * as the microblog loader does. Reads are in bulk.
 */
export function loadMastodonStatuses(hub: Hub, viewer: ChannelRow | undefined, items: StatusItemRow[]): MastodonStatus[] {
  if (!items.length) return [];
  const db = hub.db;
  // The people are read once, for the microblog statuses this is built on and for the accounts.
  let facts = new Map<string, UserFacts>();
  const loadPeople = (hashes: Set<string>) => {
    facts = loadUserFacts(hub, viewer, viewer ? [...hashes, viewer.channel_hash] : hashes);
    return usersFromFacts(facts);
  };
  const activities = new Map<number, Record<ActivityName, string[]>>();
  const compat = loadStatuses(hub, viewer, items, { includeEntities: false, loadPeople, activitiesOut: activities });
  const originalIds = compat.map((c) => c.retweeted_status?.id).filter((id): id is number => id !== undefined);
  const originals = new Map(itemsByIds(db, originalIds).map((i) => [i.id, i]));
  const all = [...items, ...originals.values()];
  const config = mastodonItemConfig(db, all.map((i) => i.id));
  const terms = termsOf(db, all.map((i) => i.id));

  const keysByItem = new Map<number, string[]>();
  for (const i of all) keysByItem.set(i.id, parseAttach(i.attach).map((a) => ATTACH_HASH.exec(a.href)?.[1] ?? '').filter(Boolean));
  const photoIds = photoIdsOfResources(db, [...new Set([...keysByItem.values()].flat())]);
  const media = loadMedia(hub, [...photoIds.values()]);

  const accounts = accountsFromFacts(hub, facts);
  const mentionX = getXchansByHash(db, terms.filter((t) => t.ttype === TERM_MENTION && t.term_hash).map((t) => t.term_hash));

  const build = (item: StatusItemRow, c: CompatStatus, reblog: MastodonStatus | null): MastodonStatus => {
    const conf = config.get(item.id) ?? {};
    const keys = keysByItem.get(item.id) ?? [];
    const own = terms.filter((t) => t.oid === item.id);
    const likes = activities.get(item.id)?.like ?? [];
    return mastodonStatus(
      {
        item,
        account: accounts.get(item.author_xchan) ?? placeholderAccount(String(c.user.id)),
        content: withoutMediaImages(item.summary ? statusHtml(item, { contentWarning: false }) : c.statusnet_html, keys),
        visibility: visibilityOf(item, conf.visibility),
        spoilerText: item.summary,
        sensitive: item.item_nsfw !== 0,
        media: keys.map((k) => media.get(photoIds.get(k) ?? 0)).filter((m) => m !== undefined).map(mastodonMedia),
        mentions: own.filter((t) => t.ttype === TERM_MENTION && t.term_hash && mentionX.has(t.term_hash)).map((t) => {
          const x = mentionX.get(t.term_hash)!;
          const acct = accounts.get(t.term_hash)?.acct ?? screenName(x);
          return { id: String(x.xchan_id), username: screenName(x), url: x.xchan_url, acct };
        }),
        tags: own.filter((t) => t.ttype === TERM_HASHTAG).map((t) => t.term),
        inReplyToId: c.in_reply_to_status_id_str,
        inReplyToAccountId: c.in_reply_to_user_id_str,
        replies: c.friendica_comments,
        reblogs: c.retweet_count,
        favourites: likes.length,
        favourited: viewer !== undefined && likes.includes(viewer.channel_hash),
        reblogged: c.retweeted,
        bookmarked: c.favorited,
        pinned: conf.pinned === '1',
        application: item.app,
        edited: conf.edited !== undefined,
        reblog,
      },
      hub.baseUrl,
    );
  };
  return items.map((item, n) => {
    const c = compat[n]!;
    const o = c.retweeted_status ? originals.get(c.retweeted_status.id) : undefined;
    return build(item, c, o && c.retweeted_status ? build(o, c.retweeted_status, null) : null);
  });
}

export function loadMastodonStatus(hub: Hub, viewer: ChannelRow | undefined, item: StatusItemRow): MastodonStatus {
  return loadMastodonStatuses(hub, viewer, [item])[0]!;
}
