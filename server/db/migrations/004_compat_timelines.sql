-- Compatibility API: per-channel stars and the indexes its timelines and search need.

-- Stars (Twitter favorites) that a channel puts on items living in another channel's threads.
-- Stars on a channel's own items stay in item.item_starred, as in Hubzilla.
CREATE TABLE item_star (
  uid     INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  iid     INTEGER NOT NULL REFERENCES item (id) ON DELETE CASCADE,
  created TEXT NOT NULL DEFAULT '0001-01-01 00:00:00',
  PRIMARY KEY (uid, iid)
) WITHOUT ROWID;
CREATE INDEX item_star_iid_idx ON item_star (iid);

-- Mentions of a channel (statuses/mentions) and hashtag search.
CREATE INDEX term_hash_idx ON term (ttype, term_hash) WHERE term_hash != '';
CREATE INDEX term_tag_idx ON term (ttype, term COLLATE NOCASE);
