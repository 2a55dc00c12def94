-- Anyone may register a Mastodon app (POST /api/v1/apps). An app the owner never approved for a
-- channel (on the authorize page or by logging in with the password grant) is removed a day after
-- it registered, with any app-only token it took; `approved` says which apps stay.
ALTER TABLE oauth2_app ADD COLUMN approved INTEGER NOT NULL DEFAULT 0;
UPDATE oauth2_app SET approved = 1
WHERE client_id IN (SELECT client_id FROM oauth2_token WHERE channel_id IS NOT NULL)
   OR client_id IN (SELECT client_id FROM oauth2_code);
CREATE INDEX oauth2_app_unapproved_idx ON oauth2_app (created) WHERE approved = 0;
