-- Contact lists (Mastodon's followers, following, follow requests, blocks, mutes, a list's
-- accounts) are ordered and paged by the person's account id, xchan_id, newest first. To read a
-- page straight from an index, the relation rows keep a copy of the xchan_id of the hash they
-- name (0 while no xchan row has that hash). Triggers keep the copy right whenever a relation row
-- is written or an xchan row appears, goes or changes its hash.

ALTER TABLE abook ADD COLUMN abook_xchan_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pgrp_member ADD COLUMN xchan_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE abconfig ADD COLUMN xchan_id INTEGER NOT NULL DEFAULT 0;

UPDATE abook SET abook_xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = abook.abook_xchan), 0);
UPDATE pgrp_member SET xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = pgrp_member.xchan), 0);
UPDATE abconfig SET xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = abconfig.xchan), 0);

CREATE TRIGGER abook_xchan_id_insert AFTER INSERT ON abook
BEGIN
  UPDATE abook SET abook_xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = new.abook_xchan), 0) WHERE abook_id = new.abook_id;
END;
CREATE TRIGGER abook_xchan_id_update AFTER UPDATE OF abook_xchan ON abook
BEGIN
  UPDATE abook SET abook_xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = new.abook_xchan), 0) WHERE abook_id = new.abook_id;
END;
CREATE TRIGGER pgrp_member_xchan_id_insert AFTER INSERT ON pgrp_member
BEGIN
  UPDATE pgrp_member SET xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = new.xchan), 0) WHERE id = new.id;
END;
CREATE TRIGGER pgrp_member_xchan_id_update AFTER UPDATE OF xchan ON pgrp_member
BEGIN
  UPDATE pgrp_member SET xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = new.xchan), 0) WHERE id = new.id;
END;
CREATE TRIGGER abconfig_xchan_id_insert AFTER INSERT ON abconfig
BEGIN
  UPDATE abconfig SET xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = new.xchan), 0) WHERE id = new.id;
END;
CREATE TRIGGER abconfig_xchan_id_update AFTER UPDATE OF xchan ON abconfig
BEGIN
  UPDATE abconfig SET xchan_id = coalesce((SELECT xchan_id FROM xchan WHERE xchan_hash = new.xchan), 0) WHERE id = new.id;
END;

CREATE TRIGGER xchan_relations_insert AFTER INSERT ON xchan
BEGIN
  UPDATE abook SET abook_xchan_id = new.xchan_id WHERE abook_xchan = new.xchan_hash;
  UPDATE pgrp_member SET xchan_id = new.xchan_id WHERE xchan = new.xchan_hash;
  UPDATE abconfig SET xchan_id = new.xchan_id WHERE xchan = new.xchan_hash;
END;
CREATE TRIGGER xchan_relations_update AFTER UPDATE OF xchan_id, xchan_hash ON xchan
BEGIN
  UPDATE abook SET abook_xchan_id = 0 WHERE abook_xchan = old.xchan_hash;
  UPDATE pgrp_member SET xchan_id = 0 WHERE xchan = old.xchan_hash;
  UPDATE abconfig SET xchan_id = 0 WHERE xchan = old.xchan_hash;
  UPDATE abook SET abook_xchan_id = new.xchan_id WHERE abook_xchan = new.xchan_hash;
  UPDATE pgrp_member SET xchan_id = new.xchan_id WHERE xchan = new.xchan_hash;
  UPDATE abconfig SET xchan_id = new.xchan_id WHERE xchan = new.xchan_hash;
END;
CREATE TRIGGER xchan_relations_delete AFTER DELETE ON xchan
BEGIN
  UPDATE abook SET abook_xchan_id = 0 WHERE abook_xchan = old.xchan_hash;
  UPDATE pgrp_member SET xchan_id = 0 WHERE xchan = old.xchan_hash;
  UPDATE abconfig SET xchan_id = 0 WHERE xchan = old.xchan_hash;
END;

-- One index per list, holding only that list's records, in page order.
CREATE INDEX abook_following_page_idx ON abook (abook_channel, abook_xchan_id) WHERE abook_follow_accepted = 1;
CREATE INDEX abook_incoming_page_idx ON abook (abook_channel, abook_xchan_id)
  WHERE abook_self = 0 AND abook_pending = 1 AND abook_blocked = 0 AND abook_ignored = 0;
