-- The native files and photos listings read their slices in (created, id) order straight from an
-- index, a channel's or one album's, instead of sorting every row for each answer.
CREATE INDEX attach_uid_created_idx ON attach (uid, created, id);
CREATE INDEX photo_uid_created_idx ON photo (uid, created, id);
CREATE INDEX photo_uid_album_created_idx ON photo (uid, album, created, id);
-- One folder as a file browser shows it (files?folder=…&order=name): folders first, then by name.
CREATE INDEX attach_uid_folder_name_idx ON attach (uid, folder, is_dir DESC, filename COLLATE NOCASE, id);
