-- Native API streams and exports: a channel's items in creation order, read straight from the
-- index so that exports of any size iterate without sorting (and holding) all rows first.
CREATE INDEX item_uid_created_id_idx ON item (uid, created, id);
