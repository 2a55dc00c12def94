-- Finding people by a part of their name or nickname (the Mastodon API's account search, the
-- microblog API's users/search) compared every identity the hub knows: 0.9 ms among 2,000, and a
-- hub that federates for years meets tens of thousands. A trigram index finds the identities whose
-- name or address holds a text of three characters or more; store/xchan-lookup.ts then applies the
-- exact rules to those few. It folds case more widely than lower() does, so it never finds fewer.
CREATE VIRTUAL TABLE xchan_fts USING fts5 (xchan_name, xchan_addr, content = 'xchan', content_rowid = 'xchan_id', tokenize = 'trigram');
CREATE TRIGGER xchan_fts_insert AFTER INSERT ON xchan BEGIN
  INSERT INTO xchan_fts (rowid, xchan_name, xchan_addr) VALUES (new.xchan_id, new.xchan_name, new.xchan_addr);
END;
CREATE TRIGGER xchan_fts_delete AFTER DELETE ON xchan BEGIN
  INSERT INTO xchan_fts (xchan_fts, rowid, xchan_name, xchan_addr) VALUES ('delete', old.xchan_id, old.xchan_name, old.xchan_addr);
END;
CREATE TRIGGER xchan_fts_update AFTER UPDATE OF xchan_id, xchan_name, xchan_addr ON xchan BEGIN
  INSERT INTO xchan_fts (xchan_fts, rowid, xchan_name, xchan_addr) VALUES ('delete', old.xchan_id, old.xchan_name, old.xchan_addr);
  INSERT INTO xchan_fts (rowid, xchan_name, xchan_addr) VALUES (new.xchan_id, new.xchan_name, new.xchan_addr);
END;
INSERT INTO xchan_fts (xchan_fts) VALUES ('rebuild');

-- Someone named by their profile URL (a search, an actor looked up by URL) was found by reading
-- every identity.
CREATE INDEX xchan_url_idx ON xchan (xchan_url);
