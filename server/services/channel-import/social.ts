import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { renameChannel } from '../../store/channels.js';
import {
  groupHashTaken, insertConnectionIfMissing, PROFILE_TEXT_COLUMNS, setChannelSettings, setDefaultProfileText,
} from '../../store/channel-import.js';
import { setPConfig } from '../../store/config.js';
import { setAbconfig } from '../../store/connections.js';
import { addGroupMember, getGroupByHash, insertGroup } from '../../store/groups.js';
import { getProfilePhotoScale } from '../../store/photos.js';
import { fromAclString, randomToken, toAclString } from '../../util/ids.js';
import { NULL_DATE } from '../../util/time.js';
import { isPermissionName } from '../permissions.js';
import { setProfilePhoto } from '../photos.js';
import type { IdentityMap } from './identities.js';
import { num, str, type Json } from './native-client.js';
import type { SkipList } from './progress.js';

/** Settings (pconfig system/…) an import takes over besides the permission limits. */
const SYSTEM_SETTINGS = new Set(['autoperms', 'itemspage', 'photo_path', 'attach_path', 'default_permcat', 'permissions_role']);

const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/**
 * The channel's display name, default profile, time zone and location, and its profile photo
 * (when the channel has none yet: a resumed import does not add it twice).
 */
export async function importProfile(hub: Hub, channel: ChannelRow, exp: Json, skips: SkipList): Promise<boolean> {
  const source = (exp.channel ?? {}) as Json;
  const name = str(source.channel_name).trim();
  if (name && name !== channel.channel_name) renameChannel(hub.db, channel.channel_id, name.slice(0, 190));
  const profiles = list(exp.profile);
  const profile = profiles.find((p) => num(p.is_default) === 1) ?? profiles[0];
  if (profile) {
    const fields: Partial<Record<(typeof PROFILE_TEXT_COLUMNS)[number], string>> = {};
    for (const c of PROFILE_TEXT_COLUMNS) if (c in profile) fields[c] = str(profile[c]);
    setDefaultProfileText(hub.db, channel.channel_id, fields);
  }
  const photo = exp.photo as Json | undefined;
  if (!photo || !str(photo.data) || getProfilePhotoScale(hub.db, channel.channel_id, 4)) return false;
  const bytes = Buffer.from(str(photo.data), 'base64url');
  if (bytes.length > hub.limits.maxUploadBytes) {
    skips.add('the profile photo is larger than this hub takes for a file', 'profile photo');
    return false;
  }
  const path = join(hub.dataDir, 'tmp', `import-${randomToken()}`);
  try {
    await writeFile(path, bytes);
    const ext = str(photo.type).split('/')[1]?.replace(/[^a-z0-9]/g, '') || 'jpg';
    await setProfilePhoto(hub, channel, { filepath: path, originalFilename: `profile-photo.${ext}`, mimetype: str(photo.type) || null });
    return true;
  } catch (err) {
    skips.add(`the profile photo could not be read (${(err as Error).message})`, 'profile photo');
    return false;
  } finally {
    await rm(path, { force: true });
  }
}

/** A source group's hash here: its own when free on this hub, else one derived from it for this channel. */
function groupHash(hub: Hub, channel: ChannelRow, source: string): { hash: string; exists: boolean } {
  const derived = createHash('sha256').update(`${channel.channel_hash}\n${source}`).digest('hex').slice(0, 32);
  for (const h of [source, derived]) if (getGroupByHash(hub.db, channel.channel_id, h)) return { hash: h, exists: true };
  return { hash: source && !groupHashTaken(hub.db, source) ? source : derived, exists: false };
}

export interface SocialCounts {
  connections: number;
  groups: number;
  members: number;
  /** Source group hash → hash here, for access lists. */
  groupMap: Map<string, string>;
}

/**
 * Connections (with their permissions and other metadata), privacy groups with their members,
 * permission limits and settings, and the channel's default audience. Connections and groups
 * already here are kept as they are.
 */
