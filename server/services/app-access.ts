import type { Db } from '../db/open.js';
import { notFound } from '../http/errors.js';
import { listAccessTokens, revokeAccessToken } from '../store/oauth.js';
import { getOwnerAccount } from '../store/accounts.js';
import { deleteOAuth2AppOfAppOnlyToken, listOAuth2Tokens, revokeOAuth2TokenOfAccount } from '../store/oauth2.js';

/** Access an app holds to one of the account's channels, whatever kind of token it is. */
export interface AccessGrant {
  /** Which kind of token (and API): 'oauth1' for the microblog API's OAuth 1.0a. */
  kind: string;
  /** Names the grant for revoking it, together with the kind. */
  id: string;
  app: string;
  /** The app's web site, when it gave one. */
  website: string;
  /** The channel the app acts for (nickname); empty for an app-only token, which acts for none. */
  channel: string;
  /** When the owner approved it, UTC (YYYY-MM-DD HH:MM:SS). */
  created: string;
  /** What the app may do, when the kind of token says (OAuth 2 scopes); empty when it may do all. */
  scopes: string;
}

/** One kind of token apps hold: how to list the account's grants and revoke one. */
export interface AccessKind {
  kind: string;
  list(db: Db, accountId: number): AccessGrant[];
  revoke(db: Db, accountId: number, id: string): boolean;
}

export const oauth1Access: AccessKind = {
  kind: 'oauth1',
  list: (db, accountId) =>
    listAccessTokens(db, accountId).map((t) => ({ kind: 'oauth1', id: t.token, app: t.client_name, website: '', channel: t.channel_address, created: t.created, scopes: '' })),
  revoke: (db, accountId, id) => revokeAccessToken(db, accountId, id),
};

/** App-only tokens belong to no channel: the hub's owner account sees and revokes them. */
const ownsHub = (db: Db, accountId: number) => getOwnerAccount(db)?.account_id === accountId;

/**
 * OAuth 2 bearer tokens of the Mastodon API, with their scopes; also the app-only tokens
 * (client_credentials), which act for no channel and read only what anyone may. An app takes those
 * with its own credentials, as many as it likes, so revoking one removes the app: its credentials
 * and every token it holds end together.
 */
export const oauth2Access: AccessKind = {
  kind: 'oauth2',
  list: (db, accountId) =>
    listOAuth2Tokens(db, accountId, { appOnly: ownsHub(db, accountId) }).map((t) => ({
      kind: 'oauth2',
      id: String(t.id),
      app: t.app_name,
      website: t.website,
      channel: t.channel_address ?? '',
      created: t.created,
      scopes: t.scopes,
    })),
  revoke: (db, accountId, id) =>
    /^\d{1,15}$/.test(id) && (revokeOAuth2TokenOfAccount(db, accountId, Number(id)) || (ownsHub(db, accountId) && deleteOAuth2AppOfAppOnlyToken(db, Number(id)))),
};

/** Every kind of access apps can hold, as /settings/oauth/ lists them (other token kinds join here). */
export const ACCESS_KINDS: AccessKind[] = [oauth1Access, oauth2Access];

/** The account's grants of every kind, newest first. */
export function listGrants(db: Db, accountId: number, kinds: AccessKind[] = ACCESS_KINDS): AccessGrant[] {
  // Newest first; within one second each kind keeps its store's order (newest first too).
  return kinds.flatMap((k) => k.list(db, accountId)).sort((a, b) => b.created.localeCompare(a.created));
}

/** Revokes one grant of the account; 404 when there is no such grant (or kind). */
export function revokeGrant(db: Db, accountId: number, kind: string, id: string, kinds: AccessKind[] = ACCESS_KINDS): void {
  const k = kinds.find((x) => x.kind === kind);
  if (!k || !id || !k.revoke(db, accountId, id)) throw notFound('No such access');
}
