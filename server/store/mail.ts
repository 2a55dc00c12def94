import { stmt, type Db } from '../db/open.js';
import type { MailRow } from './rows.js';

export type NewMail = Omit<MailRow, 'id' | 'shared_id' | 'mimetype'>;

/**
 * The channels' copies of messages as the APIs read them: a copy of an item-backed message takes its
 * text from the item (and is gone with it); an older message has its own text.
 */
export const MAIL_VIEW = `(SELECT m.id, m.convid, m.mid, m.parent_mid, m.account_id, m.channel_id, m.from_xchan, m.to_xchan, m.title,
    CASE WHEN m.iid = 0 THEN m.body ELSE i.body END AS body, CASE WHEN m.iid = 0 THEN 'text/bbcode' ELSE i.mimetype END AS mimetype,
    m.created, m.expires, m.mail_seen, m.mail_deleted, m.shared_id, m.iid
  FROM mail m LEFT JOIN item i ON i.id = m.iid WHERE m.iid = 0 OR i.item_deleted = 0)`;

export interface ConvRow {
  id: number;
  guid: string;
  subject: string;
  creator: string;
  recips: string;
  created: string;
  updated: string;
}

export function insertConv(db: Db, c: Omit<ConvRow, 'id' | 'updated'>): number {
  return Number(stmt(db, 'INSERT INTO conv (guid, subject, creator, recips, created, updated) VALUES (@guid, @subject, @creator, @recips, @created, @created)').run(c).lastInsertRowid);
}

export function getConv(db: Db, id: number): ConvRow | undefined {
  return stmt<[number], ConvRow>(db, 'SELECT * FROM conv WHERE id = ?').get(id);
}

export function getConvByGuid(db: Db, guid: string): ConvRow | undefined {
  return stmt<[string], ConvRow>(db, 'SELECT * FROM conv WHERE guid = ?').get(guid);
}

export function touchConv(db: Db, id: number, when: string): void {
  stmt(db, 'UPDATE conv SET updated = ? WHERE id = ?').run(when, id);
}

/**
 * Stores one channel's copy of a message. The other copies of the same message pass `sharedId`,
 * the id the first copy (the sender's) got, which is also its shared id. Returns the shared id.
 */
export function insertMail(db: Db, m: NewMail, sharedId?: number): number {
  const id = Number(
    stmt(
      db,
      `INSERT INTO mail (convid, mid, parent_mid, account_id, channel_id, from_xchan, to_xchan, title, body, created, expires, mail_seen, mail_deleted, shared_id, iid)
       VALUES (@convid, @mid, @parent_mid, @account_id, @channel_id, @from_xchan, @to_xchan, @title, @body, @created, @expires, @mail_seen, @mail_deleted, @shared_id, @iid)`,
    ).run({ ...m, shared_id: sharedId ?? 0 }).lastInsertRowid,
  );
  if (sharedId !== undefined) return sharedId;
  stmt(db, 'UPDATE mail SET shared_id = id WHERE id = ?').run(id);
  return id;
}

/** The channel's own copy of the message with this (shared) id. */
export function getMail(db: Db, channelId: number, sharedId: number): MailRow | undefined {
  return stmt<[number, number], MailRow>(db, `SELECT * FROM ${MAIL_VIEW} WHERE channel_id = ? AND shared_id = ? AND mail_deleted = 0`).get(channelId, sharedId);
}

/** The channel's copy of the message an item is, if it holds one (deleted from its mailbox or not). */
export function getMailOfItem(db: Db, channelId: number, iid: number): MailRow | undefined {
  return stmt<[number, number], MailRow>(db, `SELECT * FROM ${MAIL_VIEW} WHERE channel_id = ? AND iid = ?`).get(channelId, iid);
}

/** The shared id the copies of an item's message have, if any channel holds one. */
export function sharedIdOfItem(db: Db, iid: number): number | undefined {
  return stmt<[number], { shared_id: number }>(db, 'SELECT shared_id FROM mail WHERE iid = ? ORDER BY id LIMIT 1').get(iid)?.shared_id;
}

