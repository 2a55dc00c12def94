-- Earlier versions of posts edited through the Mastodon API (PUT /api/v1/statuses/:id), for
-- GET /api/v1/statuses/:id/history; and the Idempotency-Key of posts, so a retried post is one post.
CREATE TABLE status_edit (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  iid       INTEGER NOT NULL REFERENCES item (id) ON DELETE CASCADE,
  created   TEXT NOT NULL,                   -- when this version was written
  html      TEXT NOT NULL,
  summary   TEXT NOT NULL DEFAULT '',
  sensitive INTEGER NOT NULL DEFAULT 0,
  attach    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX status_edit_item_idx ON status_edit (iid, id);

CREATE TABLE status_idempotency (
  channel_id INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  idem_key   TEXT NOT NULL,
  iid        INTEGER NOT NULL REFERENCES item (id) ON DELETE CASCADE,
  created    TEXT NOT NULL,
  PRIMARY KEY (channel_id, idem_key)
);
