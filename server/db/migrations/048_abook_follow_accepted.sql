-- Whether a connection record is an accepted follow, kept on the record rather than worked out on
-- every read. The home timelines, the network stream and the compat user object's friend count
-- read the list of whom a channel follows on every answer; derived per record (is the other side a
-- channel of this hub, has it accepted, or has the server elsewhere accepted) it cost three
-- correlated lookups per connection, twice per query: 2–8 ms per answer with 2,000 connections.
--
-- abook_follow_state says it once, as store/social-graph.ts describes: record `abook` is a follow
-- its channel made (not its self record, not unconnected), not blocked by the channel, and either
-- the followed identity is elsewhere and its server is not still to accept (fed_follow 'out',
-- accepted 0), or it is a channel of this hub whose own record of the follower is neither pending
-- nor blocked. The triggers below recompute abook_follow_accepted, in the same transaction, for
-- every record whose state a write can change: the record itself, the other side's record of the
-- follower, the records of a remote follow, and every record naming a channel that appears or goes.

ALTER TABLE abook ADD COLUMN abook_follow_accepted INTEGER NOT NULL DEFAULT 0;

CREATE VIEW abook_follow_state AS
SELECT a.abook_id,
  (a.abook_self = 0 AND a.abook_unconnected = 0 AND a.abook_blocked = 0
    AND ((NOT EXISTS (SELECT 1 FROM channel fc WHERE fc.channel_hash = a.abook_xchan)
          AND NOT EXISTS (SELECT 1 FROM fed_follow ff WHERE ff.channel_id = a.abook_channel AND ff.actor = a.abook_xchan
                            AND ff.direction = 'out' AND ff.accepted = 0))
      OR EXISTS (SELECT 1 FROM channel fc JOIN abook fb ON fb.abook_channel = fc.channel_id
                 WHERE fc.channel_hash = a.abook_xchan
                   AND fb.abook_xchan = (SELECT oc.channel_hash FROM channel oc WHERE oc.channel_id = a.abook_channel)
                   AND fb.abook_pending = 0 AND fb.abook_blocked = 0))) AS accepted
FROM abook a;

UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id);

-- Whom a channel follows, read without visiting the records themselves; the second also holds the
-- channel's self record, as its home timeline lists the channel's own items too.
CREATE INDEX abook_followed_idx ON abook (abook_channel, abook_xchan) WHERE abook_follow_accepted = 1;
CREATE INDEX abook_followed_or_self_idx ON abook (abook_channel, abook_xchan) WHERE abook_follow_accepted = 1 OR abook_self = 1;

-- A record's own state, and the state of the other side's record of its channel (a local follow
-- is accepted by the followed channel's record of the follower).
CREATE TRIGGER abook_follow_insert AFTER INSERT ON abook
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE abook_id = new.abook_id
     OR (abook_channel = (SELECT channel_id FROM channel WHERE channel_hash = new.abook_xchan)
         AND abook_xchan = (SELECT channel_hash FROM channel WHERE channel_id = new.abook_channel));
END;

CREATE TRIGGER abook_follow_update AFTER UPDATE OF abook_channel, abook_xchan, abook_self, abook_unconnected, abook_blocked, abook_pending ON abook
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE abook_id = new.abook_id
     OR (abook_channel = (SELECT channel_id FROM channel WHERE channel_hash = new.abook_xchan)
         AND abook_xchan = (SELECT channel_hash FROM channel WHERE channel_id = new.abook_channel))
     OR (abook_channel = (SELECT channel_id FROM channel WHERE channel_hash = old.abook_xchan)
         AND abook_xchan = (SELECT channel_hash FROM channel WHERE channel_id = old.abook_channel));
END;

CREATE TRIGGER abook_follow_delete AFTER DELETE ON abook
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE abook_channel = (SELECT channel_id FROM channel WHERE channel_hash = old.abook_xchan)
    AND abook_xchan = (SELECT channel_hash FROM channel WHERE channel_id = old.abook_channel);
END;

-- A follow of someone elsewhere waits while its fed_follow 'out' row is not accepted.
CREATE TRIGGER fed_follow_follow_insert AFTER INSERT ON fed_follow
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE abook_channel = new.channel_id AND abook_xchan = new.actor;
END;

CREATE TRIGGER fed_follow_follow_update AFTER UPDATE ON fed_follow
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE (abook_channel = new.channel_id AND abook_xchan = new.actor) OR (abook_channel = old.channel_id AND abook_xchan = old.actor);
END;

CREATE TRIGGER fed_follow_follow_delete AFTER DELETE ON fed_follow
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE abook_channel = old.channel_id AND abook_xchan = old.actor;
END;

-- Whether the followed identity is a channel of this hub decides which rule applies; a channel's
-- own hash is the follower its followed channels' records name.
CREATE TRIGGER channel_follow_insert AFTER INSERT ON channel
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE abook_xchan = new.channel_hash;
END;

CREATE TRIGGER channel_follow_update AFTER UPDATE OF channel_id, channel_hash ON channel
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE abook_xchan IN (old.channel_hash, new.channel_hash) OR abook_channel IN (old.channel_id, new.channel_id);
END;

CREATE TRIGGER channel_follow_delete AFTER DELETE ON channel
BEGIN
  UPDATE abook SET abook_follow_accepted = (SELECT s.accepted FROM abook_follow_state s WHERE s.abook_id = abook.abook_id)
  WHERE abook_xchan = old.channel_hash;
END;
