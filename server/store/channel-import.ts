import { stmt, type Db } from '../db/open.js';
import type { AbookRow, ItemRow, XchanRow } from './rows.js';
import { nowDb } from '../util/time.js';
import { escapeLike } from './attachments.js';

/** Rows written by a channel import (services/channel-import): the job, identities, connections. */

export type ImportState = 'running' | 'interrupted' | 'failed' | 'done';

export interface ChannelImportRow {
  id: number;
  channel_id: number;
  source_url: string;
  source_nick: string;
  source_hash: string;
  source_guid: string;
  source_address: string;
  state: ImportState;
  summary: string;
  started: string;
  updated: string;
}

/** The import of a source identity, if it was imported here before and its channel still exists. */
export function findImportBySource(db: Db, sourceHash: string): ChannelImportRow | undefined {
  return stmt<[string], ChannelImportRow>(
    db,
    'SELECT i.* FROM channel_import i JOIN channel c ON c.channel_id = i.channel_id WHERE i.source_hash = ? AND c.channel_removed = 0',
  ).get(sourceHash);
}

export function insertImport(db: Db, row: Pick<ChannelImportRow, 'channel_id' | 'source_url' | 'source_nick' | 'source_hash' | 'source_guid' | 'source_address'>): number {
  const now = nowDb();
  return Number(
    stmt(db, `INSERT INTO channel_import (channel_id, source_url, source_nick, source_hash, source_guid, source_address, state, started, updated)
      VALUES (@channel_id, @source_url, @source_nick, @source_hash, @source_guid, @source_address, 'running', @now, @now)`).run({ ...row, now }).lastInsertRowid,
  );
}

export function setImportState(db: Db, id: number, state: ImportState, summary?: string): void {
  stmt(db, 'UPDATE channel_import SET state = @state, summary = coalesce(@summary, summary), updated = @now WHERE id = @id').run({ id, state, summary: summary ?? null, now: nowDb() });
}

export function getImport(db: Db, id: number): ChannelImportRow | undefined {
  return stmt<[number], ChannelImportRow>(db, 'SELECT * FROM channel_import WHERE id = ?').get(id);
}

/** Source identities (hash and guid) of channels moved here, with the identity (hash) each has now. */
export function movedIdentities(db: Db): { source_hash: string; source_guid: string; channel_hash: string }[] {
  return stmt<[], { source_hash: string; source_guid: string; channel_hash: string }>(
    db,
    'SELECT i.source_hash, i.source_guid, c.channel_hash FROM channel_import i JOIN channel c ON c.channel_id = i.channel_id WHERE c.channel_removed = 0',
  ).all();
}

/** An item of one channel by message id. */
export function getChannelItemByMid(db: Db, uid: number, mid: string): ItemRow | undefined {
  return stmt<[number, string], ItemRow>(db, 'SELECT * FROM item WHERE uid = ? AND mid = ?').get(uid, mid);
}

/** Whether an item with this message id exists anywhere on the hub (message ids are unique per hub). */
export function midTaken(db: Db, mid: string): boolean {
  return stmt<[string], { n: number }>(db, 'SELECT count(*) AS n FROM item WHERE mid = ?').get(mid)!.n > 0;
}

const XCHAN_COLUMNS = [
  'xchan_hash', 'xchan_guid', 'xchan_guid_sig', 'xchan_pubkey', 'xchan_photo_mimetype', 'xchan_photo_l', 'xchan_photo_m', 'xchan_photo_s',
  'xchan_addr', 'xchan_url', 'xchan_connurl', 'xchan_follow', 'xchan_connpage', 'xchan_name', 'xchan_network', 'xchan_instance_url',
  'xchan_flags', 'xchan_photo_date', 'xchan_name_date', 'xchan_hidden', 'xchan_orphan', 'xchan_censored', 'xchan_selfcensored',
  'xchan_system', 'xchan_pubforum', 'xchan_deleted',
] as const;

