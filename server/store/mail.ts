import { stmt, type Db } from '../db/open.js';
import type { MailRow } from './rows.js';

export type NewMail = Omit<MailRow, 'id'>;

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

export function touchConv(db: Db, id: number, when: string): void {
  stmt(db, 'UPDATE conv SET updated = ? WHERE id = ?').run(when, id);
}

export function insertMail(db: Db, m: NewMail): number {
  return Number(
    stmt(
      db,
      `INSERT INTO mail (convid, mid, parent_mid, account_id, channel_id, from_xchan, to_xchan, title, body, created, expires, mail_seen, mail_deleted)
       VALUES (@convid, @mid, @parent_mid, @account_id, @channel_id, @from_xchan, @to_xchan, @title, @body, @created, @expires, @mail_seen, @mail_deleted)`,
    ).run(m).lastInsertRowid,
  );
}

/** One of the channel's own copies of a message. */
export function getMail(db: Db, channelId: number, id: number): MailRow | undefined {
  return stmt<[number, number], MailRow>(db, 'SELECT * FROM mail WHERE channel_id = ? AND id = ? AND mail_deleted = 0').get(channelId, id);
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
  /** Exclusive lower bound. */
  sinceId?: number;
  /** Inclusive upper bound. */
  maxId?: number;
  /** The rows just above this id (exclusive), still returned newest first. */
  minId?: number;
  limit: number;
  offset: number;
}

const FILTER = `channel_id = @channel AND mail_deleted = 0
  AND (@box = 'all' OR (@box = 'inbox' AND from_xchan <> @self) OR (@box = 'sent' AND from_xchan = @self))
  AND (@parent IS NULL OR parent_mid = @parent)
  AND (@other IS NULL OR from_xchan = @other OR to_xchan = @other)
  AND id > @since AND id <= @max`;

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
    return stmt<typeof params, MailRow>(db, `SELECT * FROM mail WHERE ${FILTER} ORDER BY id ASC LIMIT @limit OFFSET @offset`).all(params).reverse();
  }
  return stmt<typeof params, MailRow>(db, `SELECT * FROM mail WHERE ${FILTER} ORDER BY id DESC LIMIT @limit OFFSET @offset`).all(params);
}

/** The channel's messages whose body contains `text` (case-insensitive for ASCII), newest first. */
export function searchMail(db: Db, channelId: number, text: string, limit = 500): MailRow[] {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return stmt<[number, string, number], MailRow>(db, "SELECT * FROM mail WHERE channel_id = ? AND mail_deleted = 0 AND body LIKE ? ESCAPE '\\' ORDER BY id DESC LIMIT ?").all(channelId, pattern, limit);
}

export function markMailSeen(db: Db, channelId: number, id: number): boolean {
  return stmt(db, 'UPDATE mail SET mail_seen = 1 WHERE channel_id = ? AND id = ? AND mail_deleted = 0').run(channelId, id).changes > 0;
}

/** Removes the channel's copy of a message (the other side keeps theirs); drops a conversation nobody holds any more. */
export function deleteMail(db: Db, channelId: number, id: number): boolean {
  return db.transaction(() => {
    const row = getMail(db, channelId, id);
    if (!row) return false;
    stmt(db, 'DELETE FROM mail WHERE id = ?').run(id);
    stmt(db, 'DELETE FROM conv WHERE id = ? AND NOT EXISTS (SELECT 1 FROM mail WHERE convid = ?)').run(row.convid, row.convid);
    return true;
  })();
}
