-- Twitter clients need one id per direct message, whoever looks at it: the sender's and the
-- recipient's copies of a message now share the id of the sender's copy (shared_id).
ALTER TABLE mail ADD COLUMN shared_id INTEGER NOT NULL DEFAULT 0;
UPDATE mail SET shared_id = (SELECT min(m.id) FROM mail m WHERE m.mid = mail.mid);
CREATE INDEX mail_channel_shared_idx ON mail (channel_id, mail_deleted, shared_id);

-- Retweet counts and statuses/retweets find the shares of an item by its id.
CREATE INDEX iconfig_value_idx ON iconfig (cat, k, v);