/** Whether the channel holds a copy of this message (by message id), deleted from its mailbox or not. */
export function holdsMail(db: Db, channelId: number, mid: string): boolean {
  return Boolean(stmt<[number, string], { n: number }>(db, 'SELECT 1 AS n FROM mail WHERE channel_id = ? AND mid = ?').get(channelId, mid));
}

/** Of these conversations (parent_mid), those where the channel has messages it has not read. */
export function conversationsWithUnread(db: Db, channelId: number, parentMids: string[]): Set<string> {
  const rows = stmt<[number, string], { parent_mid: string }>(
    db,
    `SELECT DISTINCT parent_mid FROM ${MAIL_VIEW} WHERE channel_id = ? AND mail_seen = 0 AND mail_deleted = 0 AND parent_mid IN (SELECT value FROM json_each(?))`,
  ).all(channelId, JSON.stringify(parentMids));
  return new Set(rows.map((r) => r.parent_mid));
}

export interface MailQuery {
  /** inbox: written by others; sent: written by the channel; all: both. */
  box: 'inbox' | 'sent' | 'all';
  /** The channel's xchan hash. */
  self: string;
  /** Only this conversation (parent_mid). */
  parentMid?: string;
  /** Only messages from or to this xchan. */
  correspondent?: string;
  /** Exclusive lower bound (of shared ids). */
  sinceId?: number;
  /** Inclusive upper bound. */
  maxId?: number;
  /** The messages just above this id (exclusive), still returned newest first. */
  minId?: number;
  limit: number;
  offset: number;
}

const FILTER = `channel_id = @channel AND mail_deleted = 0
  AND (@box = 'all' OR (@box = 'inbox' AND from_xchan <> @self) OR (@box = 'sent' AND from_xchan = @self))
  AND (@parent IS NULL OR parent_mid = @parent)
  AND (@other IS NULL OR from_xchan = @other OR to_xchan = @other)
  AND shared_id > @since AND shared_id <= @max`;

/** The channel's messages, newest first, paged Twitter-style. */
export function listMail(db: Db, channelId: number, q: MailQuery): MailRow[] {
  const params = {
    channel: channelId,
    box: q.box,
    self: q.self,
    parent: q.parentMid ?? null,
    other: q.correspondent ?? null,
    since: Math.max(q.sinceId ?? 0, q.minId ?? 0),
    max: q.maxId ?? Number.MAX_SAFE_INTEGER,
    limit: q.limit,
    offset: q.offset,
  };
  if (q.minId !== undefined) {
    return stmt<typeof params, MailRow>(db, `SELECT * FROM ${MAIL_VIEW} WHERE ${FILTER} ORDER BY shared_id ASC LIMIT @limit + 0 OFFSET @offset`).all(params).reverse();
  }
  return stmt<typeof params, MailRow>(db, `SELECT * FROM ${MAIL_VIEW} WHERE ${FILTER} ORDER BY shared_id DESC LIMIT @limit + 0 OFFSET @offset`).all(params);
}

/** The channel's messages whose body contains `text` (case-insensitive for ASCII), newest first. */
export function searchMail(db: Db, channelId: number, text: string, limit = 500): MailRow[] {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return stmt<[number, string, number], MailRow>(db, `SELECT * FROM ${MAIL_VIEW} WHERE channel_id = ? AND mail_deleted = 0 AND body LIKE ? ESCAPE '\\' ORDER BY shared_id DESC LIMIT ? + 0`).all(channelId, pattern, limit);
}

export function markMailSeen(db: Db, channelId: number, sharedId: number): boolean {
  return stmt(db, 'UPDATE mail SET mail_seen = 1 WHERE channel_id = ? AND shared_id = ? AND mail_deleted = 0').run(channelId, sharedId).changes > 0;
}

/** Removes the channel's copy of a message (the other side keeps theirs); drops a conversation nobody holds any more. */
export function deleteMail(db: Db, channelId: number, sharedId: number): boolean {
  return db.transaction(() => {
    const row = getMail(db, channelId, sharedId);
    if (!row) return false;
    stmt(db, 'DELETE FROM mail WHERE id = ?').run(row.id);
    stmt(db, 'DELETE FROM conv WHERE id = ? AND NOT EXISTS (SELECT 1 FROM mail WHERE convid = ?)').run(row.convid, row.convid);
    return true;
  })();
}
