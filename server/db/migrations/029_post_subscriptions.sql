-- "Notify me when they post" (a Mastodon app's bell on a profile) is kept per connection in
-- abconfig; each new post looks up who asked to hear of its author.
CREATE INDEX abconfig_xchan_idx ON abconfig (xchan, cat, k);
