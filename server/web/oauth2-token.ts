import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { resolveLogin } from '../auth/identity.js';
import { verifyLoginPassword } from '../auth/passwords.js';
import { HttpError } from '../http/errors.js';
import {
  authenticateClient, clientToken, exchangeCode, OAuth2Error, passwordToken, revokeToken, type IssuedToken,
} from '../services/oauth2.js';

/** Token endpoint parameters: body (form or JSON) over query. */
function field(ctx: Context, name: string): string | undefined {
  const body = (ctx.request as { body?: unknown }).body;
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  if (typeof b === 'string') return b;
  if (typeof b === 'number') return String(b);
  const q = ctx.query[name];
  return typeof q === 'string' ? q : undefined;
}

/** Client credentials from client_secret_basic (Authorization: Basic) or the body. */
function clientCredentials(ctx: Context): { clientId: string; secret?: string } {
  const m = /^Basic\s+(\S+)$/i.exec(ctx.get('authorization'));
  if (m) {
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { clientId: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  return { clientId: field(ctx, 'client_id') ?? '', secret: field(ctx, 'client_secret') };
}

function tokenBody(t: IssuedToken) {
  return { access_token: t.token, token_type: 'Bearer', scope: t.row.scopes, created_at: Math.floor(Date.now() / 1000) };
}

function oauthError(ctx: Context, err: OAuth2Error): void {
  ctx.status = err.status;
  ctx.body = { error: err.code, error_description: err.description };
}

/** The password grant: the same login and throttle as every other way of logging in. */
async function passwordGrant(ctx: Context, hub: Hub, client: { clientId: string; secret?: string }): Promise<IssuedToken> {
  const app = authenticateClient(hub.db, client.clientId, client.secret);
  hub.throttle.check(ctx.ip);
  const found = resolveLogin(hub.db, field(ctx, 'username') ?? '');
  const usable = found !== undefined && found.account.account_flags === 0;
  // Unknown names cost a hash too, so the answer's timing does not tell which accounts exist.
  const ok = (await verifyLoginPassword(field(ctx, 'password') ?? '', usable ? found.account.account_password : undefined)) && usable;
  if (!ok || !found) {
    hub.throttle.fail(ctx.ip);
    throw new OAuth2Error(400, 'invalid_grant', 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.');
  }
  hub.throttle.succeed(ctx.ip);
  return passwordToken(hub.db, app, found.channel, field(ctx, 'scope'));
}

/** POST /oauth/token and /oauth/revoke (OAuth 2 as Mastodon serves it). */
export function mountOAuth2Token(router: Router, hub: Hub): void {
  router.post('/oauth/token', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const client = clientCredentials(ctx);
    try {
      const grant = field(ctx, 'grant_type') ?? '';
      let issued: IssuedToken;
      if (grant === 'authorization_code') {
        issued = exchangeCode(hub.db, { ...client, code: field(ctx, 'code') ?? '', redirectUri: field(ctx, 'redirect_uri') ?? '', verifier: field(ctx, 'code_verifier') });
      } else if (grant === 'client_credentials') {
        issued = clientToken(hub.db, { ...client, scope: field(ctx, 'scope') });
      } else if (grant === 'password') {
        issued = await passwordGrant(ctx, hub, client);
      } else {
        throw new OAuth2Error(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.');
      }
      ctx.body = tokenBody(issued);
    } catch (err) {
      if (err instanceof OAuth2Error) return oauthError(ctx, err);
      if (err instanceof HttpError && err.status === 429) {
        for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
        ctx.status = 429;
        ctx.body = { error: 'Too many requests', error_description: err.message };
        return;
      }
      throw err;
    }
  });

  router.post('/oauth/revoke', (ctx) => {
    const client = clientCredentials(ctx);
    try {
      revokeToken(hub.db, { ...client, token: field(ctx, 'token') ?? '' });
      ctx.body = {};
    } catch (err) {
      if (err instanceof OAuth2Error) return oauthError(ctx, err);
      throw err;
    }
  });
}
