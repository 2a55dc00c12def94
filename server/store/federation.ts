import { stmt, type Db } from '../db/open.js';
import type { ChannelRow, ItemRow } from './rows.js';

/** What a local channel's actor document shows. */
export interface ActorFacts {
  channel: ChannelRow;
  /** The profile's short text (what the apps show as the bio), plain text. */
  description: string;
  /** The profile's longer text (BBCode, as Hubzilla keeps it). */
  about: string;
  photoUrl: string;
  photoType: string;
  /** When the profile photo last changed ('' when never). */
  photoDate: string;
  /** The profile photo's own address (one per photo, where photoUrl stays the same). */
  photoSource: string;
  /** Where the channel lived before it was moved here (its actors there). */
  movedFrom: string[];
}

export function actorFacts(db: Db, nick: string): ActorFacts | undefined {
  const channel = stmt<[string], ChannelRow>(db, 'SELECT * FROM channel WHERE channel_address = ? AND channel_removed = 0').get(nick);
  if (!channel) return undefined;
  const extra = stmt<[number, string], { description: string | null; about: string | null; photo: string; type: string; date: string | null; source: string | null }>(
    db,
    `SELECT p.pdesc AS description, p.about, p.photo AS source, x.xchan_photo_l AS photo, x.xchan_photo_mimetype AS type, x.xchan_photo_date AS date
     FROM xchan x LEFT JOIN profile p ON p.uid = ? AND p.is_default = 1 WHERE x.xchan_hash = ?`,
  ).get(channel.channel_id, channel.channel_hash);
  const imports = stmt<[number], { source_url: string; source_nick: string }>(db, 'SELECT source_url, source_nick FROM channel_import WHERE channel_id = ? ORDER BY id').all(channel.channel_id);
  return {
    channel,
    description: extra?.description ?? '',
    about: extra?.about ?? '',
    photoUrl: extra?.photo ?? '',
    photoType: extra?.type ?? 'image/png',
    photoDate: extra?.date ?? '',
    photoSource: extra?.source ?? '',
    // A Hubzilla channel's ActivityPub actor is <hub>/channel/<nick>.
    movedFrom: imports.filter((i) => i.source_url && i.source_nick).map((i) => `${i.source_url.replace(/\/+$/, '')}/channel/${i.source_nick}`),
  };
}

/** What delivery needs of a remote actor. */
export interface FedActorRow {
  xchan_hash: string;
  inbox: string;
  shared_inbox: string;
  followers: string;
  key_id: string;
  manually_approves: number;
  fetched: number;
  /** The icon URL the actor names ('' for none). */
  icon: string;
  /** The icon URL whose copy the hub keeps ('' for none: a default avatar), and the copy's type. */
  avatar: string;
  avatar_type: string;
}

export interface RemoteActorRecord {
  id: string;
  address: string;
  name: string;
  url: string;
  /** Its icon's URL (elsewhere): the hub shows a copy of its own (see setRemoteAvatar). */
  icon: string;
  publicKeyPem: string;
  inbox: string;
  sharedInbox: string;
  followers: string;
  keyId: string;
  manuallyApproves: boolean;
}

/**
 * Creates or refreshes a remote actor's identity (xchan) and delivery facts. Its pictures are the
 * hub's (setRemoteAvatar); a new actor has none until then.
 */
