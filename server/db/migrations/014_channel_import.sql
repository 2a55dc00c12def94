-- Channels moved here from another hub (hearth channel import, "Move a channel here"). One row per
-- source identity: running the import again resumes into the same channel, and the source identity
-- of a moved channel maps onto its new one when other imported channels refer to it.
CREATE TABLE channel_import (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  channel_id     INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  source_url     TEXT NOT NULL,             -- the source hub's base URL
  source_nick    TEXT NOT NULL,
  source_hash    TEXT NOT NULL UNIQUE,      -- the channel's identity (xchan hash) on the source hub
  source_guid    TEXT NOT NULL DEFAULT '',
  source_address TEXT NOT NULL DEFAULT '',
  state          TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'interrupted', 'failed', 'done')),
  summary        TEXT NOT NULL DEFAULT '',  -- JSON of the last run's summary
  started        TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  updated        TEXT NOT NULL DEFAULT '0001-01-01 00:00:00'
);
CREATE INDEX channel_import_channel_idx ON channel_import (channel_id);
