-- Indexes no query uses, which every post paid for: at one post per commit, a post with a
-- mention and a hashtag wrote 39 pages, 5 of them to these three.
--
-- No query looks terms up by channel: terms are found by item (term_oid_idx), by tag name
-- (term_tag_idx) or by mentioned channel (term_hash_idx).
DROP INDEX IF EXISTS term_uid_term_idx;
-- notify_uid_unseen_idx (uid, seen DESC, created, id) serves every notification query this one
-- (uid, seen, created) did, with the same plans.
DROP INDEX IF EXISTS notify_uid_idx;
-- Nothing looks items up by uuid; they are found by id or by message id.
DROP INDEX IF EXISTS item_uuid_idx;
