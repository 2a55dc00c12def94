-- Federation (ActivityPub through Fedify): its key-value store and its durable message queue.
-- Keys are Fedify's key arrays as JSON text, so that a prefix of the array is a prefix of the text.
CREATE TABLE fed_kv (
  k       TEXT PRIMARY KEY,
  v       TEXT NOT NULL,
  expires INTEGER            -- Unix ms; NULL for no expiry
) WITHOUT ROWID;
CREATE INDEX fed_kv_expires_idx ON fed_kv (expires) WHERE expires IS NOT NULL;

-- Messages wait here until a worker has handled them: a delivery survives restarts and kill -9.
CREATE TABLE fed_queue (
  id       INTEGER PRIMARY KEY AUTOINCREMENT,
  message  TEXT NOT NULL,    -- JSON
  ready_at INTEGER NOT NULL, -- Unix ms
  lane     TEXT NOT NULL DEFAULT '' -- deliveries to one host share a lane (limited concurrency)
);
CREATE INDEX fed_queue_ready_idx ON fed_queue (ready_at, id);

-- Remote actors (ActivityPub): each is an xchan (hash = its id URL, network 'activitypub') like any
-- other identity; what only delivery needs is kept here.
CREATE TABLE fed_actor (
  xchan_hash   TEXT PRIMARY KEY REFERENCES xchan (xchan_hash) ON DELETE CASCADE,
  inbox        TEXT NOT NULL,
  shared_inbox TEXT NOT NULL DEFAULT '',
  followers    TEXT NOT NULL DEFAULT '',
  key_id       TEXT NOT NULL DEFAULT '',
  manually_approves INTEGER NOT NULL DEFAULT 0,
  fetched      INTEGER NOT NULL DEFAULT 0   -- Unix ms
);

-- Follows across servers. The connection records (abook) hold them for every API as for local
-- channels; here is what the other side needs: the Follow's id (which Accept, Reject and Undo name)
-- and, for the channel's own follows, whether the other side has accepted yet.
CREATE TABLE fed_follow (
  channel_id  INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  actor       TEXT NOT NULL,                      -- the remote actor's xchan hash
  direction   TEXT NOT NULL CHECK (direction IN ('in', 'out')), -- in: they follow the channel
  activity_id TEXT NOT NULL,
  accepted    INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (channel_id, actor, direction)
) WITHOUT ROWID;
CREATE INDEX fed_follow_actor_idx ON fed_follow (actor, direction);
