/** Shapes of what the hub answers, as far as the UI reads them. */

export interface SessionChannel {
  id: number;
  nick: string;
  name: string;
  hash?: string;
  /** The channel's address as other hubs know it: nick@host[:port]. */
  address: string;
}

export interface Session {
  authenticated: boolean;
  setupNeeded: boolean;
  baseUrl: string;
  /** What follows the @ in the addresses of this hub's channels: its host, with the port when not the default. */
  addressHost: string;
  csrf?: string;
  /** The most one upload request may carry, in bytes. */
  uploadLimit?: number;
  channel?: SessionChannel & { hash: string };
  channels?: SessionChannel[];
}

/** Twitter/Friendica user object (compat API). */
export interface User {
  id: number;
  id_str?: string;
  name: string;
  screen_name: string;
  url?: string;
  statusnet_profile_url?: string;
  description?: string;
  location?: string;
  profile_image_url?: string;
  profile_image_url_large?: string;
  profile_image_url_profile_size?: string;
  cid?: number;
  following?: boolean;
  /** The caller's follow waits for their approval. */
  follow_request_sent?: boolean;
  self?: number | boolean;
}

export interface Attachment {
  url: string;
  mimetype?: string;
  size?: number;
}

export interface Status {
  id: number;
  id_str?: string;
  text: string;
  created_at: string;
  in_reply_to_status_id: number | null;
  user: User;
  friendica_author?: User;
  friendica_owner?: User;
  friendica_private?: boolean;
  statusnet_html?: string;
  friendica_html?: string;
  friendica_title?: string;
  statusnet_conversation_id?: number;
  friendica_comments?: number;
  friendica_activities?: { like?: User[]; dislike?: User[] };
  attachments?: Attachment[] | null;
  geo?: { type: string; coordinates: [number, number] } | null;
  external_url?: string;
  entities?: { hashtags?: { text: string }[]; user_mentions?: { screen_name: string }[] };
  /** Whether the owner's channel has shared this post, and how many have. */
  retweeted?: boolean;
  retweet_count?: number;
  /** Set when this post is a share: the post it shares. */
  retweeted_status?: Status;
}

export interface Notification {
  id: number;
  type: number;
  name: string;
  url: string;
  photo: string;
  date: string;
  msg?: string | null;
  msg_html?: string;
  msg_plain?: string;
  link: string;
  iid: number | null;
  parent: number | null;
  seen: boolean | number | string;
  verb?: string;
  otype?: string;
  timestamp?: string | number;
  date_rel?: string;
  /** The post the notification is about (what was liked, the post commented on…), while the channel may see it. */
  post_id?: number | null;
  /** The first line of that post. */
  post_excerpt?: string;
}

export interface GroupEntry {
  name: string;
  gid: number | string;
  user: User[];
}

/** Native privacy group (api/z/1.0/group). */
export interface NativeGroup {
  id: string;
  hash: string;
  uid: string;
  visible: string;
  deleted: string;
  gname: string;
}

/** Native connection row: abook columns plus the joined xchan columns. */
export interface Connection {
  abook_id: string;
  abook_xchan: string;
  abook_self: string;
  abook_pending?: string;
  abook_unconnected?: string;
  abook_blocked?: string;
  abook_ignored?: string;
  abook_archived?: string;
  abook_created?: string;
  xchan_hash?: string;
  xchan_name?: string;
  xchan_addr?: string;
  xchan_url?: string;
  xchan_photo_s?: string;
  xchan_photo_m?: string;
  xchan_photo_l?: string;
  xchan_network?: string;
}

export interface GroupMember extends Connection {
  id: string;
  gid: string;
  xchan: string;
}

export interface AbConfigRow {
  id: string;
  chan: string;
  xchan: string;
  cat: string;
  k: string;
  v: string;
}

export interface PermAllowed {
  perm: string;
  allowed: boolean | number | string;
}

export interface Album {
  text: string;
  total: string;
  url?: string;
  urlencode?: string;
  bin2hex?: string;
}

export interface PhotoListEntry {
  id: string;
  album: string;
  filename: string;
  type: string;
  thumb: string;
  created?: string;
  edited?: string;
  desc?: string;
}

export interface Photo {
  id: string;
  created: string;
  edited: string;
  title: string;
  desc: string;
  album: string;
  filename: string;
  type: string;
  height: number;
  width: number;
  profile: number | string;
  /** Scale → URL; a list in some Friendica versions. */
  link: Record<string, string> | string[];
}

export interface MediaUpload {
  media_id: number;
  media_id_string?: string;
  size?: number;
  image?: { w: number; h: number; image_type: string; friendica_preview_url?: string };
}

/** Native item row (api/z/1.0/item/update answer, item/full). */
export interface NativeItem {
  id?: string;
  title?: string;
  body?: string;
  mimetype?: string;
  location?: string;
  coord?: string;
  allow_cid?: string;
  allow_gid?: string;
}

export interface ItemUpdateResult {
  success: boolean;
  item_id: string;
  item?: NativeItem;
  message?: string;
}