export function upsertRemoteActor(db: Db, a: RemoteActorRecord, now: string): void {
  db.transaction(() => {
    stmt(db, `INSERT INTO xchan (xchan_hash, xchan_guid, xchan_pubkey, xchan_addr, xchan_url, xchan_connurl, xchan_name, xchan_network,
        xchan_instance_url, xchan_photo_date, xchan_name_date)
      VALUES (@id, @id, @publicKeyPem, @address, @url, @inbox, @name, 'activitypub', @instance, @now, @now)
      ON CONFLICT (xchan_hash) DO UPDATE SET xchan_pubkey = excluded.xchan_pubkey, xchan_addr = excluded.xchan_addr, xchan_url = excluded.xchan_url,
        xchan_connurl = excluded.xchan_connurl, xchan_name = excluded.xchan_name, xchan_deleted = 0,
        xchan_name_date = CASE WHEN xchan.xchan_name != excluded.xchan_name THEN excluded.xchan_name_date ELSE xchan.xchan_name_date END`).run({
      id: a.id, publicKeyPem: a.publicKeyPem, address: a.address, url: a.url, inbox: a.inbox, name: a.name, instance: new URL(a.id).origin, now,
    });
    stmt(db, `INSERT INTO fed_actor (xchan_hash, inbox, shared_inbox, followers, key_id, manually_approves, fetched, icon)
      VALUES (@id, @inbox, @sharedInbox, @followers, @keyId, @manual, @fetched, @icon)
      ON CONFLICT (xchan_hash) DO UPDATE SET inbox = excluded.inbox, shared_inbox = excluded.shared_inbox, followers = excluded.followers,
        key_id = excluded.key_id, manually_approves = excluded.manually_approves, fetched = excluded.fetched, icon = excluded.icon`).run({
      id: a.id, inbox: a.inbox, sharedInbox: a.sharedInbox, followers: a.followers, keyId: a.keyId, manual: a.manuallyApproves ? 1 : 0, fetched: Date.now(), icon: a.icon,
    });
  })();
}

/**
 * What the hub shows as a remote actor's pictures: `urls(xchan_id)` (the hub's own addresses), and
 * which of its icons the copy there was made of ('' for a default avatar).
 */
export function setRemoteAvatar(db: Db, hash: string, a: { source: string; type: string; urls: (xchanId: number) => { l: string; m: string; s: string } }, now: string): void {
  db.transaction(() => {
    const x = stmt<[string], { xchan_id: number; xchan_photo_l: string }>(db, 'SELECT xchan_id, xchan_photo_l FROM xchan WHERE xchan_hash = ?').get(hash);
    if (!x) return;
    const urls = a.urls(x.xchan_id);
    stmt(db, `UPDATE xchan SET xchan_photo_l = @l, xchan_photo_m = @m, xchan_photo_s = @s, xchan_photo_mimetype = @type,
        xchan_photo_date = CASE WHEN xchan_photo_l != @l THEN @now ELSE xchan_photo_date END WHERE xchan_hash = @hash`).run({ ...urls, type: a.type || 'image/png', now, hash });
    stmt(db, 'UPDATE fed_actor SET avatar = ?, avatar_type = ? WHERE xchan_hash = ?').run(a.source, a.type, hash);
  })();
}

/**
 * Points the avatar URLs of people elsewhere, which name the hub's own copies (/photo/remote/…), at
 * the hub's current base URL: they were written with the address the hub had then.
 */
export function relocateRemoteAvatars(db: Db, baseUrl: string): number {
  const rebased = (column: string) => `@base || substr(${column}, instr(${column}, '/photo/remote/'))`;
  return stmt(
    db,
    `UPDATE xchan SET xchan_photo_l = ${rebased('xchan_photo_l')}, xchan_photo_m = ${rebased('xchan_photo_m')}, xchan_photo_s = ${rebased('xchan_photo_s')}
     WHERE xchan_network = 'activitypub' AND xchan_photo_l LIKE '%/photo/remote/%' AND xchan_photo_m LIKE '%/photo/remote/%'
       AND xchan_photo_s LIKE '%/photo/remote/%' AND xchan_photo_l NOT LIKE @base || '/photo/remote/%'`,
  ).run({ base: baseUrl }).changes;
}

/** Remote actors whose avatar the hub keeps a copy of. */
export function actorsWithAvatarCopies(db: Db): string[] {
  return stmt<[], { xchan_hash: string }>(db, "SELECT xchan_hash FROM fed_actor WHERE avatar != ''").all().map((r) => r.xchan_hash);
}

