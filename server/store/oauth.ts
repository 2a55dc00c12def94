import { stmt, type Db } from '../db/open.js';
import { NULL_DATE, nowDb } from '../util/time.js';

/** A client application registered by the owner (the OAuth 1.0a consumer). */
export interface OAuthClientRow {
  client_id: string;
  secret: string;
  name: string;
  redirect_uri: string;
  icon: string;
  account_id: number;
  created: string;
}

export interface OAuthTokenRow {
  token: string;
  secret: string;
  kind: 'request' | 'access';
  client_id: string;
  channel_id: number | null;
  verifier: string;
  callback: string;
  created: string;
  /** NULL_DATE for tokens that live until revoked. */
  expires: string;
}

/** An access token with the names the settings page shows. */
export interface AccessTokenListing extends OAuthTokenRow {
  client_name: string;
  channel_address: string;
}

export function getOAuthClient(db: Db, clientId: string): OAuthClientRow | undefined {
  return stmt<[string], OAuthClientRow>(db, 'SELECT * FROM oauth_client WHERE client_id = ?').get(clientId);
}

export function listOAuthClients(db: Db, accountId: number): OAuthClientRow[] {
  return stmt<[number], OAuthClientRow>(db, 'SELECT * FROM oauth_client WHERE account_id = ? ORDER BY name COLLATE NOCASE, client_id').all(accountId);
}

export function insertOAuthClient(db: Db, c: Omit<OAuthClientRow, 'created'>): void {
  stmt(db, 'INSERT INTO oauth_client (client_id, secret, name, redirect_uri, icon, account_id, created) VALUES (@client_id, @secret, @name, @redirect_uri, @icon, @account_id, @created)').run({ ...c, created: nowDb() });
}

/** Deletes an app of the account; its tokens go with it. */
export function deleteOAuthClient(db: Db, accountId: number, clientId: string): boolean {
  return stmt(db, 'DELETE FROM oauth_client WHERE account_id = ? AND client_id = ?').run(accountId, clientId).changes > 0;
}

export function insertOAuthToken(db: Db, t: Omit<OAuthTokenRow, 'created'>): void {
  stmt(
    db,
    `INSERT INTO oauth_token (token, secret, kind, client_id, channel_id, verifier, callback, created, expires)
     VALUES (@token, @secret, @kind, @client_id, @channel_id, @verifier, @callback, @created, @expires)`,
  ).run({ ...t, created: nowDb() });
}

/** A token of the given kind that has not expired. */
export function getLiveOAuthToken(db: Db, token: string, kind: OAuthTokenRow['kind']): OAuthTokenRow | undefined {
  return stmt<[string, string, string, string], OAuthTokenRow>(db, 'SELECT * FROM oauth_token WHERE token = ? AND kind = ? AND (expires = ? OR expires > ?)').get(token, kind, NULL_DATE, nowDb());
}

/** Records the owner's approval of a request token: the channel it acts for and the verifier. */
export function authorizeRequestToken(db: Db, token: string, channelId: number, verifier: string): boolean {
  return stmt(db, "UPDATE oauth_token SET channel_id = ?, verifier = ? WHERE token = ? AND kind = 'request' AND channel_id IS NULL").run(channelId, verifier, token).changes > 0;
}

export function deleteOAuthToken(db: Db, token: string): boolean {
  return stmt(db, 'DELETE FROM oauth_token WHERE token = ?').run(token).changes > 0;
}

/** Revokes an access token held for one of the account's channels. */
export function revokeAccessToken(db: Db, accountId: number, token: string): boolean {
  return (
    stmt(db, "DELETE FROM oauth_token WHERE token = ? AND kind = 'access' AND channel_id IN (SELECT channel_id FROM channel WHERE channel_account_id = ?)").run(token, accountId).changes > 0
  );
}

/** Revokes every OAuth token (access and pending request tokens) held for the account's channels; returns how many. */
export function revokeAccountOAuthTokens(db: Db, accountId: number): number {
  return stmt(db, 'DELETE FROM oauth_token WHERE channel_id IN (SELECT channel_id FROM channel WHERE channel_account_id = ?)').run(accountId).changes;
}

export function listAccessTokens(db: Db, accountId: number): AccessTokenListing[] {
  return stmt<[number], AccessTokenListing>(
    db,
    `SELECT t.*, c.name AS client_name, ch.channel_address AS channel_address
     FROM oauth_token t JOIN oauth_client c ON c.client_id = t.client_id JOIN channel ch ON ch.channel_id = t.channel_id
     WHERE t.kind = 'access' AND ch.channel_account_id = ? ORDER BY t.created DESC, t.token`,
  ).all(accountId);
}

export function purgeExpiredRequestTokens(db: Db): void {
  stmt(db, "DELETE FROM oauth_token WHERE kind = 'request' AND expires <= ?").run(nowDb());
}

/**
 * Remembers a nonce of a client; false when the client already used it. Nonces older than
 * `keepAfter` (unix seconds) are forgotten: their timestamps are outside the accepted window anyway.
 */
export function useNonce(db: Db, clientId: string, nonce: string, ts: number, keepAfter: number): boolean {
  return db.transaction(() => {
    stmt(db, 'DELETE FROM oauth_nonce WHERE ts < ?').run(keepAfter);
    if (stmt<[string, string], { n: number }>(db, 'SELECT count(*) AS n FROM oauth_nonce WHERE client_id = ? AND nonce = ?').get(clientId, nonce)!.n > 0) return false;
    stmt(db, 'INSERT INTO oauth_nonce (client_id, nonce, ts) VALUES (?, ?, ?)').run(clientId, nonce, ts);
    return true;
  })();
}