CREATE INDEX abook_blocked_page_idx ON abook (abook_channel, abook_xchan_id) WHERE abook_self = 0 AND abook_blocked = 1;
-- People elsewhere who follow a channel are among its records that are neither pending nor blocked.
CREATE INDEX abook_accepted_page_idx ON abook (abook_channel, abook_xchan_id) WHERE abook_pending = 0 AND abook_blocked = 0;
CREATE INDEX abconfig_muted_page_idx ON abconfig (chan, xchan_id) WHERE cat = 'mastodon' AND k = 'muted' AND v = '1';
CREATE INDEX pgrp_member_page_idx ON pgrp_member (gid, xchan_id);

-- The native abook and group_members listings, oldest first, read in slices that resume after
-- the last row read.
CREATE INDEX abook_channel_id_idx ON abook (abook_channel, abook_id);
CREATE INDEX pgrp_member_gid_idx ON pgrp_member (gid, id);

-- The native albums listing gives each album's number of photos. Counted on every answer, that
-- read every photo of the channel; this table keeps the numbers instead: for each channel and
-- album, how many photos (distinct resource_id among the rows of usage 0 or 1, any scale) it
-- holds. An album is listed while it holds one. The triggers count a resource when its first
-- counted row enters the album and uncount it when its last one leaves.
CREATE TABLE photo_album (
  uid   INTEGER NOT NULL REFERENCES channel (channel_id) ON DELETE CASCADE,
  album TEXT NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (uid, album)
) WITHOUT ROWID;

INSERT INTO photo_album (uid, album, total)
SELECT uid, album, count(DISTINCT resource_id) FROM photo WHERE photo_usage IN (0, 1) GROUP BY uid, album;

CREATE TRIGGER photo_album_insert AFTER INSERT ON photo
WHEN new.photo_usage IN (0, 1)
  AND NOT EXISTS (SELECT 1 FROM photo p WHERE p.resource_id = new.resource_id AND p.id != new.id AND p.uid = new.uid AND p.album = new.album AND p.photo_usage IN (0, 1))
BEGIN
  INSERT INTO photo_album (uid, album, total) VALUES (new.uid, new.album, 1)
  ON CONFLICT (uid, album) DO UPDATE SET total = total + 1;
END;

CREATE TRIGGER photo_album_delete AFTER DELETE ON photo
WHEN old.photo_usage IN (0, 1)
  AND NOT EXISTS (SELECT 1 FROM photo p WHERE p.resource_id = old.resource_id AND p.uid = old.uid AND p.album = old.album AND p.photo_usage IN (0, 1))
BEGIN
  UPDATE photo_album SET total = total - 1 WHERE uid = old.uid AND album = old.album;
  DELETE FROM photo_album WHERE uid = old.uid AND album = old.album AND total <= 0;
END;

-- A row that moves counts as leaving where it was and entering where it is; one that stays in
-- the same (channel, album, resource) and counted both times changes nothing.
CREATE TRIGGER photo_album_update_leave AFTER UPDATE OF uid, album, resource_id, photo_usage ON photo
WHEN old.photo_usage IN (0, 1)
  AND NOT EXISTS (SELECT 1 FROM photo p WHERE p.resource_id = old.resource_id AND p.uid = old.uid AND p.album = old.album AND p.photo_usage IN (0, 1))
BEGIN
  UPDATE photo_album SET total = total - 1 WHERE uid = old.uid AND album = old.album;
  DELETE FROM photo_album WHERE uid = old.uid AND album = old.album AND total <= 0;
END;

CREATE TRIGGER photo_album_update_enter AFTER UPDATE OF uid, album, resource_id, photo_usage ON photo
WHEN new.photo_usage IN (0, 1)
  AND NOT (old.photo_usage IN (0, 1) AND old.uid = new.uid AND old.album = new.album AND old.resource_id = new.resource_id)
  AND NOT EXISTS (SELECT 1 FROM photo p WHERE p.resource_id = new.resource_id AND p.id != new.id AND p.uid = new.uid AND p.album = new.album AND p.photo_usage IN (0, 1))
BEGIN
  INSERT INTO photo_album (uid, album, total) VALUES (new.uid, new.album, 1)
  ON CONFLICT (uid, album) DO UPDATE SET total = total + 1;
END;
