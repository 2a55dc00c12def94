-- A channel's own timeline (statuses/user_timeline, the Mastodon API's account statuses) walks its
-- author's items newest first until the page is full, skipping what no timeline lists. A photo's
-- item is hidden and its author is the uploader, so after 50,000 photos every read of the owner's
-- timeline walked 50,000 hidden rows of item_author_idx before its first post (95 ms of CPU per
-- answer in the bench's huge data set; 2.5 ms with 2,000 photos). This index holds only the items a
-- timeline can list, as item_listed_idx (031) does for the walks by id alone; SQLite picks it by
-- itself for queries whose WHERE holds its three conditions.
CREATE INDEX IF NOT EXISTS item_author_listed_idx ON item (author_xchan, id) WHERE item_deleted = 0 AND item_hidden = 0 AND item_type = 0;
