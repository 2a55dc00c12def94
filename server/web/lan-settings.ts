import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { LOOPBACK_HOST, lanAddress, lanUrl, NO_NETWORK } from '../services/lan-access.js';
import { getOwnerAccount } from '../store/accounts.js';
import type { SessionRow } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';

/** JSON for Settings → Network access: GET reads whether the hub is on the LAN, POST moves it there or back. */
export const LAN_SETTINGS_PATH = '/settings/lan/state';

/** The hub owner's browser session: 401 without a session, 403 for another account's. */
function ownerSession(ctx: Context): SessionRow {
  const session = currentSession(ctx);
  if (!session) throw new HttpError(401, 'Log in first');
  if (getOwnerAccount(ctx.hub.db)?.account_id !== session.account_id) throw new HttpError(403, 'Only the owner of this hub can change its network access');
  return session;
}

function onOff(ctx: Context): boolean {
  const body = (ctx.request as { body?: unknown }).body;
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>).on : undefined;
  if (v === true || v === 'true' || v === '1' || v === 'on') return true;
  if (v === false || v === 'false' || v === '0' || v === 'off') return false;
  throw new HttpError(400, 'Say on (true) or off (false)');
}

const LOOPBACK = /^(127\.|localhost$|::1$|\[::1\]$)/;

/** Why the hub cannot move itself, and how whoever started it does it instead. */
function restartAdvice(hub: Hub): { why: string; on: string; off: string } {
  const port = hub.port;
  const address = lanAddress() ?? 'THIS-COMPUTERS-ADDRESS';
  const why = hub.federation.fixedUrl
    ? `Your hub federates, so its address stays ${hub.federation.fixedUrl} for good; the proxy or tunnel in front of it decides who reaches it.`
    : 'Your hub was started with its address given (--host, --base-url or a reverse proxy), so it keeps that address until it is started again.';
  return { why, on: `hearth serve --host 0.0.0.0 --port ${port} --base-url ${lanUrl(address, port)}`, off: `hearth serve --host ${LOOPBACK_HOST} --port ${port}` };
}

function stateBody(hub: Hub) {
  const lan = hub.federation.fixedUrl ? undefined : hub.lan;
  const state = lan?.state();
  return {
    on: state ? state.on : !LOOPBACK.test(hub.host),
    url: hub.baseUrl,
    lanUrl: lan ? (lan.lanUrl() ?? null) : null,
    switchable: Boolean(lan),
    problem: state?.problem ?? null,
    restart: lan ? null : restartAdvice(hub),
  };
}

/**
 * Settings → Network access, for the owner only: whether other devices on the network can reach
 * the hub, and turning that on or off when the hub may move itself (else how to restart it so).
 * Moving drops every connection, this one too: the answer says where the hub will be, then it moves.
 */
export function mountLanSettings(router: Router, hub: Hub): void {
  router.get(LAN_SETTINGS_PATH, (ctx) => {
    ownerSession(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = stateBody(hub);
  });

  router.post(LAN_SETTINGS_PATH, (ctx) => {
    assertSameOrigin(ctx);
    const session = ownerSession(ctx);
    if (ctx.get('x-csrf-token') !== session.csrf) throw new HttpError(403, 'The page has expired; reload it and try again');
    const on = onOff(ctx);
    const now = stateBody(hub);
    ctx.set('Cache-Control', 'no-store');
    if (!now.switchable || !hub.lan) throw new HttpError(409, `${now.restart!.why} To ${on ? 'open it to your network' : 'keep it to this computer'}, start it with: ${on ? now.restart!.on : now.restart!.off}`);
    if (on === now.on) {
      ctx.body = now;
      return;
    }
    const target = on ? hub.lan.lanUrl() : lanUrl(LOOPBACK_HOST, hub.port);
    if (!target) throw new HttpError(409, NO_NETWORK);
    const lan = hub.lan;
    // The hub stops listening once this answer has gone; the browser must not wait on this connection.
    ctx.set('Connection', 'close');
    ctx.res.once('finish', () => setImmediate(() => void lan.set(on).catch((err: Error) => hub.log.error(`changing LAN access failed: ${err.message}`))));
    ctx.body = { ...now, on, url: target, lanUrl: on ? target : now.lanUrl, problem: null, moving: true };
  });
}
