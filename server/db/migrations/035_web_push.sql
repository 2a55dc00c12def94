-- Web Push (Mastodon's /api/v1/push/subscription): one subscription per OAuth 2 token, gone with
-- the token. The token itself is kept beside it because the payload hands it back to the app (which
-- finds the account by it); revoking the token deletes the row.
CREATE TABLE push_subscription (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  token_id     INTEGER NOT NULL UNIQUE REFERENCES oauth2_token (id) ON DELETE CASCADE,
  channel_id   INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  endpoint     TEXT NOT NULL,
  key_p256dh   TEXT NOT NULL,                -- the user agent's P-256 public key, base64url
  key_auth     TEXT NOT NULL,                -- its authentication secret, base64url
  standard     INTEGER NOT NULL DEFAULT 0,   -- 1: aes128gcm (RFC 8291); 0: the older aesgcm
  alerts       TEXT NOT NULL DEFAULT '{}',   -- JSON: notification type -> true
  policy       TEXT NOT NULL DEFAULT 'all',  -- all, followed, follower, none
  access_token TEXT NOT NULL,
  created      TEXT NOT NULL
);
CREATE INDEX push_subscription_channel_idx ON push_subscription (channel_id);