export function getFedActor(db: Db, hash: string): FedActorRow | undefined {
  return stmt<[string], FedActorRow>(db, 'SELECT * FROM fed_actor WHERE xchan_hash = ?').get(hash);
}

export function getFedActors(db: Db, hashes: string[]): FedActorRow[] {
  return stmt<[string], FedActorRow>(db, 'SELECT * FROM fed_actor WHERE xchan_hash IN (SELECT value FROM json_each(?))').all(JSON.stringify(hashes));
}

/** Marks a remote actor gone (its Delete): its identity stays for what it wrote, flagged deleted. */
export function markRemoteActorDeleted(db: Db, hash: string): void {
  stmt(db, "UPDATE xchan SET xchan_deleted = 1 WHERE xchan_hash = ? AND xchan_network = 'activitypub'").run(hash);
}

/** A remote actor names no icon any more (its account is gone). */
export function clearRemoteIcon(db: Db, hash: string): void {
  stmt(db, "UPDATE fed_actor SET icon = '' WHERE xchan_hash = ?").run(hash);
}

/** The channels with a record of a remote actor (a follow either way, a request, a block). */
export function channelsConnectedTo(db: Db, hash: string): number[] {
  return stmt<[string], { uid: number }>(db, 'SELECT DISTINCT abook_channel AS uid FROM abook WHERE abook_xchan = ?').all(hash).map((r) => r.uid);
}

/** Forgets every follow between the hub's channels and a remote actor. */
export function deleteFedFollowsOf(db: Db, actor: string): void {
  stmt(db, 'DELETE FROM fed_follow WHERE actor = ?').run(actor);
}

/** What a remote actor wrote, liked or shared here that is not deleted yet: thread tops first. */
export function liveItemsBy(db: Db, author: string): ItemRow[] {
  return stmt<[string], ItemRow>(db, 'SELECT * FROM item WHERE author_xchan = ? AND item_deleted = 0 ORDER BY item_thread_top DESC, id').all(author);
}

export type FollowDirection = 'in' | 'out';

export interface FedFollowRow {
  channel_id: number;
  actor: string;
  direction: FollowDirection;
  activity_id: string;
  accepted: number;
}

export function putFedFollow(db: Db, f: { channelId: number; actor: string; direction: FollowDirection; activityId: string; accepted: boolean }): void {
  stmt(db, `INSERT INTO fed_follow (channel_id, actor, direction, activity_id, accepted) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (channel_id, actor, direction) DO UPDATE SET activity_id = excluded.activity_id, accepted = excluded.accepted`).run(
    f.channelId, f.actor, f.direction, f.activityId, f.accepted ? 1 : 0,
  );
}

export function getFedFollow(db: Db, channelId: number, actor: string, direction: FollowDirection): FedFollowRow | undefined {
  return stmt<[number, string, string], FedFollowRow>(db, 'SELECT * FROM fed_follow WHERE channel_id = ? AND actor = ? AND direction = ?').get(channelId, actor, direction);
}

export function findFedFollowByActivity(db: Db, activityId: string): FedFollowRow | undefined {
  return stmt<[string], FedFollowRow>(db, 'SELECT * FROM fed_follow WHERE activity_id = ?').get(activityId);
}

export function setFedFollowAccepted(db: Db, channelId: number, actor: string, direction: FollowDirection): void {
  stmt(db, 'UPDATE fed_follow SET accepted = 1 WHERE channel_id = ? AND actor = ? AND direction = ?').run(channelId, actor, direction);
}

export function deleteFedFollow(db: Db, channelId: number, actor: string, direction: FollowDirection): void {
  stmt(db, 'DELETE FROM fed_follow WHERE channel_id = ? AND actor = ? AND direction = ?').run(channelId, actor, direction);
}

