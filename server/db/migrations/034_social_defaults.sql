-- Social defaults, as Mastodon apps expect (DESIGN.md "Accounts, channels, identities").
--
-- 1. Anyone who may see a public post may reply to it, like it and share it: the permission limits
--    post_comments, post_like and republish become public (1) where they still hold the old default
--    (128, per connection). A channel that chose otherwise keeps its choice; new channels get the
--    same values from DEFAULT_CHANNEL_CONFIG (services/permissions.ts).
UPDATE pconfig SET v = '1', updated = strftime('%Y-%m-%d %H:%M:%S', 'now')
WHERE cat = 'perm_limits' AND k IN ('post_comments', 'post_like', 'republish') AND trim(v) = '128';

-- 2. A follow is accepted at once unless the channel approves followers by hand: one setting,
--    Hubzilla's system/autoperms ('1' accept at once, '0' by hand). A channel a Mastodon app had
--    marked locked approves by hand; every other channel without the setting accepts at once.
--    The Mastodon-only flag is then dropped: autoperms is what every API reads.
INSERT OR IGNORE INTO pconfig (uid, cat, k, v, updated)
SELECT c.channel_id, 'system', 'autoperms',
  CASE WHEN EXISTS (SELECT 1 FROM pconfig l WHERE l.uid = c.channel_id AND l.cat = 'mastodon' AND l.k = 'locked' AND l.v = '1') THEN '0' ELSE '1' END,
  strftime('%Y-%m-%d %H:%M:%S', 'now')
FROM channel c;
DELETE FROM pconfig WHERE cat = 'mastodon' AND k = 'locked';

-- 3. Follows are one-way: a channel's connection record says whether the channel follows them
--    (abook_unconnected = 0) apart from whether their follow waits for its approval (abook_pending).
--    Until now a waiting request was never a follow of the channel's, and an accepted record was.
UPDATE abook SET abook_unconnected = 1 WHERE abook_self = 0 AND abook_pending = 1;
UPDATE abook SET abook_unconnected = 0 WHERE abook_self = 1 OR abook_pending = 0;
