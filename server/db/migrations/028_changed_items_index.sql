-- channel/stream shows the threads active since a date, oldest first. Threads whose items were all
-- created since then are found by walking the items in creation order until the page is full;
-- threads with an older item changed since then (an edited post, a thread top touched by a new
-- comment) are found here. Only items changed after they were created are indexed: new posts,
-- whose changed equals created, cost nothing more to write. `created` is in the index so that the
-- items created since the date (most of a long window) are passed over without reading them.
CREATE INDEX item_uid_changed_idx ON item (uid, changed, created) WHERE changed > created;
