-- Items of other kinds than ordinary posts (blocks, layouts, web pages…): network/stream?pages=1
-- and the webpages section of channel/export/basic look for them, and without an index read an
-- entry for every item of the channels. Partial: ordinary items, nearly all of them, never enter
-- it, so posting does not pay for it (no difference measured at 100,000 items).
CREATE INDEX item_kind_idx ON item (uid, item_type) WHERE item_type != 0;
