-- Notifications kept the hub's URLs with the base URL of the day (an old port, LAN access on or
-- off). Every notification link is one of the hub's own pages: it keeps the path only, and the
-- current base URL is put in front when it is read. So do the URL and photo of local actors.
UPDATE notify SET link = substr(link, instr(substr(link, 9), '/') + 8)
  WHERE (link LIKE 'http://%' OR link LIKE 'https://%') AND instr(substr(link, 9), '/') > 0;
UPDATE notify SET url = substr(url, instr(substr(url, 9), '/') + 8)
  WHERE xchan IN (SELECT channel_hash FROM channel) AND (url LIKE 'http://%' OR url LIKE 'https://%') AND instr(substr(url, 9), '/') > 0;
UPDATE notify SET photo = substr(photo, instr(substr(photo, 9), '/') + 8)
  WHERE xchan IN (SELECT channel_hash FROM channel) AND (photo LIKE 'http://%' OR photo LIKE 'https://%') AND instr(substr(photo, 9), '/') > 0;
