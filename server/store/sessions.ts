import { createHash } from 'node:crypto';
import { stmt, type Db } from '../db/open.js';
import { nowDb, toDbDate } from '../util/time.js';
import { randomToken } from '../util/ids.js';

export interface SessionRow {
  id: string;
  account_id: number;
  channel_id: number;
  csrf: string;
  created: string;
  expires: string;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a session; returns the cookie value (only its hash is stored). */
export function createSession(db: Db, accountId: number, channelId: number, lifetimeMs: number): { token: string; session: SessionRow } {
  const token = randomToken(32);
  const session: SessionRow = {
    id: hashOf(token),
    account_id: accountId,
    channel_id: channelId,
    csrf: randomToken(16),
    created: nowDb(),
    expires: toDbDate(new Date(Date.now() + lifetimeMs)),
  };
  stmt(db, 'INSERT INTO session (id, account_id, channel_id, csrf, created, expires) VALUES (@id, @account_id, @channel_id, @csrf, @created, @expires)').run(session);
  return { token, session };
}

export function findSession(db: Db, token: string): SessionRow | undefined {
  return stmt<[string, string], SessionRow>(db, 'SELECT * FROM session WHERE id = ? AND expires > ?').get(hashOf(token), nowDb());
}

export function deleteSession(db: Db, token: string): void {
  stmt(db, 'DELETE FROM session WHERE id = ?').run(hashOf(token));
}

export function setSessionChannel(db: Db, sessionId: string, channelId: number): void {
  stmt(db, 'UPDATE session SET channel_id = ? WHERE id = ?').run(channelId, sessionId);
}

export function deleteAccountSessions(db: Db, accountId: number): void {
  stmt(db, 'DELETE FROM session WHERE account_id = ?').run(accountId);
}

/** Ends every session of the account but one (the browser that changed the password); returns how many ended. */
export function deleteOtherAccountSessions(db: Db, accountId: number, keepSessionId: string | undefined): number {
  return stmt(db, 'DELETE FROM session WHERE account_id = ? AND id IS NOT ?').run(accountId, keepSessionId ?? null).changes;
}

export function purgeExpiredSessions(db: Db): void {
  stmt(db, 'DELETE FROM session WHERE expires <= ?').run(nowDb());
}
