import type Router from '@koa/router';
import { isLoopback } from '../http/proxy.js';
import { createHash } from 'node:crypto';
import type { Hub } from '../hub-context.js';
import { getOwnerAccount } from '../store/accounts.js';
import { getChannel, listChannels } from '../store/channels.js';
import { setSessionChannel } from '../store/sessions.js';
import { randomToken } from '../util/ids.js';
import { HttpError } from '../http/errors.js';
import { currentSession, startSession } from './auth-pages.js';

/**
 * One-time login handoff for the desktop app: the main process, which runs the hub in-process,
 * asks for a token and opens its window on /auth/handoff?token=..., which logs the window in as
 * the owner. No password is kept anywhere for this. Tokens live only in memory (they are never
 * useful across restarts), are single-use, expire quickly, and are accepted from loopback only.
 */

export const HANDOFF_PATH = '/auth/handoff';
export const HANDOFF_LIFETIME_MS = 60_000;

interface PendingHandoff {
  accountId: number;
  channelId: number;
  path: string;
  expires: number;
}

const pendingByHub = new WeakMap<Hub, Map<string, PendingHandoff>>();

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

function pending(hub: Hub): Map<string, PendingHandoff> {
  let map = pendingByHub.get(hub);
  if (!map) pendingByHub.set(hub, (map = new Map()));
  return map;
}

function dropExpired(map: Map<string, PendingHandoff>, now: number): void {
  for (const [key, entry] of map) if (entry.expires <= now) map.delete(key);
}

/** Only paths on this hub, so a handoff can never lead elsewhere. */
function localPath(path: string | undefined): string {
  return path && /^\/(?!\/)[^\s\\]*$/.test(path) ? path : '/';
}

export interface HandoffRequest {
  /** Channel to log in as; the owner's default channel when absent. Must belong to the owner. */
  channelId?: number;
  /** Where the window lands afterwards (a path on the hub). */
  path?: string;
  /** Clock, for tests. */
  now?: number;
}

/**
 * Creates a single-use login token for the owner account. Returns undefined when the hub has no
 * channel yet (the window should then open the setup page) or the channel is not the owner's.
 */
export function issueHandoffToken(hub: Hub, req: HandoffRequest = {}): string | undefined {
  const account = getOwnerAccount(hub.db);
  if (!account || account.account_flags !== 0) return undefined;
  const own = listChannels(hub.db, account.account_id);
  const channel =
    req.channelId !== undefined
      ? own.find((c) => c.channel_id === req.channelId)
      : (own.find((c) => c.channel_id === account.account_default_channel) ?? own[0]);
  if (!channel) return undefined;
  const now = req.now ?? Date.now();
  const map = pending(hub);
  dropExpired(map, now);
  const token = randomToken(32);
  map.set(hashOf(token), { accountId: account.account_id, channelId: channel.channel_id, path: localPath(req.path), expires: now + HANDOFF_LIFETIME_MS });
  return token;
}

/** Takes a token out of the pending set: a token is spent by its first use, valid or late. */
function redeem(hub: Hub, token: string, now: number): PendingHandoff | undefined {
  const map = pending(hub);
  const key = hashOf(token);
  const entry = map.get(key);
  map.delete(key);
  dropExpired(map, now);
  return entry && entry.expires > now ? entry : undefined;
}

export function mountHandoff(router: Router, hub: Hub): void {
  router.get(HANDOFF_PATH, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    // ctx.ip: behind a trusted proxy on this machine, the client the proxy serves, not the proxy.
    if (!isLoopback(ctx.ip)) throw new HttpError(403, 'Sign-in links work only on this computer');
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : '';
    const entry = token ? redeem(hub, token, Date.now()) : undefined;
    if (!entry || !getChannel(hub.db, entry.channelId)) throw new HttpError(403, 'This sign-in link has expired or was already used; log in with your password instead');
    const session = currentSession(ctx);
    // The window already has a session of this account: switch its channel instead of piling up sessions.
    if (session && session.account_id === entry.accountId) setSessionChannel(hub.db, session.id, entry.channelId);
    else startSession(ctx, hub, entry.accountId, entry.channelId);
    ctx.redirect(entry.path);
  });
}
