import { stmt, type Db } from '../db/open.js';
import { nowDb } from '../util/time.js';

export interface OAuth2AppRow {
  client_id: string;
  client_secret: string;
  name: string;
  website: string;
  redirect_uris: string;
  scopes: string;
  created: string;
  /** 1 once the owner approved the app for a channel; apps never approved are removed after a while. */
  approved: number;
}

export interface OAuth2CodeRow {
  code: string;
  client_id: string;
  channel_id: number;
  redirect_uri: string;
  scopes: string;
  challenge: string;
  challenge_method: string;
  expires: string;
}

export interface OAuth2TokenRow {
  id: number;
  token_hash: string;
  client_id: string;
  channel_id: number | null;
  scopes: string;
  created: string;
}

export interface OAuth2TokenListing extends OAuth2TokenRow {
  app_name: string;
  website: string;
  /** null for an app-only token. */
  channel_address: string | null;
}

export function insertOAuth2App(db: Db, a: Omit<OAuth2AppRow, 'created' | 'approved'>): OAuth2AppRow {
  const row = { ...a, created: nowDb(), approved: 0 };
  stmt(db, 'INSERT INTO oauth2_app (client_id, client_secret, name, website, redirect_uris, scopes, created) VALUES (@client_id, @client_secret, @name, @website, @redirect_uris, @scopes, @created)').run(row);
  return row;
}

export function getOAuth2App(db: Db, clientId: string): OAuth2AppRow | undefined {
  return stmt<[string], OAuth2AppRow>(db, 'SELECT * FROM oauth2_app WHERE client_id = ?').get(clientId);
}

/** The owner approved the app for a channel: it stays registered for good. */
export function markOAuth2AppApproved(db: Db, clientId: string): void {
  stmt(db, 'UPDATE oauth2_app SET approved = 1 WHERE client_id = ? AND approved = 0').run(clientId);
}

/** Removes the apps the owner never approved that registered before `before` (with their app-only tokens). */
export function deleteUnapprovedOAuth2Apps(db: Db, before: string): number {
  return stmt(db, 'DELETE FROM oauth2_app WHERE approved = 0 AND created < ?').run(before).changes;
}

export function insertOAuth2Code(db: Db, c: OAuth2CodeRow): void {
  stmt(db, 'INSERT INTO oauth2_code (code, client_id, channel_id, redirect_uri, scopes, challenge, challenge_method, expires) VALUES (@code, @client_id, @channel_id, @redirect_uri, @scopes, @challenge, @challenge_method, @expires)').run(c);
}

/** Takes a live code out of the table: a code is good for one exchange only. */
export function takeOAuth2Code(db: Db, codeHash: string): OAuth2CodeRow | undefined {
  return db.transaction(() => {
    const row = stmt<[string, string], OAuth2CodeRow>(db, 'SELECT * FROM oauth2_code WHERE code = ? AND expires > ?').get(codeHash, nowDb());
    stmt(db, 'DELETE FROM oauth2_code WHERE code = ? OR expires <= ?').run(codeHash, nowDb());
    return row;
  })();
}

export function insertOAuth2Token(db: Db, t: Omit<OAuth2TokenRow, 'id' | 'created'>): OAuth2TokenRow {
  const created = nowDb();
  const id = Number(stmt(db, 'INSERT INTO oauth2_token (token_hash, client_id, channel_id, scopes, created) VALUES (@token_hash, @client_id, @channel_id, @scopes, @created)').run({ ...t, created }).lastInsertRowid);
  return { ...t, id, created };
}

export function getOAuth2Token(db: Db, tokenHash: string): OAuth2TokenRow | undefined {
  return stmt<[string], OAuth2TokenRow>(db, 'SELECT * FROM oauth2_token WHERE token_hash = ?').get(tokenHash);
}

export function deleteOAuth2Token(db: Db, tokenHash: string, clientId: string): boolean {
  return stmt(db, 'DELETE FROM oauth2_token WHERE token_hash = ? AND client_id = ?').run(tokenHash, clientId).changes > 0;
}

/** Tokens held for the account's channels, and with `appOnly` the app-only tokens too, for the apps page. */
export function listOAuth2Tokens(db: Db, accountId: number, opts: { appOnly: boolean }): OAuth2TokenListing[] {
  return stmt<[{ account: number; appOnly: number }], OAuth2TokenListing>(
    db,
    `SELECT t.*, a.name AS app_name, a.website AS website, ch.channel_address AS channel_address
     FROM oauth2_token t JOIN oauth2_app a ON a.client_id = t.client_id LEFT JOIN channel ch ON ch.channel_id = t.channel_id
     WHERE ch.channel_account_id = @account OR (t.channel_id IS NULL AND @appOnly = 1) ORDER BY t.created DESC, t.id DESC`,
  ).all({ account: accountId, appOnly: opts.appOnly ? 1 : 0 });
}

export function revokeOAuth2TokenOfAccount(db: Db, accountId: number, id: number): boolean {
  return stmt(db, 'DELETE FROM oauth2_token WHERE id = ? AND channel_id IN (SELECT channel_id FROM channel WHERE channel_account_id = ?)').run(id, accountId).changes > 0;
}

/** Removes the app holding this app-only token, and with it every token and code it holds. */
export function deleteOAuth2AppOfAppOnlyToken(db: Db, id: number): boolean {
  return stmt(db, 'DELETE FROM oauth2_app WHERE client_id = (SELECT client_id FROM oauth2_token WHERE id = ? AND channel_id IS NULL)').run(id).changes > 0;
}
