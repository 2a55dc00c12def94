-- Indexes that `npm run bench` showed missing at 100,000 items.

-- Items by message id alone: every new post checks its mid is unused, and comments find their
-- parent by mid; without this each of those scanned the whole item table.
CREATE INDEX item_mid_idx ON item (mid);

-- network/stream: thread tops by latest activity, read newest first, stopping after one page.
CREATE INDEX item_top_commented_idx ON item (item_thread_top, commented, id);

-- ext/notifications: unseen first, then newest. Read backwards this index is exactly that order,
-- so the last 50 come without sorting all of the channel's notifications.
CREATE INDEX notify_uid_unseen_idx ON notify (uid, seen DESC, created, id);
