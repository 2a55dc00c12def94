import { stmt, type Db } from '../db/open.js';
import type { AccountRow } from './rows.js';
import { nowDb } from '../util/time.js';

export function getAccount(db: Db, accountId: number): AccountRow | undefined {
  return stmt<[number], AccountRow>(db, 'SELECT * FROM account WHERE account_id = ?').get(accountId);
}

export function getAccountByEmail(db: Db, email: string): AccountRow | undefined {
  return stmt<[string], AccountRow>(db, 'SELECT * FROM account WHERE account_email = ?').get(email);
}

/** The owner account: Hearth has one account per install. */
export function getOwnerAccount(db: Db): AccountRow | undefined {
  return stmt<[], AccountRow>(db, 'SELECT * FROM account ORDER BY account_id LIMIT 1').get();
}

export function insertAccount(db: Db, email: string, passwordHash: string): number {
  const now = nowDb();
  return Number(
    stmt(db, 'INSERT INTO account (account_email, account_password, account_created, account_password_changed) VALUES (?, ?, ?, ?)').run(email, passwordHash, now, now).lastInsertRowid,
  );
}

export function setAccountPassword(db: Db, accountId: number, passwordHash: string): void {
  stmt(db, 'UPDATE account SET account_password = ?, account_password_changed = ? WHERE account_id = ?').run(passwordHash, nowDb(), accountId);
}

export function setDefaultChannel(db: Db, accountId: number, channelId: number): void {
  stmt(db, 'UPDATE account SET account_default_channel = ? WHERE account_id = ?').run(channelId, accountId);
}