export type NewXchan = Omit<XchanRow, 'xchan_id'>;

/** Adds an identity unless one with its hash exists. */
export function insertXchanIfMissing(db: Db, x: NewXchan): void {
  stmt(db, `INSERT OR IGNORE INTO xchan (${XCHAN_COLUMNS.join(', ')}) VALUES (${XCHAN_COLUMNS.map((c) => '@' + c).join(', ')})`).run(x);
}

/** The columns of a connection record that an export carries and an import writes (all but its id and derived state). */
export const ABOOK_COLUMNS = [
  'abook_account', 'abook_channel', 'abook_xchan', 'abook_my_perms', 'abook_their_perms', 'abook_closeness', 'abook_created', 'abook_updated',
  'abook_connected', 'abook_dob', 'abook_flags', 'abook_blocked', 'abook_ignored', 'abook_hidden', 'abook_archived', 'abook_pending',
  'abook_unconnected', 'abook_self', 'abook_feed', 'abook_not_here', 'abook_profile', 'abook_incl', 'abook_excl', 'abook_instance', 'abook_role',
] as const;

export type NewAbook = Omit<AbookRow, 'abook_id'>;

/** Adds a connection unless the channel already has one to that identity; returns whether it was added. */
export function insertConnectionIfMissing(db: Db, a: NewAbook): boolean {
  return stmt(db, `INSERT OR IGNORE INTO abook (${ABOOK_COLUMNS.join(', ')}) VALUES (${ABOOK_COLUMNS.map((c) => '@' + c).join(', ')})`).run(a).changes > 0;
}

/** Default-profile columns an import copies from the source (everything but ids, owner and photo URLs). */
export const PROFILE_TEXT_COLUMNS = [
  'fullname', 'pdesc', 'chandesc', 'dob', 'dob_tz', 'address', 'locality', 'region', 'postal_code', 'country_name', 'hometown', 'gender',
  'marital', 'partner', 'sexual', 'politic', 'religion', 'keywords', 'likes', 'dislikes', 'about', 'summary', 'music', 'book', 'tv', 'film',
  'interest', 'romance', 'employment', 'education', 'contact', 'channels', 'homepage',
] as const;

export function setDefaultProfileText(db: Db, uid: number, fields: Partial<Record<(typeof PROFILE_TEXT_COLUMNS)[number], string>>): void {
  const keys = PROFILE_TEXT_COLUMNS.filter((k) => fields[k] !== undefined);
  if (keys.length) stmt(db, `UPDATE profile SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE uid = @uid AND is_default = 1`).run({ ...fields, uid });
}

/** Identities with this guid (one network identity may have been recorded under several hashes). */
export function xchanHashesOfGuid(db: Db, guid: string): string[] {
  return stmt<[string], { xchan_hash: string }>(db, 'SELECT xchan_hash FROM xchan WHERE xchan_guid = ?').all(guid).map((r) => r.xchan_hash);
}

/**
 * The hash of a channel of this hub (removed ones too; `except` one aside) whose identity has this
 * hash, guid or address (with or without its port, in any case), if there is one.
 */
export function channelWithIdentity(db: Db, who: { hash?: string; guid?: string; address?: string }, except = ''): string | undefined {
  const address = who.address ?? '';
  const bare = address.replace(/:\d+$/, '');
  return stmt<Record<string, string>, { channel_hash: string }>(
    db,
    `SELECT c.channel_hash FROM channel c LEFT JOIN xchan x ON x.xchan_hash = c.channel_hash
     WHERE c.channel_hash <> @except AND (c.channel_hash = @hash OR (@guid <> '' AND x.xchan_guid = @guid)
        OR (@address <> '' AND (x.xchan_addr = @address COLLATE NOCASE OR x.xchan_addr = @bare COLLATE NOCASE OR x.xchan_addr LIKE @ported ESCAPE '\\')))
     LIMIT 1`,
  ).get({ hash: who.hash ?? '', guid: who.guid ?? '', address, bare, ported: `${escapeLike(bare)}:%`, except })?.channel_hash;
}