export function importSocial(hub: Hub, channel: ChannelRow, ids: IdentityMap, exp: Json, skips: SkipList): SocialCounts {
  const db = hub.db;
  const uid = channel.channel_id;
  const counts: SocialCounts = { connections: 0, groups: 0, members: 0, groupMap: new Map() };
  db.transaction(() => {
    for (const a of list(exp.abook)) {
      if (num(a.abook_self)) continue;
      const source = str(a.abook_xchan);
      const xchan = ids.ensure(source);
      if (!xchan) {
        skips.add('connection the source did not describe (or described as a channel of this hub)', source.slice(0, 16));
        continue;
      }
      if (xchan === channel.channel_hash) continue;
      const added = insertConnectionIfMissing(db, {
        abook_account: channel.channel_account_id, abook_channel: uid, abook_xchan: xchan,
        abook_my_perms: num(a.abook_my_perms), abook_their_perms: num(a.abook_their_perms), abook_closeness: 'abook_closeness' in a ? num(a.abook_closeness) : 99,
        abook_created: str(a.abook_created) || NULL_DATE, abook_updated: str(a.abook_updated) || NULL_DATE, abook_connected: str(a.abook_connected) || NULL_DATE,
        abook_dob: str(a.abook_dob) || NULL_DATE, abook_flags: num(a.abook_flags), abook_blocked: num(a.abook_blocked), abook_ignored: num(a.abook_ignored),
        abook_hidden: num(a.abook_hidden), abook_archived: num(a.abook_archived), abook_pending: num(a.abook_pending),
        // A request waiting for an answer is no follow of the channel's (Hubzilla leaves abook_unconnected 0).
        abook_unconnected: num(a.abook_pending) ? 1 : num(a.abook_unconnected),
        abook_self: 0, abook_feed: num(a.abook_feed), abook_not_here: num(a.abook_not_here), abook_profile: '', abook_incl: str(a.abook_incl),
        abook_excl: str(a.abook_excl), abook_instance: str(a.abook_instance), abook_role: str(a.abook_role),
      });
      if (!added) continue;
      counts.connections++;
      for (const c of list(a.abconfig)) if (str(c.cat) && str(c.k)) setAbconfig(db, uid, xchan, str(c.cat), str(c.k), str(c.v));
    }

    for (const g of list(exp.group)) {
      if (num(g.deleted)) continue;
      const source = str(g.hash);
      const { hash, exists } = groupHash(hub, channel, source);
      counts.groupMap.set(source, hash);
      if (exists) continue;
      const gid = insertGroup(db, uid, hash, str(g.gname) || 'Group', num(g.visible) === 1);
      counts.groups++;
      for (const m of list(exp.group_member)) {
        if (num(m.gid) !== num(g.id)) continue;
        const member = ids.ensure(str(m.xchan));
        if (!member) {
          skips.add('group member the source did not describe (or described as a channel of this hub)', `${str(g.gname)}: ${str(m.xchan).slice(0, 16)}`);
          continue;
        }
        addGroupMember(db, uid, gid, member);
        counts.members++;
      }
    }

    for (const c of list(exp.config)) {
      const cat = str(c.cat);
      const k = str(c.k);
      const v = str(c.v);
      if ((cat === 'perm_limits' && isPermissionName(k) && /^\d+$/.test(v)) || (cat === 'system' && SYSTEM_SETTINGS.has(k))) setPConfig(db, uid, cat, k, v);
    }

    const source = (exp.channel ?? {}) as Json;
    const groups = (acl: string) => toAclString(fromAclString(acl).map((g) => counts.groupMap.get(g) ?? g));
    setChannelSettings(db, uid, {
      channel_timezone: str(source.channel_timezone) || String(channel.channel_timezone || 'UTC'),
      channel_location: str(source.channel_location),
      channel_allow_cid: ids.aclOfIdentities(str(source.channel_allow_cid)),
      channel_allow_gid: groups(str(source.channel_allow_gid)),
      channel_deny_cid: ids.aclOfIdentities(str(source.channel_deny_cid)),
      channel_deny_gid: groups(str(source.channel_deny_gid)),
    });
  })();
  return counts;
}