/** The remote actors whose follow of the channel was accepted (its followers elsewhere). */
export function remoteFollowers(db: Db, channelId: number): FedActorRow[] {
  return stmt<[number], FedActorRow>(
    db,
    `SELECT a.* FROM fed_follow f JOIN fed_actor a ON a.xchan_hash = f.actor
     JOIN abook b ON b.abook_channel = f.channel_id AND b.abook_xchan = f.actor AND b.abook_blocked = 0 AND b.abook_pending = 0
     WHERE f.channel_id = ? AND f.direction = 'in' AND f.accepted = 1`,
  ).all(channelId);
}

/**
 * A page of a channel's accepted followers elsewhere, newest connection id first, below a key (the
 * connection's xchan id); each with its key, for the next page.
 */
export function remoteFollowersPage(db: Db, channelId: number, below: number | undefined, limit: number): (FedActorRow & { page_key: number })[] {
  return stmt<{ channel: number; below: number; limit: number }, FedActorRow & { page_key: number }>(
    db,
    `SELECT a.*, b.abook_xchan_id AS page_key FROM abook b INDEXED BY abook_accepted_page_idx
     JOIN fed_follow f ON f.channel_id = b.abook_channel AND f.actor = b.abook_xchan AND f.direction = 'in' AND f.accepted = 1
     JOIN fed_actor a ON a.xchan_hash = b.abook_xchan
     WHERE b.abook_channel = @channel AND b.abook_pending = 0 AND b.abook_blocked = 0 AND b.abook_xchan_id < @below
     ORDER BY b.abook_xchan_id DESC LIMIT @limit + 0`,
  ).all({ channel: channelId, below: below ?? Number.MAX_SAFE_INTEGER, limit });
}

/** Local channels following a remote actor (accepted or waiting), for what it sends to them. */
export function localFollowersOf(db: Db, actor: string): number[] {
  return stmt<[string], { channel_id: number }>(db, "SELECT channel_id FROM fed_follow WHERE actor = ? AND direction = 'out'").all(actor).map((r) => r.channel_id);
}

/** A channel's public, listed posts (not comments or shares), newest first, before an item id. */
const PUBLIC_POSTS = `FROM item WHERE author_xchan = @author AND owner_xchan = @author AND item_thread_top = 1 AND item_deleted = 0 AND item_hidden = 0
  AND item_unpublished = 0 AND item_delayed = 0 AND item_blocked = 0 AND item_type = 0 AND item_private = 0
  AND allow_cid = '' AND allow_gid = '' AND deny_cid = '' AND deny_gid = '' AND verb = 'http://activitystrea.ms/schema/1.0/post'`;

export function publicPostsOf(db: Db, author: string, beforeId: number | undefined, limit: number): number[] {
  return stmt<{ author: string; before: number; limit: number }, { id: number }>(db, `SELECT id ${PUBLIC_POSTS} AND id < @before ORDER BY id DESC LIMIT @limit + 0`)
    .all({ author, before: beforeId ?? Number.MAX_SAFE_INTEGER, limit })
    .map((r) => r.id);
}

/** Of a channel's public, listed posts, those it pinned (Mastodon's featured posts), newest first. */
export function pinnedPublicPostsOf(db: Db, author: string): number[] {
  return stmt<{ author: string }, { id: number }>(
    db,
    `SELECT id ${PUBLIC_POSTS} AND id IN (SELECT iid FROM iconfig WHERE cat = 'mastodon' AND k = 'pinned' AND v = '1') ORDER BY id DESC LIMIT 20`,
  )
    .all({ author })
    .map((r) => r.id);
}

export function countPublicPosts(db: Db, author: string): number {
  return stmt<{ author: string }, { n: number }>(db, `SELECT count(*) AS n ${PUBLIC_POSTS}`).get({ author })!.n;
}

/** One of the hub's items by its uuid (its ActivityPub id is /item/<uuid>). */
export function getItemByUuid(db: Db, uuid: string): ItemRow | undefined {
  return stmt<[string], ItemRow>(db, 'SELECT * FROM item WHERE uuid = ? ORDER BY id LIMIT 1').get(uuid);
}
