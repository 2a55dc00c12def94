-- The full-text index is made again, for two things FTS5 takes only when a table is made.
--
-- A search word of one or two letters is a prefix of thousands of indexed words, too many to spell
-- out (store/fts.ts), and FTS5 answered it by merging the documents of all of them before the
-- newest could come: 169 ms for "a" among a million items, 16 ms among 100,000. With prefix
-- indexes for one and two characters it reads one list, newest first, and stops with the page.
--
-- Hidden items (the item of each photo, which carries its description) are no longer indexed: no
-- search shows them, yet a search walked past every one that matched. An album of 500 photos put
-- 500 of them before the first post a short word finds (13.7 ms for "l" at the huge bench size).
-- Posts that show a photo are found by its resource id in their own text, which stays indexed.
--
-- The index keeps the same columns. With the prefix indexes and without the hidden items it grows
-- from 234 to 530 MB of a 3.3 GB database after ten years (23 to 53 MB after one), and this
-- migration takes about 30 s there (2 s after one year).
DROP TRIGGER item_fts_insert;
DROP TRIGGER item_fts_delete;
DROP TRIGGER item_fts_update;
DROP TABLE item_fts;
CREATE VIRTUAL TABLE item_fts USING fts5 (title, html_text, body, content = 'item', content_rowid = 'id', tokenize = 'unicode61', prefix = '1 2');
-- An external-content index must be told of exactly the rows it holds: only an item that was
-- visible is taken out, only one that is visible is put in.
CREATE TRIGGER item_fts_insert AFTER INSERT ON item WHEN new.item_hidden = 0 BEGIN
  INSERT INTO item_fts (rowid, title, html_text, body) VALUES (new.id, new.title, new.html_text, new.body);
END;
CREATE TRIGGER item_fts_delete AFTER DELETE ON item WHEN old.item_hidden = 0 BEGIN
  INSERT INTO item_fts (item_fts, rowid, title, html_text, body) VALUES ('delete', old.id, old.title, old.html_text, old.body);
END;
CREATE TRIGGER item_fts_update AFTER UPDATE OF id, title, body, html_text, item_hidden ON item BEGIN
  INSERT INTO item_fts (item_fts, rowid, title, html_text, body) SELECT 'delete', old.id, old.title, old.html_text, old.body WHERE old.item_hidden = 0;
  INSERT INTO item_fts (rowid, title, html_text, body) SELECT new.id, new.title, new.html_text, new.body WHERE new.item_hidden = 0;
END;
INSERT INTO item_fts (rowid, title, html_text, body) SELECT id, title, html_text, body FROM item WHERE item_hidden = 0;
-- Filled in one statement, the index is left in dozens of segments, which every later write helps
-- to merge: a post cost 330 µs to index at the huge size, against 117 µs once they are merged into
-- one (5 s there).
INSERT INTO item_fts (item_fts) VALUES ('optimize');
