-- A direct message is an item (its text, thread and audience, whichever API wrote it or whichever
-- server sent it); a mail row is its place in one channel's mailbox: seen or not, deleted from that
-- mailbox or not, its conversation and subject. iid names the item; 0 for messages written before
-- (they keep their own text).
ALTER TABLE mail ADD COLUMN iid INTEGER NOT NULL DEFAULT 0;
CREATE INDEX mail_iid_idx ON mail (iid) WHERE iid != 0;
