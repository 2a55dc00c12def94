-- network/stream walks thread tops by latest activity until its page is full. The index over every
-- top made it read, row by row, each hidden top newer than the page: a photo's item is a hidden
-- thread top, so after an album upload of 2,000 photos every request read 2,000 rows before the
-- first post (0.9 ms). Only the tops a stream can show are indexed now.
DROP INDEX item_top_commented_idx;
CREATE INDEX item_shown_top_commented_idx ON item (commented, id) WHERE item_thread_top = 1 AND item_hidden = 0;
