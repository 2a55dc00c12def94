-- Hearth initial schema. Column names follow Hubzilla's tables so that the native API can
-- return whole rows; every column is NOT NULL with '' / 0 / the null date as default.
-- Datetimes are UTC 'YYYY-MM-DD HH:MM:SS'; the null date is '0001-01-01 00:00:00'.

CREATE TABLE config (
  cat TEXT NOT NULL,
  k   TEXT NOT NULL,
  v   TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (cat, k)
);

CREATE TABLE account (
  account_id              INTEGER PRIMARY KEY AUTOINCREMENT,
  account_email           TEXT NOT NULL UNIQUE COLLATE NOCASE,
  account_password        TEXT NOT NULL,           -- scrypt$N$r$p$salt$hash, never returned
  account_flags           INTEGER NOT NULL DEFAULT 0,
  account_default_channel INTEGER NOT NULL DEFAULT 0,
  account_roles           INTEGER NOT NULL DEFAULT 4096,
  account_created         TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  account_password_changed TEXT NOT NULL DEFAULT '0001-01-01 00:00:00'
);

CREATE TABLE xchan (
  xchan_id             INTEGER PRIMARY KEY AUTOINCREMENT, -- numeric user id for the compat API
  xchan_hash           TEXT NOT NULL UNIQUE,
  xchan_guid           TEXT NOT NULL DEFAULT '',
  xchan_guid_sig       TEXT NOT NULL DEFAULT '',
  xchan_pubkey         TEXT NOT NULL DEFAULT '',
  xchan_photo_mimetype TEXT NOT NULL DEFAULT 'image/png',
  xchan_photo_l        TEXT NOT NULL DEFAULT '',
  xchan_photo_m        TEXT NOT NULL DEFAULT '',
  xchan_photo_s        TEXT NOT NULL DEFAULT '',
  xchan_addr           TEXT NOT NULL DEFAULT '',
  xchan_url            TEXT NOT NULL DEFAULT '',
  xchan_connurl        TEXT NOT NULL DEFAULT '',
  xchan_follow         TEXT NOT NULL DEFAULT '',
  xchan_connpage       TEXT NOT NULL DEFAULT '',
  xchan_name           TEXT NOT NULL DEFAULT '',
  xchan_network        TEXT NOT NULL DEFAULT '',
  xchan_instance_url   TEXT NOT NULL DEFAULT '',
  xchan_flags          INTEGER NOT NULL DEFAULT 0,
  xchan_photo_date     TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  xchan_name_date      TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  xchan_hidden         INTEGER NOT NULL DEFAULT 0,
  xchan_orphan         INTEGER NOT NULL DEFAULT 0,
  xchan_censored       INTEGER NOT NULL DEFAULT 0,
  xchan_selfcensored   INTEGER NOT NULL DEFAULT 0,
  xchan_system         INTEGER NOT NULL DEFAULT 0,
  xchan_pubforum       INTEGER NOT NULL DEFAULT 0,
  xchan_deleted        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX xchan_addr_idx ON xchan (xchan_addr COLLATE NOCASE);
CREATE INDEX xchan_guid_idx ON xchan (xchan_guid);

CREATE TABLE channel (
  channel_id             INTEGER PRIMARY KEY AUTOINCREMENT,
  channel_account_id     INTEGER NOT NULL REFERENCES account (account_id),
  channel_primary        INTEGER NOT NULL DEFAULT 0,
  channel_name           TEXT NOT NULL DEFAULT '',
  channel_address        TEXT NOT NULL UNIQUE COLLATE NOCASE,
  channel_guid           TEXT NOT NULL DEFAULT '',
  channel_guid_sig       TEXT NOT NULL DEFAULT '',
  channel_hash           TEXT NOT NULL UNIQUE REFERENCES xchan (xchan_hash),
  channel_portable_id    TEXT NOT NULL DEFAULT '',
  channel_timezone       TEXT NOT NULL DEFAULT 'UTC',
  channel_location       TEXT NOT NULL DEFAULT '',
  channel_theme          TEXT NOT NULL DEFAULT '',
  channel_startpage      TEXT NOT NULL DEFAULT '',
  channel_pubkey         TEXT NOT NULL DEFAULT '',
  channel_prvkey         TEXT NOT NULL DEFAULT '',   -- never returned by any API
  channel_notifyflags    INTEGER NOT NULL DEFAULT 65535,
  channel_pageflags      INTEGER NOT NULL DEFAULT 0,
  channel_dirdate        TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  channel_lastpost       TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  channel_deleted        TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  channel_active         TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  channel_max_anon_mail  INTEGER NOT NULL DEFAULT 10,
  channel_max_friend_req INTEGER NOT NULL DEFAULT 10,
  channel_expire_days    INTEGER NOT NULL DEFAULT 0,
  channel_passwd_reset   TEXT NOT NULL DEFAULT '',
  channel_default_group  TEXT NOT NULL DEFAULT '',
  channel_allow_cid      TEXT NOT NULL DEFAULT '',
  channel_allow_gid      TEXT NOT NULL DEFAULT '',
  channel_deny_cid       TEXT NOT NULL DEFAULT '',
  channel_deny_gid       TEXT NOT NULL DEFAULT '',
  channel_removed        INTEGER NOT NULL DEFAULT 0,
  channel_system         INTEGER NOT NULL DEFAULT 0,
  channel_moved          TEXT NOT NULL DEFAULT '',
  channel_created        TEXT NOT NULL DEFAULT '0001-01-01 00:00:00'
);
CREATE INDEX channel_account_idx ON channel (channel_account_id);

-- Per-channel configuration (Hubzilla pconfig).
CREATE TABLE pconfig (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  uid     INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  cat     TEXT NOT NULL,
  k       TEXT NOT NULL,
  v       TEXT NOT NULL DEFAULT '',
  updated TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  UNIQUE (uid, cat, k)
);

CREATE TABLE profile (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  profile_guid TEXT NOT NULL DEFAULT '',
  aid          INTEGER NOT NULL DEFAULT 0,
  uid          INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  profile_name TEXT NOT NULL DEFAULT '',
  is_default   INTEGER NOT NULL DEFAULT 0,
  hide_friends INTEGER NOT NULL DEFAULT 0,
  fullname     TEXT NOT NULL DEFAULT '',
  pdesc        TEXT NOT NULL DEFAULT '',
  chandesc     TEXT NOT NULL DEFAULT '',
  dob          TEXT NOT NULL DEFAULT '0000-00-00',
  dob_tz       TEXT NOT NULL DEFAULT 'UTC',
  address      TEXT NOT NULL DEFAULT '',
  locality     TEXT NOT NULL DEFAULT '',
  region       TEXT NOT NULL DEFAULT '',
  postal_code  TEXT NOT NULL DEFAULT '',
  country_name TEXT NOT NULL DEFAULT '',
  hometown     TEXT NOT NULL DEFAULT '',
  gender       TEXT NOT NULL DEFAULT '',
  marital      TEXT NOT NULL DEFAULT '',
  partner      TEXT NOT NULL DEFAULT '',
  howlong      TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  sexual       TEXT NOT NULL DEFAULT '',
  politic      TEXT NOT NULL DEFAULT '',
  religion     TEXT NOT NULL DEFAULT '',
  keywords     TEXT NOT NULL DEFAULT '',
  likes        TEXT NOT NULL DEFAULT '',
  dislikes     TEXT NOT NULL DEFAULT '',
  about        TEXT NOT NULL DEFAULT '',
  summary      TEXT NOT NULL DEFAULT '',
  music        TEXT NOT NULL DEFAULT '',
  book         TEXT NOT NULL DEFAULT '',
  tv           TEXT NOT NULL DEFAULT '',
  film         TEXT NOT NULL DEFAULT '',
  interest     TEXT NOT NULL DEFAULT '',
  romance      TEXT NOT NULL DEFAULT '',
  employment   TEXT NOT NULL DEFAULT '',
  education    TEXT NOT NULL DEFAULT '',
  contact      TEXT NOT NULL DEFAULT '',
  channels     TEXT NOT NULL DEFAULT '',
  homepage     TEXT NOT NULL DEFAULT '',
  photo        TEXT NOT NULL DEFAULT '',
  thumb        TEXT NOT NULL DEFAULT '',
  publish      INTEGER NOT NULL DEFAULT 0,
  profile_vcard TEXT NOT NULL DEFAULT ''
);
CREATE INDEX profile_uid_idx ON profile (uid, is_default);

-- Connections: a channel's relationship to an xchan.
CREATE TABLE abook (
  abook_id          INTEGER PRIMARY KEY AUTOINCREMENT,
  abook_account     INTEGER NOT NULL DEFAULT 0,
  abook_channel     INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  abook_xchan       TEXT NOT NULL REFERENCES xchan (xchan_hash),
  abook_my_perms    INTEGER NOT NULL DEFAULT 0,
  abook_their_perms INTEGER NOT NULL DEFAULT 0,
  abook_closeness   INTEGER NOT NULL DEFAULT 99,
  abook_created     TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  abook_updated     TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  abook_connected   TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  abook_dob         TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  abook_flags       INTEGER NOT NULL DEFAULT 0,
  abook_blocked     INTEGER NOT NULL DEFAULT 0,
  abook_ignored     INTEGER NOT NULL DEFAULT 0,
  abook_hidden      INTEGER NOT NULL DEFAULT 0,
  abook_archived    INTEGER NOT NULL DEFAULT 0,
  abook_pending     INTEGER NOT NULL DEFAULT 0,
  abook_unconnected INTEGER NOT NULL DEFAULT 0,
  abook_self        INTEGER NOT NULL DEFAULT 0,
  abook_feed        INTEGER NOT NULL DEFAULT 0,
  abook_not_here    INTEGER NOT NULL DEFAULT 0,
  abook_profile     TEXT NOT NULL DEFAULT '',
  abook_incl        TEXT NOT NULL DEFAULT '',
  abook_excl        TEXT NOT NULL DEFAULT '',
  abook_instance    TEXT NOT NULL DEFAULT '',
  abook_role        TEXT NOT NULL DEFAULT '',
  UNIQUE (abook_channel, abook_xchan)
);
CREATE INDEX abook_xchan_idx ON abook (abook_xchan);

-- Connection metadata, e.g. cat 'my_perms' k '<permission>' v '1'.
CREATE TABLE abconfig (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  chan  INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  xchan TEXT NOT NULL,
  cat   TEXT NOT NULL,
  k     TEXT NOT NULL,
  v     TEXT NOT NULL DEFAULT '',
  UNIQUE (chan, xchan, cat, k)
);

-- Privacy groups (Friendica circles, Twitter lists).
CREATE TABLE pgrp (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  hash    TEXT NOT NULL UNIQUE,
  uid     INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  visible INTEGER NOT NULL DEFAULT 0,
  deleted INTEGER NOT NULL DEFAULT 0,
  gname   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX pgrp_uid_idx ON pgrp (uid, deleted);

CREATE TABLE pgrp_member (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  uid   INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  gid   INTEGER NOT NULL REFERENCES pgrp (id) ON DELETE CASCADE,
  xchan TEXT NOT NULL,
  UNIQUE (gid, xchan)
);
CREATE INDEX pgrp_member_xchan_idx ON pgrp_member (xchan);

CREATE TABLE item (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  uuid          TEXT NOT NULL DEFAULT '',
  mid           TEXT NOT NULL DEFAULT '',
  aid           INTEGER NOT NULL DEFAULT 0,
  uid           INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  parent        INTEGER NOT NULL DEFAULT 0,
  parent_mid    TEXT NOT NULL DEFAULT '',
  thr_parent    TEXT NOT NULL DEFAULT '',
  created       TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  edited        TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  expires       TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  commented     TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  received      TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  changed       TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  comments_closed TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  owner_xchan   TEXT NOT NULL DEFAULT '',
  author_xchan  TEXT NOT NULL DEFAULT '',
  source_xchan  TEXT NOT NULL DEFAULT '',
  mimetype      TEXT NOT NULL DEFAULT 'text/bbcode',
  title         TEXT NOT NULL DEFAULT '',
  summary       TEXT NOT NULL DEFAULT '',
  body          TEXT NOT NULL DEFAULT '',
  html          TEXT NOT NULL DEFAULT '',
  app           TEXT NOT NULL DEFAULT '',
  lang          TEXT NOT NULL DEFAULT '',
  revision      INTEGER NOT NULL DEFAULT 0,
  verb          TEXT NOT NULL DEFAULT '',
  obj_type      TEXT NOT NULL DEFAULT '',
  obj           TEXT NOT NULL DEFAULT '',
  tgt_type      TEXT NOT NULL DEFAULT '',
  target        TEXT NOT NULL DEFAULT '',
  layout_mid    TEXT NOT NULL DEFAULT '',
  postopts      TEXT NOT NULL DEFAULT '',
  route         TEXT NOT NULL DEFAULT '',
  llink         TEXT NOT NULL DEFAULT '',
  plink         TEXT NOT NULL DEFAULT '',
  resource_id   TEXT NOT NULL DEFAULT '',
  resource_type TEXT NOT NULL DEFAULT '',
  attach        TEXT NOT NULL DEFAULT '',
  sig           TEXT NOT NULL DEFAULT '',
  diaspora_meta TEXT NOT NULL DEFAULT '',
  location      TEXT NOT NULL DEFAULT '',
  coord         TEXT NOT NULL DEFAULT '',
  public_policy TEXT NOT NULL DEFAULT '',
  comment_policy TEXT NOT NULL DEFAULT '',
  allow_cid     TEXT NOT NULL DEFAULT '',
  allow_gid     TEXT NOT NULL DEFAULT '',
  deny_cid      TEXT NOT NULL DEFAULT '',
  deny_gid      TEXT NOT NULL DEFAULT '',
  item_restrict INTEGER NOT NULL DEFAULT 0,
  item_flags    INTEGER NOT NULL DEFAULT 0,
  item_private  INTEGER NOT NULL DEFAULT 0,
  item_origin   INTEGER NOT NULL DEFAULT 0,
  item_unseen   INTEGER NOT NULL DEFAULT 0,
  item_starred  INTEGER NOT NULL DEFAULT 0,
  item_uplink   INTEGER NOT NULL DEFAULT 0,
  item_consensus INTEGER NOT NULL DEFAULT 0,
  item_wall     INTEGER NOT NULL DEFAULT 0,
  item_thread_top INTEGER NOT NULL DEFAULT 0,
  item_notshown INTEGER NOT NULL DEFAULT 0,
  item_nsfw     INTEGER NOT NULL DEFAULT 0,
  item_relay    INTEGER NOT NULL DEFAULT 0,
  item_mentionsme INTEGER NOT NULL DEFAULT 0,
  item_nocomment INTEGER NOT NULL DEFAULT 0,
  item_obscured INTEGER NOT NULL DEFAULT 0,
  item_verified INTEGER NOT NULL DEFAULT 0,
  item_retained INTEGER NOT NULL DEFAULT 0,
  item_rss      INTEGER NOT NULL DEFAULT 0,
  item_deleted  INTEGER NOT NULL DEFAULT 0,
  item_type     INTEGER NOT NULL DEFAULT 0,
  item_hidden   INTEGER NOT NULL DEFAULT 0,
  item_unpublished INTEGER NOT NULL DEFAULT 0,
  item_delayed  INTEGER NOT NULL DEFAULT 0,
  item_pending_remove INTEGER NOT NULL DEFAULT 0,
  item_blocked  INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX item_uid_mid_idx ON item (uid, mid);
CREATE INDEX item_uuid_idx ON item (uuid);
CREATE INDEX item_parent_idx ON item (parent, created);
CREATE INDEX item_uid_created_idx ON item (uid, item_thread_top, created);
CREATE INDEX item_uid_id_idx ON item (uid, id);
CREATE INDEX item_author_idx ON item (author_xchan, id);
CREATE INDEX item_owner_idx ON item (owner_xchan, id);
CREATE INDEX item_thr_parent_idx ON item (uid, thr_parent, verb);
CREATE INDEX item_resource_idx ON item (resource_type, resource_id);
CREATE INDEX item_starred_idx ON item (uid, item_starred, id) WHERE item_starred = 1;

-- Full-text search over item titles and bodies (external content table kept by triggers).
CREATE VIRTUAL TABLE item_fts USING fts5 (title, body, content = 'item', content_rowid = 'id', tokenize = 'unicode61');
CREATE TRIGGER item_fts_insert AFTER INSERT ON item BEGIN
  INSERT INTO item_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER item_fts_delete AFTER DELETE ON item BEGIN
  INSERT INTO item_fts (item_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER item_fts_update AFTER UPDATE OF title, body ON item BEGIN
  INSERT INTO item_fts (item_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
  INSERT INTO item_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;

-- Item metadata (Hubzilla iconfig).
CREATE TABLE iconfig (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  iid     INTEGER NOT NULL REFERENCES item (id) ON DELETE CASCADE,
  cat     TEXT NOT NULL,
  k       TEXT NOT NULL,
  v       TEXT NOT NULL DEFAULT '',
  sharing INTEGER NOT NULL DEFAULT 0,
  UNIQUE (iid, cat, k)
);

-- Terms: otype 1 = item; ttype 1 hashtag, 2 mention, 3 category (Hubzilla numbering).
CREATE TABLE term (
  tid         INTEGER PRIMARY KEY AUTOINCREMENT,
  aid         INTEGER NOT NULL DEFAULT 0,
  uid         INTEGER NOT NULL DEFAULT 0,
  oid         INTEGER NOT NULL,
  otype       INTEGER NOT NULL DEFAULT 1,
  ttype       INTEGER NOT NULL,
  term        TEXT NOT NULL,
  url         TEXT NOT NULL DEFAULT '',
  imgurl      TEXT NOT NULL DEFAULT '',
  term_hash   TEXT NOT NULL DEFAULT '',
  parent_hash TEXT NOT NULL DEFAULT ''
);
CREATE INDEX term_oid_idx ON term (otype, oid);
CREATE INDEX term_uid_term_idx ON term (uid, ttype, term);

-- Files; the bytes live in the attachment store, content holds the store path.
CREATE TABLE attach (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  aid          INTEGER NOT NULL DEFAULT 0,
  uid          INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  hash         TEXT NOT NULL UNIQUE,
  creator      TEXT NOT NULL DEFAULT '',
  filename     TEXT NOT NULL DEFAULT '',
  filetype     TEXT NOT NULL DEFAULT '',
  filesize     INTEGER NOT NULL DEFAULT 0,
  revision     INTEGER NOT NULL DEFAULT 0,
  folder       TEXT NOT NULL DEFAULT '',
  flags        INTEGER NOT NULL DEFAULT 0,
  is_dir       INTEGER NOT NULL DEFAULT 0,
  is_photo     INTEGER NOT NULL DEFAULT 0,
  os_storage   INTEGER NOT NULL DEFAULT 1,
  os_path      TEXT NOT NULL DEFAULT '',
  display_path TEXT NOT NULL DEFAULT '',
  content      TEXT NOT NULL DEFAULT '',
  created      TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  edited       TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  allow_cid    TEXT NOT NULL DEFAULT '',
  allow_gid    TEXT NOT NULL DEFAULT '',
  deny_cid     TEXT NOT NULL DEFAULT '',
  deny_gid     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX attach_uid_idx ON attach (uid, id);
CREATE INDEX attach_uid_folder_idx ON attach (uid, folder, filename);

-- Photo scales; one row per (resource_id, imgscale). content = store path of that scale's bytes.
CREATE TABLE photo (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  aid          INTEGER NOT NULL DEFAULT 0,
  uid          INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  xchan        TEXT NOT NULL DEFAULT '',
  resource_id  TEXT NOT NULL,
  created      TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  edited       TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  expires      TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  title        TEXT NOT NULL DEFAULT '',
  description  TEXT NOT NULL DEFAULT '',
  album        TEXT NOT NULL DEFAULT '',
  filename     TEXT NOT NULL DEFAULT '',
  mimetype     TEXT NOT NULL DEFAULT 'image/jpeg',
  height       INTEGER NOT NULL DEFAULT 0,
  width        INTEGER NOT NULL DEFAULT 0,
  filesize     INTEGER NOT NULL DEFAULT 0,
  content      TEXT NOT NULL DEFAULT '',
  imgscale     INTEGER NOT NULL DEFAULT 0,
  photo_usage  INTEGER NOT NULL DEFAULT 0,
  profile      INTEGER NOT NULL DEFAULT 0,
  is_nsfw      INTEGER NOT NULL DEFAULT 0,
  os_storage   INTEGER NOT NULL DEFAULT 1,
  os_path      TEXT NOT NULL DEFAULT '',
  display_path TEXT NOT NULL DEFAULT '',
  photo_flags  INTEGER NOT NULL DEFAULT 0,
  allow_cid    TEXT NOT NULL DEFAULT '',
  allow_gid    TEXT NOT NULL DEFAULT '',
  deny_cid     TEXT NOT NULL DEFAULT '',
  deny_gid     TEXT NOT NULL DEFAULT '',
  UNIQUE (resource_id, imgscale)
);
CREATE INDEX photo_uid_album_idx ON photo (uid, album, imgscale);

-- Notifications; ntype bits as in Hubzilla/Friendica (1 intro, 2 confirm, 4 wall, 8 comment,
-- 16 mail, 128 mention/tagself, 1024 like).
CREATE TABLE notify (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  hash    TEXT NOT NULL DEFAULT '',
  xname   TEXT NOT NULL DEFAULT '',
  url     TEXT NOT NULL DEFAULT '',
  photo   TEXT NOT NULL DEFAULT '',
  created TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  msg     TEXT NOT NULL DEFAULT '',
  aid     INTEGER NOT NULL DEFAULT 0,
  uid     INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  link    TEXT NOT NULL DEFAULT '',
  iid     INTEGER NOT NULL DEFAULT 0,
  parent  INTEGER NOT NULL DEFAULT 0,
  seen    INTEGER NOT NULL DEFAULT 0,
  ntype   INTEGER NOT NULL DEFAULT 0,
  verb    TEXT NOT NULL DEFAULT '',
  otype   TEXT NOT NULL DEFAULT '',
  xchan   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX notify_uid_idx ON notify (uid, seen, created);

-- Direct messages: each channel keeps its own copy (sender's and recipient's), so deleting or
-- marking seen affects only that channel's copy. Conversations group messages by convid.
CREATE TABLE conv (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  guid    TEXT NOT NULL UNIQUE,
  subject TEXT NOT NULL DEFAULT '',
  creator TEXT NOT NULL DEFAULT '',
  recips  TEXT NOT NULL DEFAULT '',
  created TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  updated TEXT NOT NULL DEFAULT '0001-01-01 00:00:00'
);

CREATE TABLE mail (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  convid      INTEGER NOT NULL REFERENCES conv (id),
  mid         TEXT NOT NULL,
  parent_mid  TEXT NOT NULL DEFAULT '',
  account_id  INTEGER NOT NULL DEFAULT 0,
  channel_id  INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  from_xchan  TEXT NOT NULL,
  to_xchan    TEXT NOT NULL,
  title       TEXT NOT NULL DEFAULT '',
  body        TEXT NOT NULL DEFAULT '',
  created     TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  expires     TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  mail_seen   INTEGER NOT NULL DEFAULT 0,
  mail_deleted INTEGER NOT NULL DEFAULT 0,
  UNIQUE (channel_id, mid)
);
CREATE INDEX mail_channel_idx ON mail (channel_id, mail_deleted, id);
CREATE INDEX mail_conv_idx ON mail (convid, id);

CREATE TABLE saved_search (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  uid     INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  term    TEXT NOT NULL,
  created TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  UNIQUE (uid, term)
);

-- OAuth 1.0a: client apps registered by the owner, request and access tokens, seen nonces.
CREATE TABLE oauth_client (
  client_id    TEXT PRIMARY KEY,             -- consumer key
  secret       TEXT NOT NULL,
  name         TEXT NOT NULL,
  redirect_uri TEXT NOT NULL DEFAULT '',
  icon         TEXT NOT NULL DEFAULT '',
  account_id   INTEGER NOT NULL REFERENCES account (account_id) ON DELETE CASCADE,
  created      TEXT NOT NULL DEFAULT '0001-01-01 00:00:00'
);

CREATE TABLE oauth_token (
  token      TEXT PRIMARY KEY,
  secret     TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('request', 'access')),
  client_id  TEXT NOT NULL REFERENCES oauth_client (client_id) ON DELETE CASCADE,
  channel_id INTEGER REFERENCES channel (channel_id) ON DELETE CASCADE,
  verifier   TEXT NOT NULL DEFAULT '',
  callback   TEXT NOT NULL DEFAULT '',
  created    TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  expires    TEXT NOT NULL DEFAULT '0001-01-01 00:00:00'
);

CREATE TABLE oauth_nonce (
  client_id TEXT NOT NULL,
  nonce     TEXT NOT NULL,
  ts        INTEGER NOT NULL,
  PRIMARY KEY (client_id, nonce, ts)
);

-- Browser sessions of the owner (the UI and the web pages).
CREATE TABLE session (
  id         TEXT PRIMARY KEY,                -- sha256 of the cookie value
  account_id INTEGER NOT NULL REFERENCES account (account_id) ON DELETE CASCADE,
  channel_id INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  csrf       TEXT NOT NULL,
  created    TEXT NOT NULL,
  expires    TEXT NOT NULL
);
