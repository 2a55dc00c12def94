-- A channel's notifications newest first by id (ext/notifications with count, since_id or max_id, as
-- the UI's bell asks at every start; the Mastodon API's notifications and their groups) had only
-- notify_uid_unseen_idx (uid, seen DESC, created, id): SQLite read every notification of the channel
-- and sorted them to return a page of 40, 150-230 ms for the 89,000 of the bench's huge data set.
-- With this index a page walks its rows downwards from its upper bound and stops when full.
CREATE INDEX IF NOT EXISTS notify_uid_id_idx ON notify (uid, id);

-- The channel's profile photo (/photo/profile/<size>/<uid>, the avatar on every screen of the UI)
-- was found through photo_uid_created_idx among all the channel's photo scales and sorted: 50-90 ms
-- for the 200,000 scales of the huge data set's 50,000 photos. Only a few scales are a profile photo.
CREATE INDEX IF NOT EXISTS photo_profile_idx ON photo (uid, imgscale, id) WHERE photo_usage = 1;
