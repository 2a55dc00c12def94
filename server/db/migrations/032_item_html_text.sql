-- Items keep the plain text of their HTML, made when the HTML is (sanitize-html, some 40 µs an
-- item): a page of 100 statuses made it anew for every item, 4 ms for a client paging through
-- history. NULL until made: the rendering refresh of renderer version 3 fills it in the background.
ALTER TABLE item ADD COLUMN html_text TEXT;
