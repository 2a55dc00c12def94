-- Search finds what readers see: the title and the plain text of the rendered body (html_text),
-- not the words of its markup (image and link URLs, BBCode tags). The raw body stays indexed as a
-- third column, for finding the posts that show a photo by the resource id in its URLs
-- (services/item-html.ts, compat/photo-posts.ts); text searches name their columns (store/fts.ts).
DROP TRIGGER item_fts_insert;
DROP TRIGGER item_fts_delete;
DROP TRIGGER item_fts_update;
DROP TABLE item_fts;
CREATE VIRTUAL TABLE item_fts USING fts5 (title, html_text, body, content = 'item', content_rowid = 'id', tokenize = 'unicode61');
CREATE TRIGGER item_fts_insert AFTER INSERT ON item BEGIN
  INSERT INTO item_fts (rowid, title, html_text, body) VALUES (new.id, new.title, new.html_text, new.body);
END;
CREATE TRIGGER item_fts_delete AFTER DELETE ON item BEGIN
  INSERT INTO item_fts (item_fts, rowid, title, html_text, body) VALUES ('delete', old.id, old.title, old.html_text, old.body);
END;
-- html_text changes when the body does, and when a post is rendered again (a photo of it deleted,
-- a newer renderer).
CREATE TRIGGER item_fts_update AFTER UPDATE OF title, body, html_text ON item BEGIN
  INSERT INTO item_fts (item_fts, rowid, title, html_text, body) VALUES ('delete', old.id, old.title, old.html_text, old.body);
  INSERT INTO item_fts (rowid, title, html_text, body) VALUES (new.id, new.title, new.html_text, new.body);
END;
INSERT INTO item_fts (item_fts) VALUES ('rebuild');
