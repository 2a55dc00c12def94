/** Row shapes of the tables in db/migrations, as better-sqlite3 returns them. */

export interface AccountRow {
  account_id: number;
  account_email: string;
  account_password: string;
  account_flags: number;
  account_default_channel: number;
  account_roles: number;
  account_created: string;
  account_password_changed: string;
}

export interface ChannelRow {
  channel_id: number;
  channel_account_id: number;
  channel_primary: number;
  channel_name: string;
  channel_address: string;
  channel_guid: string;
  channel_guid_sig: string;
  channel_hash: string;
  channel_timezone: string;
  channel_pubkey: string;
  channel_prvkey: string;
  channel_pageflags: number;
  channel_removed: number;
  channel_created: string;
  [column: string]: string | number;
}

export interface XchanRow {
  xchan_id: number;
  xchan_hash: string;
  xchan_guid: string;
  xchan_guid_sig: string;
  xchan_pubkey: string;
  xchan_photo_mimetype: string;
  xchan_photo_l: string;
  xchan_photo_m: string;
  xchan_photo_s: string;
  xchan_addr: string;
  xchan_url: string;
  xchan_connurl: string;
  xchan_follow: string;
  xchan_connpage: string;
  xchan_name: string;
  xchan_network: string;
  xchan_instance_url: string;
  xchan_flags: number;
  xchan_photo_date: string;
  xchan_name_date: string;
  xchan_hidden: number;
  xchan_orphan: number;
  xchan_censored: number;
  xchan_selfcensored: number;
  xchan_system: number;
  xchan_pubforum: number;
  xchan_deleted: number;
}

/** What rendering a person as a Twitter user or Mastodon account reads of their xchan. */
export type PersonXchan = Pick<
  XchanRow,
  'xchan_id' | 'xchan_hash' | 'xchan_name' | 'xchan_addr' | 'xchan_url' | 'xchan_photo_s' | 'xchan_photo_m' | 'xchan_photo_l' | 'xchan_network' | 'xchan_name_date'
>;

export interface ProfileRow {
  id: number;
  profile_guid: string;
  aid: number;
  uid: number;
  profile_name: string;
  is_default: number;
  fullname: string;
  pdesc: string;
  about: string;
  photo: string;
  thumb: string;
  [column: string]: string | number;
}

export interface ItemRow {
  id: number;
  uuid: string;
  mid: string;
  aid: number;
  uid: number;
  parent: number;
  parent_mid: string;
  thr_parent: string;
  created: string;
  edited: string;
  expires: string;
  commented: string;
  received: string;
  changed: string;
  comments_closed: string;
  owner_xchan: string;
  author_xchan: string;
  source_xchan: string;
  mimetype: string;
  title: string;
  summary: string;
  body: string;
  html: string;
  /** Plain text of html; null until made (renderer version 3 fills it in). */
  html_text: string | null;
  app: string;
  lang: string;
  revision: number;
  verb: string;
  obj_type: string;
  obj: string;
  tgt_type: string;
  target: string;
  layout_mid: string;
  postopts: string;
  route: string;
  llink: string;
  plink: string;
  resource_id: string;
  resource_type: string;
  attach: string;
  sig: string;
  diaspora_meta: string;
  location: string;
  coord: string;
  public_policy: string;
  comment_policy: string;
  allow_cid: string;
  allow_gid: string;
  deny_cid: string;
  deny_gid: string;
  item_restrict: number;
  item_flags: number;
  item_private: number;
  item_origin: number;
  item_unseen: number;
  item_starred: number;
  item_uplink: number;
  item_consensus: number;
  item_wall: number;
  item_thread_top: number;
  item_notshown: number;
  item_nsfw: number;
  item_relay: number;
  item_mentionsme: number;
  item_nocomment: number;
  item_obscured: number;
  item_verified: number;
  item_retained: number;
  item_rss: number;
  item_deleted: number;
  item_type: number;
  item_hidden: number;
  item_unpublished: number;
  item_delayed: number;
  item_pending_remove: number;
  item_blocked: number;
}

