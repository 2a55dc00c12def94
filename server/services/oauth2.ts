import { createHash, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/open.js';
import type { ChannelRow } from '../store/rows.js';
import {
  getOAuth2App, getOAuth2Token, insertOAuth2App, insertOAuth2Code, insertOAuth2Token, takeOAuth2Code, deleteOAuth2Token,
  deleteUnapprovedOAuth2Apps, markOAuth2AppApproved, type OAuth2AppRow, type OAuth2TokenRow,
} from '../store/oauth2.js';
import { randomToken } from '../util/ids.js';
import { toDbDate } from '../util/time.js';
import { parseCallbackUrl } from './oauth.js';

/** The redirect that asks the hub to show the code instead of sending the browser anywhere. */
export const OOB_REDIRECT = 'urn:ietf:wg:oauth:2.0:oob';

/** An OAuth 2 failure with the error code RFC 6749 names (invalid_client, invalid_grant, ...). */
export class OAuth2Error extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    public readonly description: string,
  ) {
    super(description);
  }
}

const TOP_SCOPES = ['read', 'write', 'follow', 'push', 'profile'] as const;
const SUB_SCOPES: Record<string, string[]> = {
  read: ['accounts', 'blocks', 'bookmarks', 'favourites', 'filters', 'follows', 'lists', 'mutes', 'notifications', 'search', 'statuses'],
  write: ['accounts', 'blocks', 'bookmarks', 'conversations', 'favourites', 'filters', 'follows', 'lists', 'media', 'mutes', 'notifications', 'reports', 'statuses'],
  admin: [],
};

/** Every scope an app may ask for (the discovery document lists them). */
export const SUPPORTED_SCOPES: readonly string[] = [...TOP_SCOPES, ...Object.entries(SUB_SCOPES).flatMap(([top, subs]) => subs.map((sub) => `${top}:${sub}`))];

/** Whether a scope string names only scopes Mastodon knows. */
function knownScope(s: string): boolean {
  if ((TOP_SCOPES as readonly string[]).includes(s)) return true;
  const [top, sub] = s.split(':');
  return Boolean(top && sub && SUB_SCOPES[top]?.includes(sub));
}

/** Parses a space- (or '+'-) separated scope list; default 'read' as Mastodon's. */
export function parseScopes(raw: string | undefined, fallback = 'read'): string[] {
  const list = [...new Set((raw?.trim() || fallback).split(/[\s+]+/).filter(Boolean))];
  const bad = list.find((s) => !knownScope(s));
  if (bad) throw new OAuth2Error(400, 'invalid_scope', `The requested scope is invalid, unknown, or malformed: ${bad.slice(0, 40)}`);
  return list;
}

/**
 * Whether granted scopes cover a required one: 'read' covers 'read:statuses'; the legacy 'follow'
 * covers reading and writing follows, blocks and mutes.
 */
export function scopeCovers(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  const [top, sub] = required.split(':');
  if (sub && top && granted.includes(top)) return true;
  if (sub && ['follows', 'blocks', 'mutes'].includes(sub) && granted.includes('follow')) return true;
  return false;
}

/**
 * What a route or a stream asks of a bearer token: one scope, any one of several (verify_credentials
 * takes read:accounts or profile), or 'none' when any token will do.
 */
export type ScopeNeed = string | readonly string[];

/** Whether granted scopes satisfy a need. */
export function grantsNeed(granted: readonly string[], need: ScopeNeed): boolean {
  if (need === 'none') return true;
  return (typeof need === 'string' ? [need] : need).some((s) => scopeCovers(granted, s));
}

