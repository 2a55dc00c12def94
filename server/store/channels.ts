import { createHash, createSign, generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { stmt, type Db } from '../db/open.js';
import type { ChannelRow, XchanRow } from './rows.js';
import { nowDb } from '../util/time.js';
import { uuid } from '../util/ids.js';

const generateKeyPairAsync = promisify(generateKeyPair);

export const NICK_PATTERN = /^[a-z][a-z0-9_-]{1,31}$/;
const RESERVED_NICKS = new Set(['api', 'admin', 'root', 'sys', 'system', 'settings', 'login', 'logout', 'setup', 'hearth']);

/** Why a nickname cannot be used, or undefined when it can. */
export function nickProblem(db: Db, nick: string | undefined): string | undefined {
  if (!nick) return 'a nickname is required';
  if (!NICK_PATTERN.test(nick)) return 'a nickname has 2 to 32 characters: lowercase letters, digits, - and _, starting with a letter';
  if (RESERVED_NICKS.has(nick)) return `the nickname ${nick} is reserved`;
  if (getChannelByNick(db, nick)) return `the nickname ${nick} is already taken`;
  return undefined;
}

export function getChannel(db: Db, channelId: number): ChannelRow | undefined {
  return stmt<[number], ChannelRow>(db, 'SELECT * FROM channel WHERE channel_id = ? AND channel_removed = 0').get(channelId);
}

export function getChannelByNick(db: Db, nick: string): ChannelRow | undefined {
  return stmt<[string], ChannelRow>(db, 'SELECT * FROM channel WHERE channel_address = ?').get(nick);
}

export function getChannelByHash(db: Db, hash: string): ChannelRow | undefined {
  return stmt<[string], ChannelRow>(db, 'SELECT * FROM channel WHERE channel_hash = ? AND channel_removed = 0').get(hash);
}

export function listChannels(db: Db, accountId?: number): ChannelRow[] {
  if (accountId === undefined) return stmt<[], ChannelRow>(db, 'SELECT * FROM channel WHERE channel_removed = 0 ORDER BY channel_id').all();
  return stmt<[number], ChannelRow>(db, 'SELECT * FROM channel WHERE channel_account_id = ? AND channel_removed = 0 ORDER BY channel_id').all(accountId);
}

export function countChannels(db: Db): number {
  return (stmt<[], { n: number }>(db, 'SELECT count(*) AS n FROM channel WHERE channel_removed = 0').get()?.n ?? 0);
}

export function getXchan(db: Db, hash: string): XchanRow | undefined {
  return stmt<[string], XchanRow>(db, 'SELECT * FROM xchan WHERE xchan_hash = ?').get(hash);
}

export interface ChannelKeys {
  publicKey: string;
  privateKey: string;
  guid: string;
  guidSig: string;
  hash: string;
}

/** A fresh RSA key pair and the identity derived from it (guid, signature over the guid, hash). */
export async function generateChannelKeys(): Promise<ChannelKeys> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const guid = uuid();
  const guidSig = 'sha256.' + createSign('RSA-SHA256').update(guid).sign(privateKey).toString('base64url');
  const hash = createHash('sha256').update(guid + publicKey).digest('base64url');
  return { publicKey, privateKey, guid, guidSig, hash };
}

/** The part after the @ of the hub's channel addresses: the host, with the port when not the scheme's default. */
export function addressHost(baseUrl: string): string {
  return new URL(baseUrl).host;
}

/**
 * A local channel's address: nick@host, with the port when the base URL has a non-default one
 * (alice@127.0.0.1:8480), as Hubzilla builds it.
 */
export function localAddress(baseUrl: string, nick: string): string {
  return `${nick}@${addressHost(baseUrl)}`;
}

/** URLs of a local channel's identity, built from the hub's base URL. */
export function localXchanUrls(baseUrl: string, nick: string, channelId: number) {
  return {
    xchan_url: `${baseUrl}/channel/${nick}`,
    xchan_connurl: `${baseUrl}/poco/${nick}`,
    xchan_follow: `${baseUrl}/follow?f=&url=%s`,
    xchan_connpage: '',
    xchan_photo_l: `${baseUrl}/photo/profile/l/${channelId}`,
    xchan_photo_m: `${baseUrl}/photo/profile/m/${channelId}`,
    xchan_photo_s: `${baseUrl}/photo/profile/s/${channelId}`,
    xchan_instance_url: baseUrl,
  };
}

export interface NewChannel {
  accountId: number;
  nick: string;
  name: string;
  baseUrl: string;
  keys: ChannelKeys;
}

