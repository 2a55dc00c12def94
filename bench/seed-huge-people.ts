import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Db } from '../server/db/open.js';
import { DEFAULT_CONNECTION_PERMS } from '../server/services/connections.js';
import { remoteAvatarUrls } from '../server/federation/avatars.js';
import { addGroupMember, insertGroup } from '../server/store/groups.js';
import { randomHex64 } from '../server/util/ids.js';
import { toDbDate } from '../server/util/time.js';
import type { Random } from './random.js';
import type { SeedChannel } from './seed-items.js';
import { WORDS } from './seed-text.js';

/** A person on another server, as the federation records one: an xchan (hash = actor id) and a fed_actor row. */
export interface RemoteActor {
  hash: string;
  name: string;
  url: string;
  /** The hub's address of their avatar (a default one: no icon was copied). */
  photo: string;
  host: string;
}

const FIRST = ['Ada', 'Bea', 'Cem', 'Dara', 'Eli', 'Fay', 'Gus', 'Hana', 'Ines', 'Jon', 'Kai', 'Lea', 'Milo', 'Nia', 'Otto', 'Pia', 'Quin', 'Rosa', 'Sami', 'Tove', 'Uma', 'Vic', 'Wren', 'Yara', 'Zeno'];
const LAST = ['Berg', 'Costa', 'Dahl', 'Ekström', 'Fischer', 'García', 'Haas', 'Ito', 'Jansen', 'Kowalski', 'Lind', 'Moreau', 'Nowak', 'Okafor', 'Petit', 'Rossi', 'Sato', 'Tanaka', 'Vogel', 'Weiss'];

/** A public key as remote actors publish theirs (one shared by all: nothing here verifies signatures). */
function publicKeyPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

export interface PeopleResult {
  remote: RemoteActor[];
  /** Connection records (abook) written, of every channel. */
  connections: number;
  groups: number;
  groupMembers: number;
}

/**
 * `count` people elsewhere on `instances` servers, all connected to the owner (the owner follows
 * them; most follow back), as the federation leaves them after Follow and Accept; and `groups`
 * privacy groups in all: one for each other channel (with the owner in it), the rest the owner's, of
 * 5–80 of its connections, besides its group "Friends" (made as the full set makes it).
 */
export function seedPeople(db: Db, rnd: Random, o: { baseUrl: string; channels: SeedChannel[]; count: number; instances: number; groups: number; years: number }): PeopleResult {
  const [owner, ...others] = o.channels;
  if (!owner) throw new Error('no channels');
  const pem = publicKeyPem();
  const now = Date.now();
  const nowDb = toDbDate(new Date(now));
  const hosts = Array.from({ length: o.instances }, (_, i) => `${rnd.pick(['social', 'toot', 'masto', 'fedi', 'pixel'])}${i + 1}.example`);
  const insertXchan = db.prepare(`INSERT INTO xchan (xchan_hash, xchan_guid, xchan_pubkey, xchan_addr, xchan_url, xchan_connurl, xchan_name, xchan_network,
      xchan_instance_url, xchan_photo_date, xchan_name_date) VALUES (?, ?, ?, ?, ?, ?, ?, 'activitypub', ?, ?, ?)`);
  const setPhotos = db.prepare('UPDATE xchan SET xchan_photo_l = ?, xchan_photo_m = ?, xchan_photo_s = ?, xchan_photo_mimetype = ? WHERE xchan_id = ?');
  const insertActor = db.prepare(`INSERT INTO fed_actor (xchan_hash, inbox, shared_inbox, followers, key_id, manually_approves, fetched, icon, avatar, avatar_type)
      VALUES (?, ?, ?, ?, ?, 0, ?, '', '', '')`);
  const insertAbook = db.prepare(`INSERT INTO abook (abook_account, abook_channel, abook_xchan, abook_my_perms, abook_their_perms, abook_created, abook_updated,
      abook_connected, abook_pending, abook_unconnected) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0)`);
  const insertFollow = db.prepare('INSERT INTO fed_follow (channel_id, actor, direction, activity_id, accepted) VALUES (?, ?, ?, ?, 1)');
  const avatar = remoteAvatarUrls(o.baseUrl, '');
  const remote: RemoteActor[] = [];
  let connections = 0;
  let groupMembers = 0;
  const start = now - o.years * 365 * 86400_000;
  db.transaction(() => {
    for (let i = 0; i < o.count; i++) {
      const host = hosts[rnd.int(0, hosts.length - 1)]!;
      const first = rnd.pick(FIRST);
      const user = `${first.toLowerCase()}${rnd.pick(WORDS)}${i}`;
      const id = `https://${host}/users/${user}`;
      const name = `${first} ${rnd.pick(LAST)}`;
      const url = `https://${host}/@${user}`;
      const xchanId = Number(insertXchan.run(id, id, pem, `${user}@${host}`, url, `${id}/inbox`, name, `https://${host}`, nowDb, nowDb).lastInsertRowid);
      const photos = avatar(xchanId);
      setPhotos.run(photos.l, photos.m, photos.s, 'image/png', xchanId);
      insertActor.run(id, `${id}/inbox`, `https://${host}/inbox`, `${id}/followers`, `${id}#main-key`, now);
      // Connected some time over the years; most follow the owner back.
      const since = toDbDate(new Date(start + rnd.next() * (now - start)));
      const followsBack = rnd.chance(0.85);
      insertAbook.run(owner.row.channel_account_id, owner.row.channel_id, id, DEFAULT_CONNECTION_PERMS, followsBack ? DEFAULT_CONNECTION_PERMS : 0, since, since, since);
      insertFollow.run(owner.row.channel_id, id, 'out', `${o.baseUrl}/activity/${randomUUID()}`);
      if (followsBack) insertFollow.run(owner.row.channel_id, id, 'in', `https://${host}/${randomUUID()}`);
      connections++;
      remote.push({ hash: id, name, url, photo: photos.s, host });
    }
    const ownerGroups = o.groups - Math.min(others.length, o.groups - 1);
    for (const [i, other] of others.slice(0, o.groups - ownerGroups).entries()) {
      const gid = insertGroup(db, other.row.channel_id, randomHex64(), `${rnd.pick(['Close', 'Family', 'Work', 'Neighbours'])} ${i + 1}`, rnd.chance(0.5));
      addGroupMember(db, other.row.channel_id, gid, owner.row.channel_hash);
      groupMembers++;
    }
    for (let g = 1; g < ownerGroups; g++) {
      const gid = insertGroup(db, owner.row.channel_id, randomHex64(), `${rnd.pick(WORDS)} ${rnd.pick(['club', 'crew', 'friends', 'colleagues', 'neighbours', 'family'])} ${g}`, rnd.chance(0.5));
      const size = Math.min(remote.length, rnd.int(5, 80));
      const members = new Set<string>();
      while (members.size < size) members.add(remote[rnd.int(0, remote.length - 1)]!.hash);
      for (const m of members) addGroupMember(db, owner.row.channel_id, gid, m);
      groupMembers += members.size;
    }
  })();
  return { remote, connections, groups: o.groups, groupMembers };
}
