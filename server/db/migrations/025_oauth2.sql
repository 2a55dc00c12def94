-- OAuth 2 for the Mastodon client API: apps register themselves (POST /api/v1/apps), the owner
-- approves one for one channel, and the app holds a bearer token bound to that channel.
CREATE TABLE oauth2_app (
  client_id     TEXT PRIMARY KEY,
  client_secret TEXT NOT NULL,
  name          TEXT NOT NULL,
  website       TEXT NOT NULL DEFAULT '',
  redirect_uris TEXT NOT NULL,                -- one per line
  scopes        TEXT NOT NULL,                -- space-separated
  created       TEXT NOT NULL
);

-- Authorization codes: spent on first use, short-lived.
CREATE TABLE oauth2_code (
  code           TEXT PRIMARY KEY,             -- sha256 of the code handed out
  client_id      TEXT NOT NULL REFERENCES oauth2_app (client_id) ON DELETE CASCADE,
  channel_id     INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  redirect_uri   TEXT NOT NULL,
  scopes         TEXT NOT NULL,
  challenge      TEXT NOT NULL DEFAULT '',
  challenge_method TEXT NOT NULL DEFAULT '',
  expires        TEXT NOT NULL
);

-- Bearer tokens; channel_id is NULL for client_credentials tokens (the app alone, no user).
CREATE TABLE oauth2_token (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash TEXT NOT NULL UNIQUE,              -- sha256 of the bearer token
  client_id  TEXT NOT NULL REFERENCES oauth2_app (client_id) ON DELETE CASCADE,
  channel_id INTEGER REFERENCES channel (channel_id) ON DELETE CASCADE,
  scopes     TEXT NOT NULL,
  created    TEXT NOT NULL
);
CREATE INDEX oauth2_token_channel_idx ON oauth2_token (channel_id);