/** Whether a group hash is in use by any channel. */
export function groupHashTaken(db: Db, hash: string): boolean {
  return stmt<[string], { n: number }>(db, 'SELECT count(*) AS n FROM pgrp WHERE hash = ?').get(hash)!.n > 0;
}

/**
 * Replaces an identity by another everywhere this hub refers to it: connections, their metadata,
 * group members, items (owner, author, access lists, mentions), files and photos (access lists).
 * Used when a channel arrives whose old identity channels moved here before refer to. Connections
 * that would become duplicates are dropped; the old identity is removed when nothing refers to it.
 */
export function replaceIdentity(db: Db, from: string, to: string): void {
  const p = { from, to, acl: `<${from}>`, newAcl: `<${to}>` };
  db.transaction(() => {
    stmt(db, 'DELETE FROM abook WHERE abook_xchan = @from AND abook_channel IN (SELECT abook_channel FROM abook WHERE abook_xchan = @to)').run(p);
    stmt(db, 'UPDATE abook SET abook_xchan = @to WHERE abook_xchan = @from').run(p);
    stmt(db, 'DELETE FROM abconfig WHERE xchan = @from AND EXISTS (SELECT 1 FROM abconfig o WHERE o.chan = abconfig.chan AND o.xchan = @to AND o.cat = abconfig.cat AND o.k = abconfig.k)').run(p);
    stmt(db, 'UPDATE abconfig SET xchan = @to WHERE xchan = @from').run(p);
    stmt(db, 'DELETE FROM pgrp_member WHERE xchan = @from AND gid IN (SELECT gid FROM pgrp_member WHERE xchan = @to)').run(p);
    stmt(db, 'UPDATE pgrp_member SET xchan = @to WHERE xchan = @from').run(p);
    stmt(db, 'UPDATE item SET owner_xchan = @to WHERE owner_xchan = @from').run(p);
    stmt(db, 'UPDATE item SET author_xchan = @to WHERE author_xchan = @from').run(p);
    for (const table of ['item', 'attach', 'photo']) {
      for (const col of ['allow_cid', 'deny_cid']) {
        stmt(db, `UPDATE ${table} SET ${col} = replace(${col}, @acl, @newAcl) WHERE instr(${col}, @acl) > 0`).run(p);
      }
    }
    for (const col of ['channel_allow_cid', 'channel_deny_cid']) {
      stmt(db, `UPDATE channel SET ${col} = replace(${col}, @acl, @newAcl) WHERE instr(${col}, @acl) > 0`).run(p);
    }
    stmt(db, 'UPDATE term SET term_hash = @to WHERE term_hash = @from').run(p);
    const used = stmt<{ from: string }, { n: number }>(db, 'SELECT (SELECT count(*) FROM abook WHERE abook_xchan = @from) + (SELECT count(*) FROM channel WHERE channel_hash = @from) AS n').get({ from })!.n;
    if (!used) stmt(db, 'DELETE FROM xchan WHERE xchan_hash = @from').run(p);
  })();
}

export interface ChannelSettings {
  channel_timezone: string;
  channel_location: string;
  channel_allow_cid: string;
  channel_allow_gid: string;
  channel_deny_cid: string;
  channel_deny_gid: string;
}

/** The channel's time zone, location and default audience of new posts. */
export function setChannelSettings(db: Db, uid: number, s: ChannelSettings): void {
  stmt(db, `UPDATE channel SET channel_timezone = @channel_timezone, channel_location = @channel_location, channel_allow_cid = @channel_allow_cid,
    channel_allow_gid = @channel_allow_gid, channel_deny_cid = @channel_deny_cid, channel_deny_gid = @channel_deny_gid WHERE channel_id = @uid`).run({ ...s, uid });
}
