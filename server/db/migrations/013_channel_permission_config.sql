-- Every channel's permission limits and storage paths as pconfig rows, as Hubzilla keeps them from
-- a channel's creation on: channel/export/basic hands them to importers (channel.perm_limits and the
-- config section), and Hubzilla's importer reads them there. The values are what Hearth assumed
-- when a row was missing (viewing public, everything else per connection), so nothing changes for
-- existing channels; rows a channel already has are kept. New channels get the same rows from
-- services/channels.ts (DEFAULT_CHANNEL_CONFIG in services/permissions.ts).
INSERT OR IGNORE INTO pconfig (uid, cat, k, v, updated)
SELECT c.channel_id, d.cat, d.k, d.v, c.channel_created
FROM channel c CROSS JOIN (
  SELECT 1 AS n, 'perm_limits' AS cat, 'view_stream' AS k, '1' AS v
  UNION ALL SELECT 2, 'perm_limits', 'send_stream', '128'
  UNION ALL SELECT 3, 'perm_limits', 'view_profile', '1'
  UNION ALL SELECT 4, 'perm_limits', 'view_contacts', '1'
  UNION ALL SELECT 5, 'perm_limits', 'view_storage', '1'
  UNION ALL SELECT 6, 'perm_limits', 'write_storage', '128'
  UNION ALL SELECT 7, 'perm_limits', 'view_pages', '1'
  UNION ALL SELECT 8, 'perm_limits', 'view_wiki', '1'
  UNION ALL SELECT 9, 'perm_limits', 'write_pages', '128'
  UNION ALL SELECT 10, 'perm_limits', 'write_wiki', '128'
  UNION ALL SELECT 11, 'perm_limits', 'post_wall', '128'
  UNION ALL SELECT 12, 'perm_limits', 'post_comments', '128'
  UNION ALL SELECT 13, 'perm_limits', 'post_mail', '128'
  UNION ALL SELECT 14, 'perm_limits', 'post_like', '128'
  UNION ALL SELECT 15, 'perm_limits', 'chat', '128'
  UNION ALL SELECT 16, 'perm_limits', 'republish', '128'
  UNION ALL SELECT 17, 'perm_limits', 'delegate', '128'
  UNION ALL SELECT 18, 'system', 'default_permcat', 'default'
  UNION ALL SELECT 19, 'system', 'permissions_role', 'custom'
  UNION ALL SELECT 20, 'system', 'photo_path', '%Y-%m'
  UNION ALL SELECT 21, 'system', 'attach_path', '%Y-%m'
) d
ORDER BY c.channel_id, d.n;
