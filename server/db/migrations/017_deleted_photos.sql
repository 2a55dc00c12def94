-- Photos their owner deleted. A post that showed one shows a "photo removed" note in its place
-- (its stored HTML is made again without the image, and again whenever it is rendered).
CREATE TABLE deleted_photo (
  resource_id TEXT PRIMARY KEY,
  uid         INTEGER NOT NULL,
  filename    TEXT NOT NULL DEFAULT '',
  deleted     TEXT NOT NULL
) WITHOUT ROWID;
