-- Repairs audiences left behind by edits that changed only a thread top's access lists (issue 16):
-- the photos and files a private post carries take its audience (the newest such post decides;
-- profile photos stay public),
-- photos follow their file records, photo items follow their photos, and every item of a thread
-- takes its top's audience, as comments and likes are given it when written.

CREATE TEMP TABLE repair_private_media_post AS
  SELECT i.id, c.channel_id AS uid, i.body || ' ' || i.attach AS refs, i.allow_cid, i.allow_gid, i.deny_cid, i.deny_gid
  FROM item i JOIN channel c ON c.channel_hash = i.author_xchan
  WHERE i.item_thread_top = 1 AND i.item_deleted = 0
    AND (i.item_private != 0 OR i.allow_cid != '' OR i.allow_gid != '' OR i.deny_cid != '' OR i.deny_gid != '')
    AND (instr(i.body, '/photo/') > 0 OR instr(i.body, '/attach/') > 0 OR i.attach != '');

UPDATE attach SET (allow_cid, allow_gid, deny_cid, deny_gid) = (
    SELECT p.allow_cid, p.allow_gid, p.deny_cid, p.deny_gid FROM repair_private_media_post p
    WHERE p.uid = attach.uid AND (instr(p.refs, '/photo/' || attach.hash) > 0 OR instr(p.refs, '/attach/' || attach.hash) > 0)
    ORDER BY p.id DESC LIMIT 1)
  WHERE allow_cid = '' AND allow_gid = '' AND deny_cid = '' AND deny_gid = '' AND is_dir = 0
    AND NOT EXISTS (SELECT 1 FROM photo ph WHERE ph.resource_id = attach.hash AND (ph.profile != 0 OR ph.photo_usage != 0))
    AND EXISTS (SELECT 1 FROM repair_private_media_post p
      WHERE p.uid = attach.uid AND (instr(p.refs, '/photo/' || attach.hash) > 0 OR instr(p.refs, '/attach/' || attach.hash) > 0));

DROP TABLE repair_private_media_post;

UPDATE photo SET (allow_cid, allow_gid, deny_cid, deny_gid) = (
    SELECT a.allow_cid, a.allow_gid, a.deny_cid, a.deny_gid FROM attach a WHERE a.hash = photo.resource_id AND a.uid = photo.uid)
  WHERE allow_cid = '' AND allow_gid = '' AND deny_cid = '' AND deny_gid = ''
    AND EXISTS (SELECT 1 FROM attach a WHERE a.hash = photo.resource_id AND a.uid = photo.uid
      AND (a.allow_cid != '' OR a.allow_gid != '' OR a.deny_cid != '' OR a.deny_gid != ''));

UPDATE item SET (allow_cid, allow_gid, deny_cid, deny_gid, item_private) = (
    SELECT p.allow_cid, p.allow_gid, p.deny_cid, p.deny_gid, 1 FROM photo p WHERE p.resource_id = item.resource_id AND p.uid = item.uid ORDER BY p.imgscale LIMIT 1)
  WHERE resource_type = 'photo' AND item_thread_top = 1 AND item_private = 0
    AND allow_cid = '' AND allow_gid = '' AND deny_cid = '' AND deny_gid = ''
    AND EXISTS (SELECT 1 FROM photo p WHERE p.resource_id = item.resource_id AND p.uid = item.uid
      AND (p.allow_cid != '' OR p.allow_gid != '' OR p.deny_cid != '' OR p.deny_gid != ''));

UPDATE item SET (allow_cid, allow_gid, deny_cid, deny_gid, item_private) = (
    SELECT t.allow_cid, t.allow_gid, t.deny_cid, t.deny_gid, t.item_private FROM item t WHERE t.id = item.parent)
  WHERE item_thread_top = 0 AND parent != id
    AND EXISTS (SELECT 1 FROM item t WHERE t.id = item.parent
      AND (t.allow_cid != item.allow_cid OR t.allow_gid != item.allow_gid OR t.deny_cid != item.deny_cid
        OR t.deny_gid != item.deny_gid OR t.item_private != item.item_private));