/**
 * The columns of an item that statuses, feeds and Mastodon statuses show: timelines read only these
 * (each column of a page's rows costs time, and an item has some seventy).
 */
export const STATUS_ITEM_COLUMNS = [
  'id', 'uid', 'parent', 'mid', 'thr_parent', 'created', 'edited', 'owner_xchan', 'author_xchan', 'mimetype', 'title', 'summary',
  'body', 'html', 'app', 'verb', 'obj', 'llink', 'plink', 'attach', 'coord', 'allow_cid', 'allow_gid', 'deny_cid', 'deny_gid',
  'item_private', 'item_thread_top', 'item_nsfw', 'item_starred', 'lang', 'html_text', 'uuid',
] as const satisfies readonly (keyof ItemRow)[];

export type StatusItemRow = Pick<ItemRow, (typeof STATUS_ITEM_COLUMNS)[number]>;

export interface AttachRow {
  id: number;
  aid: number;
  uid: number;
  hash: string;
  creator: string;
  filename: string;
  filetype: string;
  filesize: number;
  revision: number;
  folder: string;
  flags: number;
  is_dir: number;
  is_photo: number;
  os_storage: number;
  os_path: string;
  display_path: string;
  content: string;
  created: string;
  edited: string;
  allow_cid: string;
  allow_gid: string;
  deny_cid: string;
  deny_gid: string;
}

export interface PhotoRow {
  id: number;
  aid: number;
  uid: number;
  xchan: string;
  resource_id: string;
  created: string;
  edited: string;
  expires: string;
  title: string;
  description: string;
  album: string;
  filename: string;
  mimetype: string;
  height: number;
  width: number;
  filesize: number;
  content: string;
  imgscale: number;
  photo_usage: number;
  profile: number;
  is_nsfw: number;
  os_storage: number;
  os_path: string;
  display_path: string;
  photo_flags: number;
  allow_cid: string;
  allow_gid: string;
  deny_cid: string;
  deny_gid: string;
}

export interface AbookRow {
  abook_id: number;
  abook_account: number;
  abook_channel: number;
  abook_xchan: string;
  abook_my_perms: number;
  abook_their_perms: number;
  abook_closeness: number;
  abook_created: string;
  abook_updated: string;
  abook_connected: string;
  abook_dob: string;
  abook_flags: number;
  abook_blocked: number;
  abook_ignored: number;
  abook_hidden: number;
  abook_archived: number;
  abook_pending: number;
  abook_unconnected: number;
  abook_self: number;
  abook_feed: number;
  abook_not_here: number;
  abook_profile: string;
  abook_incl: string;
  abook_excl: string;
  abook_instance: string;
  abook_role: string;
}

export interface GroupRow {
  id: number;
  hash: string;
  uid: number;
  visible: number;
  deleted: number;
  gname: string;
}

export interface NotifyRow {
  id: number;
  hash: string;
  xname: string;
  url: string;
  photo: string;
  created: string;
  msg: string;
  aid: number;
  uid: number;
  link: string;
  iid: number;
  parent: number;
  seen: number;
  ntype: number;
  verb: string;
  otype: string;
  xchan: string;
}

export interface MailRow {
  id: number;
  convid: number;
  mid: string;
  parent_mid: string;
  account_id: number;
  channel_id: number;
  from_xchan: string;
  to_xchan: string;
  title: string;
  body: string;
  created: string;
  expires: string;
  mail_seen: number;
  mail_deleted: number;
  /** The id both copies of the message answer to in the compat API: the sender's copy's id. */
  shared_id: number;
  /** The item the message is (its text comes from there), or 0 for a message written before messages were items. */
  iid: number;
  /** The mimetype of `body`: the item's, or text/bbcode for a message of its own. */
  mimetype: string;
}
