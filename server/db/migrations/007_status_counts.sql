-- statuses_count without visiting every item of an author: the author's public posts and
-- comments are counted here by triggers; items with an audience (few) are still counted per
-- observer, through the partial index below. "Public status" is, as in store/user-facts.ts: not
-- deleted, hidden or unpublished, an ordinary item (type 0), a content verb, and no access lists.

CREATE TABLE author_status_count (
  author_xchan TEXT PRIMARY KEY,
  n            INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

INSERT INTO author_status_count (author_xchan, n)
  SELECT author_xchan, count(*) FROM item
  WHERE item_deleted = 0 AND item_hidden = 0 AND item_unpublished = 0 AND item_type = 0
    AND verb IN ('http://activitystrea.ms/schema/1.0/post', 'http://activitystrea.ms/schema/1.0/share', 'Create')
    AND item_private = 0 AND allow_cid = '' AND allow_gid = '' AND deny_cid = '' AND deny_gid = ''
  GROUP BY author_xchan;

CREATE TRIGGER author_status_count_insert AFTER INSERT ON item
WHEN new.item_deleted = 0 AND new.item_hidden = 0 AND new.item_unpublished = 0 AND new.item_type = 0
  AND new.verb IN ('http://activitystrea.ms/schema/1.0/post', 'http://activitystrea.ms/schema/1.0/share', 'Create')
  AND new.item_private = 0 AND new.allow_cid = '' AND new.allow_gid = '' AND new.deny_cid = '' AND new.deny_gid = ''
BEGIN
  INSERT INTO author_status_count (author_xchan, n) VALUES (new.author_xchan, 1)
    ON CONFLICT (author_xchan) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER author_status_count_delete AFTER DELETE ON item
WHEN old.item_deleted = 0 AND old.item_hidden = 0 AND old.item_unpublished = 0 AND old.item_type = 0
  AND old.verb IN ('http://activitystrea.ms/schema/1.0/post', 'http://activitystrea.ms/schema/1.0/share', 'Create')
  AND old.item_private = 0 AND old.allow_cid = '' AND old.allow_gid = '' AND old.deny_cid = '' AND old.deny_gid = ''
BEGIN
  UPDATE author_status_count SET n = n - 1 WHERE author_xchan = old.author_xchan;
END;

-- An update counts as the old row leaving and the new one arriving.
CREATE TRIGGER author_status_count_update_old AFTER UPDATE OF item_deleted, item_hidden, item_unpublished, item_type, verb,
  item_private, allow_cid, allow_gid, deny_cid, deny_gid, author_xchan ON item
WHEN old.item_deleted = 0 AND old.item_hidden = 0 AND old.item_unpublished = 0 AND old.item_type = 0
  AND old.verb IN ('http://activitystrea.ms/schema/1.0/post', 'http://activitystrea.ms/schema/1.0/share', 'Create')
  AND old.item_private = 0 AND old.allow_cid = '' AND old.allow_gid = '' AND old.deny_cid = '' AND old.deny_gid = ''
BEGIN
  UPDATE author_status_count SET n = n - 1 WHERE author_xchan = old.author_xchan;
END;

CREATE TRIGGER author_status_count_update_new AFTER UPDATE OF item_deleted, item_hidden, item_unpublished, item_type, verb,
  item_private, allow_cid, allow_gid, deny_cid, deny_gid, author_xchan ON item
WHEN new.item_deleted = 0 AND new.item_hidden = 0 AND new.item_unpublished = 0 AND new.item_type = 0
  AND new.verb IN ('http://activitystrea.ms/schema/1.0/post', 'http://activitystrea.ms/schema/1.0/share', 'Create')
  AND new.item_private = 0 AND new.allow_cid = '' AND new.allow_gid = '' AND new.deny_cid = '' AND new.deny_gid = ''
BEGIN
  INSERT INTO author_status_count (author_xchan, n) VALUES (new.author_xchan, 1)
    ON CONFLICT (author_xchan) DO UPDATE SET n = n + 1;
END;

-- Covers every column the per-observer count reads, so it never visits the item rows themselves.
CREATE INDEX item_author_restricted_idx ON item (author_xchan, verb, item_deleted, item_hidden, item_unpublished, item_type,
  item_private, uid, allow_cid, allow_gid, deny_cid, deny_gid)
  WHERE item_private != 0 OR allow_cid != '' OR allow_gid != '' OR deny_cid != '' OR deny_gid != '';
