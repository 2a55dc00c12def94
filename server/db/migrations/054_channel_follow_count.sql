-- How many identities each channel follows (accepted follows, abook_follow_accepted = 1), kept by
-- triggers. A user object's friend count was counted from the channel's connection records on
-- every answer that names the channel: 37 µs for each at 2,000 connections, and growing with them.
-- The state itself is kept by the triggers of 048, which set the column with UPDATEs that fire
-- these.

CREATE TABLE channel_follow_count (
  channel_id INTEGER PRIMARY KEY,
  n          INTEGER NOT NULL DEFAULT 0
);

INSERT INTO channel_follow_count (channel_id, n)
  SELECT abook_channel, count(*) FROM abook WHERE abook_follow_accepted = 1 GROUP BY abook_channel;

CREATE TRIGGER channel_follow_count_insert AFTER INSERT ON abook
WHEN new.abook_follow_accepted = 1
BEGIN
  INSERT INTO channel_follow_count (channel_id, n) VALUES (new.abook_channel, 1)
    ON CONFLICT (channel_id) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER channel_follow_count_delete AFTER DELETE ON abook
WHEN old.abook_follow_accepted = 1
BEGIN
  UPDATE channel_follow_count SET n = n - 1 WHERE channel_id = old.abook_channel;
END;

-- An update counts as the old record leaving and the new one arriving.
CREATE TRIGGER channel_follow_count_update_old AFTER UPDATE OF abook_channel, abook_follow_accepted ON abook
WHEN old.abook_follow_accepted = 1
BEGIN
  UPDATE channel_follow_count SET n = n - 1 WHERE channel_id = old.abook_channel;
END;

CREATE TRIGGER channel_follow_count_update_new AFTER UPDATE OF abook_channel, abook_follow_accepted ON abook
WHEN new.abook_follow_accepted = 1
BEGIN
  INSERT INTO channel_follow_count (channel_id, n) VALUES (new.abook_channel, 1)
    ON CONFLICT (channel_id) DO UPDATE SET n = n + 1;
END;