/** Whether a need is 'none' or names only scopes Mastodon knows. */
export function knownNeed(need: ScopeNeed): boolean {
  if (need === 'none') return true;
  const list = typeof need === 'string' ? [need] : need;
  return list.length > 0 && list.every(knownScope);
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface AppRegistration {
  name: string;
  redirectUris: string[];
  scopes: string;
  website: string;
}

/**
 * How many apps anonymous clients may leave in the hub. An app client registers once when the owner
 * adds an account to it (again after a reinstall), so 20 from one address in 5 minutes leaves room
 * for a household behind one router setting up several apps at once, yet a flood stops at 5,760 a
 * day from one address (or IPv6 /64), each of which is gone a day later unless the owner approved it.
 */
export interface AppRegistrationLimits {
  /** Apps one client address may register within the window (more get 429). */
  perAddress: number;
  windowMs: number;
  /** An app the owner never approved for a channel is removed this long after it registered. */
  unapprovedLifetimeMs: number;
  /** How often those apps are looked for (and once when the hub starts). */
  cleanupEveryMs: number;
}

export const DEFAULT_APP_REGISTRATION_LIMITS: AppRegistrationLimits = {
  perAddress: 20,
  windowMs: 5 * 60 * 1000,
  unapprovedLifetimeMs: 24 * 60 * 60 * 1000,
  cleanupEveryMs: 60 * 60 * 1000,
};

/**
 * Removes the apps the owner never approved once they are older than the lifetime, with the
 * app-only tokens they took (which need no approval: anyone who registers may take one).
 */
export function removeUnapprovedApps(db: Db, lifetimeMs: number, now = Date.now()): number {
  return deleteUnapprovedOAuth2Apps(db, toDbDate(new Date(now - lifetimeMs)));
}

/** Runs removeUnapprovedApps now and then every so often, until stopped. */
export function startUnapprovedAppRemoval(db: Db, limits: AppRegistrationLimits, onError: (err: Error) => void): { stop(): void } {
  const run = () => {
    try {
      removeUnapprovedApps(db, limits.unapprovedLifetimeMs);
    } catch (err) {
      onError(err as Error);
    }
  };
  run();
  const timer = setInterval(run, limits.cleanupEveryMs).unref();
  return { stop: () => clearInterval(timer) };
}

/** POST /api/v1/apps: anyone may register an app; it can do nothing until the owner approves it. */
export function registerApp(db: Db, r: AppRegistration): OAuth2AppRow {
  const name = r.name.trim();
  if (!name) throw new OAuth2Error(422, 'validation', "Validation failed: Application name can't be blank");
  if (name.length > 191) throw new OAuth2Error(422, 'validation', 'Validation failed: Application name is too long');
  const uris = r.redirectUris.map((u) => u.trim()).filter(Boolean);
  if (!uris.length) throw new OAuth2Error(422, 'validation', "Validation failed: Redirect URI can't be blank");
  for (const u of uris) if (u !== OOB_REDIRECT && !parseCallbackUrl(u)) throw new OAuth2Error(422, 'validation', 'Validation failed: Redirect URI must be an absolute URI.');
  const scopes = parseScopes(r.scopes).join(' ');
  const website = r.website.trim();
  if (website && !/^https?:\/\//i.test(website)) throw new OAuth2Error(422, 'validation', 'Validation failed: Website must be an http(s) URL');
  return insertOAuth2App(db, { client_id: randomToken(20), client_secret: randomToken(20), name: name, website, redirect_uris: uris.join('\n'), scopes });
}

export function appRedirectUris(app: OAuth2AppRow): string[] {
  return app.redirect_uris.split('\n').filter(Boolean);
}

export interface AuthorizeRequest {
  app: OAuth2AppRow;
  redirectUri: string;
  scopes: string[];
  state: string;
  challenge: string;
  challengeMethod: string;
}

/** Checks /oauth/authorize's query before the owner sees anything. */
export function checkAuthorizeRequest(db: Db, q: Record<string, string | undefined>): AuthorizeRequest {
  if ((q.response_type ?? '') !== 'code') throw new OAuth2Error(400, 'unsupported_response_type', 'The authorization server does not support this response type.');
  const app = getOAuth2App(db, q.client_id ?? '');
  if (!app) throw new OAuth2Error(401, 'invalid_client', 'Client authentication failed due to unknown client.');
  const registered = appRedirectUris(app);
  const redirectUri = q.redirect_uri?.trim() || (registered.length === 1 ? registered[0]! : '');
  if (!registered.includes(redirectUri)) throw new OAuth2Error(400, 'invalid_redirect_uri', 'The redirect uri included is not valid.');
  const scopes = parseScopes(q.scope, app.scopes.split(' ')[0] ?? 'read');
  const allowed = app.scopes.split(' ');
  if (!scopes.every((s) => scopeCovers(allowed, s))) throw new OAuth2Error(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
  const challenge = q.code_challenge?.trim() ?? '';
  const challengeMethod = challenge ? q.code_challenge_method?.trim() || 'plain' : '';
  if (challenge && !['S256', 'plain'].includes(challengeMethod)) throw new OAuth2Error(400, 'invalid_request', 'Unsupported code_challenge_method');
  return { app, redirectUri, scopes, state: q.state ?? '', challenge, challengeMethod };
}

export const CODE_LIFETIME_MS = 10 * 60 * 1000;

/** The owner approved: a one-time code for the app, bound to the chosen channel. */
export function issueCode(db: Db, req: AuthorizeRequest, channel: ChannelRow): string {
  const code = randomToken(24);
  db.transaction(() => {
    markOAuth2AppApproved(db, req.app.client_id);
    insertOAuth2Code(db, {
      code: sha256(code),
      client_id: req.app.client_id,
      channel_id: channel.channel_id,
      redirect_uri: req.redirectUri,
      scopes: req.scopes.join(' '),
      challenge: req.challenge,
      challenge_method: req.challengeMethod,
      expires: toDbDate(new Date(Date.now() + CODE_LIFETIME_MS)),
    });
  })();
  return code;
}

/** Where to send the browser after approval; undefined for the out-of-band page. */
export function approvalRedirect(req: AuthorizeRequest, code: string): string | undefined {
  if (req.redirectUri === OOB_REDIRECT) return undefined;
  const url = new URL(req.redirectUri);
  url.searchParams.set('code', code);
  if (req.state) url.searchParams.set('state', req.state);
  return url.toString();
}

export function denialRedirect(req: AuthorizeRequest): string | undefined {
  if (req.redirectUri === OOB_REDIRECT) return undefined;
  const url = new URL(req.redirectUri);
  url.searchParams.set('error', 'access_denied');
  url.searchParams.set('error_description', 'The resource owner or authorization server denied the request.');
  if (req.state) url.searchParams.set('state', req.state);
  return url.toString();
}

/** The app named by client_id, with its secret checked (public PKCE clients may leave it out). */
export function authenticateClient(db: Db, clientId: string, secret: string | undefined, secretOptional = false): OAuth2AppRow {
  const app = getOAuth2App(db, clientId);
  const ok = app && (secret === undefined || secret === '' ? secretOptional : sameText(secret, app.client_secret));
  if (!app || !ok) throw new OAuth2Error(401, 'invalid_client', 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.');
  return app;
}

function verifierMatches(challenge: string, method: string, verifier: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return sameText(computed, challenge);
}

export interface IssuedToken {
  token: string;
  row: OAuth2TokenRow;
}

function issueToken(db: Db, clientId: string, channelId: number | null, scopes: string): IssuedToken {
  const token = randomToken(32);
  const row = insertOAuth2Token(db, { token_hash: sha256(token), client_id: clientId, channel_id: channelId, scopes });
  return { token, row };
}

/** grant_type=authorization_code, with PKCE when the authorize request carried a challenge. */
export function exchangeCode(db: Db, p: { clientId: string; secret?: string; code: string; redirectUri: string; verifier?: string }): IssuedToken {
  const app = authenticateClient(db, p.clientId, p.secret, true);
  const row = p.code ? takeOAuth2Code(db, sha256(p.code)) : undefined;
  const invalid = () => new OAuth2Error(400, 'invalid_grant', 'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.');
  if (!row || row.client_id !== app.client_id) throw invalid();
  if (p.redirectUri && p.redirectUri !== row.redirect_uri) throw invalid();
  if (row.challenge) {
    if (!p.verifier || !verifierMatches(row.challenge, row.challenge_method, p.verifier)) throw invalid();
  } else if (!p.secret) {
    throw new OAuth2Error(401, 'invalid_client', 'Client authentication failed: a client without PKCE must send its secret.');
  }
  return issueToken(db, app.client_id, row.channel_id, row.scopes);
}

/** grant_type=client_credentials: a token for the app alone (it can read public things only). */
export function clientToken(db: Db, p: { clientId: string; secret?: string; scope?: string }): IssuedToken {
  const app = authenticateClient(db, p.clientId, p.secret);
  const scopes = parseScopes(p.scope);
  if (!scopes.every((s) => scopeCovers(app.scopes.split(' '), s))) throw new OAuth2Error(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
  return issueToken(db, app.client_id, null, scopes.join(' '));
}

/** grant_type=password, once the caller has checked the password (under the login throttle). */
export function passwordToken(db: Db, app: OAuth2AppRow, channel: ChannelRow, scope: string | undefined): IssuedToken {
  const scopes = parseScopes(scope);
  if (!scopes.every((s) => scopeCovers(app.scopes.split(' '), s))) throw new OAuth2Error(400, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.');
  return db.transaction(() => {
    markOAuth2AppApproved(db, app.client_id);
    return issueToken(db, app.client_id, channel.channel_id, scopes.join(' '));
  })();
}

/** POST /oauth/revoke: the app gives a token back. Unknown tokens are no error (RFC 7009). */
export function revokeToken(db: Db, p: { clientId: string; secret?: string; token: string }): void {
  const app = authenticateClient(db, p.clientId, p.secret, true);
  deleteOAuth2Token(db, sha256(p.token), app.client_id);
}

/** The token row of a bearer token; undefined when unknown or revoked. */
export function lookupBearer(db: Db, token: string): OAuth2TokenRow | undefined {
  return token ? getOAuth2Token(db, sha256(token)) : undefined;
}
