import { hash } from 'node:crypto';
import type { Context } from 'koa';
import type { Db } from '../db/open.js';
import { getAccount, getAccountByEmail } from '../store/accounts.js';
import { getChannel, getChannelByNick } from '../store/channels.js';
import type { AccountRow, ChannelRow } from '../store/rows.js';
import { findSession, type SessionRow } from '../store/sessions.js';
import { assertSameOrigin } from '../http/web.js';
import { forbidden } from '../http/errors.js';
import { verifyLoginPassword } from './passwords.js';
import { requestGeneration } from '../http/request-generation.js';
import type { LoginThrottle } from './throttle.js';

export interface Identity {
  account: AccountRow;
  channel: ChannelRow;
  via: 'basic' | 'session' | 'oauth' | 'oauth2';
  session?: SessionRow;
  /** Consumer key of the OAuth client acting for the channel. */
  oauthClient?: string;
  /** OAuth 2 scopes the token was granted (Mastodon API); undefined for credentials that may do all. */
  scopes?: string[];
  /** The token was approved for this one channel: `channel=` may not name another (403). */
  boundChannel?: boolean;
}

/**
 * One way of recognising the caller. Returns undefined when the request carries no credentials of
 * this kind, null when it carries credentials that are wrong.
 */
export type Authenticator = (ctx: Context) => Promise<Identity | null | undefined>;

export const SESSION_COOKIE = 'hearth_session';
export const CSRF_HEADER = 'x-csrf-token';

/** Resolves a login name (channel nickname, nick@host, or account email) to an account and channel. */
export function resolveLogin(db: Db, login: string): { account: AccountRow; channel: ChannelRow } | undefined {
  const name = login.trim();
  let channel = getChannelByNick(db, name.toLowerCase());
  if (!channel && name.includes('@')) {
    const account = getAccountByEmail(db, name);
    if (account) {
      const ch = getChannel(db, account.account_default_channel);
      return ch ? { account, channel: ch } : undefined;
    }
    channel = getChannelByNick(db, name.split('@')[0]!.toLowerCase());
  }
  if (!channel || channel.channel_removed) return undefined;
  const account = getAccount(db, channel.channel_account_id);
  return account ? { account, channel } : undefined;
}

/**
 * HTTP Basic with the account password. Verified credentials are remembered for a few minutes
 * (keyed by a hash of the header, invalidated when the password changes) because scrypt is
 * deliberately slow and clients send credentials with every request. Requests that arrive
 * together with the same credentials (a client opening with several at once, or all of them when
 * the few minutes are up) share one scrypt run: each run takes 16 MB and tens of ms on the pool.
 */
export function basicAuthenticator(db: Db, throttle: LoginThrottle, verify: typeof verifyLoginPassword = verifyLoginPassword): Authenticator {
  const verified = new Map<string, { channelId: number; passwordHash: string; until: number; generation?: string; identity?: Identity }>();
  const verifying = new Map<string, Promise<boolean>>();
  const TTL = 5 * 60 * 1000;
  return async (ctx) => {
    const header = ctx.get('authorization');
    const m = /^Basic\s+([A-Za-z0-9+/=._~-]*)\s*$/i.exec(header);
    if (!m) return undefined;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const login = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const key = hash('sha256', header);
    const cached = verified.get(key);
    if (cached && cached.until > Date.now()) {
      // While nothing in the database changed, the rows checked last time are still the rows.
      const generation = requestGeneration(ctx);
      if (cached.identity && cached.generation === generation) return { ...cached.identity };
      const channel = getChannel(db, cached.channelId);
      const account = channel && getAccount(db, channel.channel_account_id);
      if (channel && account && account.account_password === cached.passwordHash && account.account_flags === 0) {
        cached.identity = { account, channel, via: 'basic' };
        cached.generation = generation;
        return { ...cached.identity };
      }
      verified.delete(key);
    }
    throttle.check(ctx.ip);
    const found = resolveLogin(db, login);
    // An unknown login or a blocked account is checked against a dummy hash: as slow as a wrong password.
    const usable = found !== undefined && found.account.account_flags === 0;
    let check = verifying.get(key);
    if (!check) {
      check = verify(password, usable ? found.account.account_password : undefined).finally(() => verifying.delete(key));
      verifying.set(key, check);
    }
    // Awaited whatever the login: an answer that came before the dummy hash was done would tell.
    const ok = (await check) && usable;
    if (!ok || !found) {
      throttle.fail(ctx.ip);
      return null;
    }
    throttle.succeed(ctx.ip);
    if (verified.size > 1000) verified.clear();
    verified.set(key, { channelId: found.channel.channel_id, passwordHash: found.account.account_password, until: Date.now() + TTL });
    return { ...found, via: 'basic' };
  };
}

/**
 * The owner's browser session. For API requests the session counts only together with the
 * X-CSRF-Token header carrying the session's token, which a page on another origin cannot send;
 * a cookie alone authenticates nothing there.
 */
export function sessionAuthenticator(db: Db, opts: { requireCsrfHeader: boolean }): Authenticator {
  return async (ctx) => {
    const token = ctx.cookies.get(SESSION_COOKIE);
    if (!token) return undefined;
    const session = findSession(db, token);
    if (!session) return undefined;
    if (opts.requireCsrfHeader && ctx.get(CSRF_HEADER) !== session.csrf) return undefined;
    // The token should never leave the hub's own pages; if it did, a foreign page still gets nothing.
    if (opts.requireCsrfHeader) assertSameOrigin(ctx);
    const account = getAccount(db, session.account_id);
    const channel = getChannel(db, session.channel_id);
    if (!account || !channel || account.account_flags !== 0) return undefined;
    return { account, channel, via: 'session', session };
  };
}

/** Runs the authenticators in order; the first that recognises credentials decides. */
export async function authenticate(ctx: Context, authenticators: Authenticator[]): Promise<Identity | null | undefined> {
  for (const a of authenticators) {
    const result = await a(ctx);
    if (result !== undefined) return result;
  }
  return undefined;
}

/**
 * Ways of signing in that stand for the whole account. Anything else is an app's token (OAuth 1,
 * and any kind added later), which the owner approved for one channel only.
 */
const ACCOUNT_WIDE: ReadonlySet<Identity['via']> = new Set(['basic', 'session']);

/**
 * Hubzilla's `channel=<nick>` parameter: act as another channel of the same account. An app's token
 * stays bound to the channel it was approved for: naming another channel is refused (403).
 */
export function switchChannel(db: Db, identity: Identity, nick: string | undefined): Identity | undefined {
  if (!nick || nick.toLowerCase() === identity.channel.channel_address) return identity;
  if (!ACCOUNT_WIDE.has(identity.via)) {
    throw forbidden(`This application was approved for the channel ${identity.channel.channel_address} only; it cannot act as channel ${nick}`);
  }
  const channel = getChannelByNick(db, nick.toLowerCase());
  if (!channel || channel.channel_removed || channel.channel_account_id !== identity.account.account_id) return undefined;
  return { ...identity, channel };
}
