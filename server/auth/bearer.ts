import type { Context } from 'koa';
import type { Db } from '../db/open.js';
import { getAccount } from '../store/accounts.js';
import { getChannel } from '../store/channels.js';
import { getOAuth2App, type OAuth2AppRow } from '../store/oauth2.js';
import { lookupBearer } from '../services/oauth2.js';
import type { Authenticator, Identity } from './identity.js';

/** What a valid bearer token stands for: the app, and the channel when the owner approved one. */
export interface BearerGrant {
  app: OAuth2AppRow;
  scopes: string[];
  identity?: Identity;
}

/** The bearer token of a request: the Authorization header, else the access_token parameter. */
export function bearerToken(ctx: Context): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  if (m) return m[1];
  const q = ctx.query.access_token;
  if (typeof q === 'string' && q) return q;
  const body = (ctx.request as { body?: unknown }).body;
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>).access_token : undefined;
  return typeof b === 'string' && b ? b : undefined;
}

/** Resolves a bearer token; null when it is unknown, revoked, or its channel or account is gone. */
export function resolveBearer(db: Db, token: string): BearerGrant | null {
  const row = lookupBearer(db, token);
  const app = row && getOAuth2App(db, row.client_id);
  if (!row || !app) return null;
  const scopes = row.scopes.split(' ').filter(Boolean);
  if (row.channel_id === null) return { app, scopes };
  const channel = getChannel(db, row.channel_id);
  const account = channel && getAccount(db, channel.channel_account_id);
  if (!channel || channel.channel_removed || !account || account.account_flags !== 0) return null;
  return { app, scopes, identity: { account, channel, via: 'oauth2', oauthClient: app.client_id, scopes, boundChannel: true } };
}

/**
 * OAuth 2 bearer tokens (the Mastodon API's). An app-only token (client_credentials) is recorded in
 * ctx.state.oauth2 but names no channel: the caller stays anonymous.
 */
export function bearerAuthenticator(db: Db): Authenticator {
  return async (ctx) => {
    const token = bearerToken(ctx);
    if (!token) return undefined;
    const grant = resolveBearer(db, token);
    if (!grant) return null;
    ctx.state.oauth2 = grant;
    return grant.identity ?? undefined;
  };
}