/** Creates a channel with its xchan identity, default profile and self connection. Call inside a transaction. */
export function insertChannel(db: Db, c: NewChannel): ChannelRow {
  const now = nowDb();
  stmt(db, `INSERT INTO xchan (xchan_hash, xchan_guid, xchan_guid_sig, xchan_pubkey, xchan_addr, xchan_name, xchan_network,
      xchan_photo_date, xchan_name_date) VALUES (?, ?, ?, ?, ?, ?, 'zot6', ?, ?)`).run(
    c.keys.hash, c.keys.guid, c.keys.guidSig, c.keys.publicKey, localAddress(c.baseUrl, c.nick), c.name, now, now,
  );
  const isFirst = listChannels(db, c.accountId).length === 0;
  const channelId = Number(
    stmt(db, `INSERT INTO channel (channel_account_id, channel_primary, channel_name, channel_address, channel_guid, channel_guid_sig,
        channel_hash, channel_pubkey, channel_prvkey, channel_created, channel_active, channel_lastpost)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      c.accountId, isFirst ? 1 : 0, c.name, c.nick, c.keys.guid, c.keys.guidSig, c.keys.hash, c.keys.publicKey, c.keys.privateKey, now, now, now,
    ).lastInsertRowid,
  );
  const urls = localXchanUrls(c.baseUrl, c.nick, channelId);
  stmt(db, `UPDATE xchan SET xchan_url = @xchan_url, xchan_connurl = @xchan_connurl, xchan_follow = @xchan_follow,
      xchan_connpage = @xchan_connpage, xchan_photo_l = @xchan_photo_l, xchan_photo_m = @xchan_photo_m,
      xchan_photo_s = @xchan_photo_s, xchan_instance_url = @xchan_instance_url WHERE xchan_hash = @hash`).run({ ...urls, hash: c.keys.hash });
  stmt(db, `INSERT INTO profile (profile_guid, aid, uid, profile_name, is_default, fullname, publish) VALUES (?, ?, ?, 'default', 1, ?, 1)`).run(
    uuid(), c.accountId, channelId, c.name,
  );
  stmt(db, `INSERT INTO abook (abook_account, abook_channel, abook_xchan, abook_my_perms, abook_their_perms, abook_closeness,
      abook_created, abook_updated, abook_connected, abook_self) VALUES (?, ?, ?, 262143, 262143, 0, ?, ?, ?, 1)`).run(
    c.accountId, channelId, c.keys.hash, now, now, now,
  );
  if (isFirst) stmt(db, 'UPDATE account SET account_default_channel = ? WHERE account_id = ?').run(channelId, c.accountId);
  return getChannel(db, channelId)!;
}

/** The URL with its origin replaced by the base URL (SQL), for the hub's own URLs stored absolute. */
const REBASED = (column: string) => `@base || substr(${column}, instr(substr(${column}, 9), '/') + 8)`;
const FOREIGN_ORIGIN = (column: string) => `(${column} LIKE 'http://%/%' OR ${column} LIKE 'https://%/%') AND ${column} NOT LIKE @base || '/%'`;

/**
 * Points the address and URLs of every local channel's identity, and the profile photo URLs of its
 * profiles, at the hub's current base URL.
 */
export function relocateLocalChannels(db: Db, baseUrl: string): void {
  const update = db.prepare(`UPDATE xchan SET xchan_addr = @xchan_addr, xchan_url = @xchan_url, xchan_connurl = @xchan_connurl,
      xchan_follow = @xchan_follow, xchan_photo_l = @xchan_photo_l, xchan_photo_m = @xchan_photo_m, xchan_photo_s = @xchan_photo_s,
      xchan_instance_url = @xchan_instance_url WHERE xchan_hash = @hash AND (xchan_url != @xchan_url OR xchan_addr != @xchan_addr)`);
  const photo = db.prepare(`UPDATE profile SET photo = ${REBASED('photo')} WHERE uid = @uid AND ${FOREIGN_ORIGIN('photo')}`);
  const thumb = db.prepare(`UPDATE profile SET thumb = ${REBASED('thumb')} WHERE uid = @uid AND ${FOREIGN_ORIGIN('thumb')}`);
  db.transaction(() => {
    for (const ch of listChannels(db)) {
      const { xchan_connpage: _unused, ...urls } = localXchanUrls(baseUrl, ch.channel_address, ch.channel_id);
      update.run({ ...urls, xchan_addr: localAddress(baseUrl, ch.channel_address), hash: ch.channel_hash });
      photo.run({ base: baseUrl, uid: ch.channel_id });
      thumb.run({ base: baseUrl, uid: ch.channel_id });
    }
  })();
}

export function renameChannel(db: Db, channelId: number, name: string): void {
  const ch = getChannel(db, channelId);
  if (!ch) return;
  db.transaction(() => {
    stmt(db, 'UPDATE channel SET channel_name = ? WHERE channel_id = ?').run(name, channelId);
    stmt(db, 'UPDATE xchan SET xchan_name = ?, xchan_name_date = ? WHERE xchan_hash = ?').run(name, nowDb(), ch.channel_hash);
  })();
}

export function setLastPost(db: Db, channelId: number, when: string): void {
  stmt(db, 'UPDATE channel SET channel_lastpost = ? WHERE channel_id = ?').run(when, channelId);
}
