-- Remote actors' avatars are copied here (fetched once through the federation's guarded fetch,
-- resized) and served by the hub: clients never fetch pictures from other servers for them.
ALTER TABLE fed_actor ADD COLUMN icon TEXT NOT NULL DEFAULT '';        -- the icon URL the actor names ('' for none)
ALTER TABLE fed_actor ADD COLUMN avatar TEXT NOT NULL DEFAULT '';      -- the icon URL whose copy is kept ('' for none: a default avatar)
ALTER TABLE fed_actor ADD COLUMN avatar_type TEXT NOT NULL DEFAULT ''; -- the copy's mime type
