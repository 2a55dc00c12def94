-- A counter of the changes that can change which items with an audience an observer may see:
-- such items written, changed or removed, groups and their members, channels (see store/acl.ts).
-- Counts of those items per observer are kept until it moves (store/user-facts.ts), where they
-- used to be recounted after every write of any kind: every statuses/update answer recounted its
-- author's private items. Public posts, nearly all of them, leave it alone.
CREATE TABLE audience_generation (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n  INTEGER NOT NULL
);
INSERT INTO audience_generation (id, n) VALUES (1, 0);

CREATE TRIGGER audience_item_insert AFTER INSERT ON item WHEN (new.item_private != 0 OR new.allow_cid != '' OR new.allow_gid != '' OR new.deny_cid != '' OR new.deny_gid != '')
BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_item_delete AFTER DELETE ON item WHEN (old.item_private != 0 OR old.allow_cid != '' OR old.allow_gid != '' OR old.deny_cid != '' OR old.deny_gid != '')
BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_item_update AFTER UPDATE ON item WHEN (old.item_private != 0 OR old.allow_cid != '' OR old.allow_gid != '' OR old.deny_cid != '' OR old.deny_gid != '') OR (new.item_private != 0 OR new.allow_cid != '' OR new.allow_gid != '' OR new.deny_cid != '' OR new.deny_gid != '')
BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_pgrp_insert AFTER INSERT ON pgrp BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_pgrp_update AFTER UPDATE OF id, hash, uid, deleted ON pgrp BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_pgrp_delete AFTER DELETE ON pgrp BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_pgrp_member_insert AFTER INSERT ON pgrp_member BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_pgrp_member_update AFTER UPDATE ON pgrp_member BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_pgrp_member_delete AFTER DELETE ON pgrp_member BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_channel_insert AFTER INSERT ON channel BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_channel_update AFTER UPDATE OF channel_id, channel_hash ON channel BEGIN UPDATE audience_generation SET n = n + 1; END;
CREATE TRIGGER audience_channel_delete AFTER DELETE ON channel BEGIN UPDATE audience_generation SET n = n + 1; END;
