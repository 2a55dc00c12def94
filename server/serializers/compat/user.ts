import type { PersonXchan, XchanRow } from '../../store/rows.js';
import { twitterDate } from '../../util/time.js';
import type { CompatStatus } from './status.js';

/**
 * A Twitter v1.1 / StatusNet user, with the Friendica additions clients look for. Friendica's
 * `self` is left out everywhere: client libraries build user objects from keyword arguments
 * (`User(**data)`), where a key named like the receiver breaks every answer holding a user.
 */
export interface CompatUser {
  id: number;
  id_str: string;
  name: string;
  screen_name: string;
  location: string;
  derived: never[];
  url: string;
  entities?: { url: { urls: never[] }; description: { urls: never[] } };
  description: string;
  protected: boolean;
  verified?: boolean;
  followers_count: number;
  friends_count: number;
  listed_count: number;
  favourites_count: number;
  statuses_count: number;
  created_at: string;
  profile_image_url_https: string;
  default_profile: boolean;
  default_profile_image: boolean;
  status?: CompatStatus;
  profile_image_url: string;
  follow_request_sent: boolean;
  profile_image_url_large: string;
  profile_image_url_profile_size: string;
  utc_offset: number;
  time_zone: string;
  geo_enabled: boolean;
  lang: null;
  contributors_enabled: boolean;
  is_translator: boolean;
  is_translation_enabled: boolean;
  following: boolean;
  statusnet_blocking: boolean;
  notifications: boolean;
  uid?: number;
  pid: number;
  cid: number;
  statusnet_profile_url: string;
  network: string;
}

/** Profile data of a local channel (its default profile). */
export interface UserProfile {
  location: string;
  description: string;
  homepage: string;
}

/** How the viewer relates to the person; all false/0 for an anonymous viewer. */
export interface UserRelation {
  /** The viewer's channel id when the viewer has a connection record for this person (or is them), else 0. */
  viewerUid: number;
  /** The viewer's connection (abook) id for this person, 0 if none. */
  abookId: number;
  /** The viewer follows them (an accepted follow). */
  following: boolean;
  /** The viewer's follow waits for their approval. */
  followRequestSent: boolean;
  blocking: boolean;
  self: boolean;
}

export interface UserCounts {
  followers: number;
  friends: number;
  statuses: number;
  favourites: number;
}

/** Everything the user serializer needs, gathered by the loader. */
export interface UserFacts {
  xchan: PersonXchan;
  /** A channel of this hub (the rest are people elsewhere). */
  local: boolean;
  profile?: UserProfile;
  /** When the identity became known ('YYYY-MM-DD HH:MM:SS'). */
  created: string;
  /** A channel of this hub that approves its followers by hand (Twitter's protected, Mastodon's locked). */
  locked: boolean;
  counts: UserCounts;
  relation: UserRelation;
}

export interface UserOptions {
  /** Keys to leave out (verify_credentials drops uid and verified, users/show drops uid). */
  omit?: readonly ('uid' | 'verified')[];
  /** Include the (empty) url/description entities; contact lists leave them out by default. */
  entities?: boolean;
  /** The person's latest status, when the endpoint embeds it. */
  status?: CompatStatus;
}

export const NO_RELATION: UserRelation = { viewerUid: 0, abookId: 0, following: false, followRequestSent: false, blocking: false, self: false };

/** The nickname part of an identity: nick of nick@host, else the display name. */
export function screenName(x: Pick<XchanRow, 'xchan_addr' | 'xchan_name'>): string {
  const nick = x.xchan_addr.split('@')[0] ?? '';
  return nick || x.xchan_name;
}

/**
 * The Twitter screen name of an identity: a channel's nickname here, the whole address (nick@host,
 * as Mastodon's acct) of someone elsewhere, so that it names them and finds them again.
 */
export function compatScreenName(x: Pick<XchanRow, 'xchan_addr' | 'xchan_name'>, local: boolean): string {
  return local || !x.xchan_addr.includes('@') ? screenName(x) : x.xchan_addr;
}

/**
 * Built member by member, leaving out what is not wanted rather than deleting it: an object that
 * lost a member in its middle turns into a slow dictionary, which JSON.stringify and the XML writer
 * then read several times slower (timelines hold a user per status, twice).
 */
export function compatUser(f: UserFacts, opts: UserOptions = {}): CompatUser {
  const x = f.xchan;
  const omit = opts.omit ?? [];
  const r = f.relation;
  const nick = compatScreenName(x, f.local);
  const u = {} as CompatUser;
  u.id = x.xchan_id;
  u.id_str = String(x.xchan_id);
  u.name = x.xchan_name || nick;
  // Someone elsewhere goes by their address (as Mastodon's acct): a nickname alone is not unique.
  u.screen_name = f.local ? nick : x.xchan_addr || nick;
  u.location = f.profile?.location ?? '';
  u.derived = [];
  u.url = f.profile?.homepage || x.xchan_url;
  if (opts.entities !== false) u.entities = { url: { urls: [] }, description: { urls: [] } };
  u.description = f.profile?.description ?? '';
  u.protected = f.locked;
  if (!omit.includes('verified')) u.verified = r.viewerUid !== 0;
  u.followers_count = f.counts.followers;
  u.friends_count = f.counts.friends;
  u.listed_count = 0;
  u.favourites_count = f.counts.favourites;
  u.statuses_count = f.counts.statuses;
  u.created_at = twitterDate(f.created);
  u.profile_image_url_https = x.xchan_photo_s;
  u.default_profile = false;
  u.default_profile_image = false;
  if (opts.status) u.status = opts.status;
  u.profile_image_url = x.xchan_photo_s;
  u.follow_request_sent = r.followRequestSent;
  u.profile_image_url_large = x.xchan_photo_l;
  u.profile_image_url_profile_size = x.xchan_photo_m;
  u.utc_offset = 0;
  u.time_zone = 'UTC';
  u.geo_enabled = false;
  u.lang = null;
  u.contributors_enabled = false;
  u.is_translator = false;
  u.is_translation_enabled = false;
  u.following = r.following;
  u.statusnet_blocking = r.blocking;
  u.notifications = false;
  if (!omit.includes('uid')) u.uid = r.viewerUid;
  u.pid = x.xchan_id;
  u.cid = r.abookId;
  u.statusnet_profile_url = x.xchan_url;
  u.network = x.xchan_network;
  return u;
}
