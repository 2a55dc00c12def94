-- What the Mastodon API keeps of an uploaded picture beyond its photo rows (the description is the
-- photo's own): the focal point and the blurhash apps show while the picture loads.
CREATE TABLE media_meta (
  photo_id INTEGER PRIMARY KEY,               -- scale 0 row of the photo (the media id)
  focus_x  REAL NOT NULL DEFAULT 0,
  focus_y  REAL NOT NULL DEFAULT 0,
  blurhash TEXT NOT NULL DEFAULT ''
);
