-- The microblog and Mastodon timelines walk items newest first until their page is full, skipping
-- what no timeline lists. A photo's item is hidden, so after an album upload of 2,000 photos each
-- home timeline read 2,000 hidden rows before the first post (0.2 ms of its 0.55). This index holds
-- only the items a timeline can list; SQLite walks it for the timelines' queries by itself.
CREATE INDEX item_listed_idx ON item (id) WHERE item_deleted = 0 AND item_hidden = 0 AND item_type = 0;
