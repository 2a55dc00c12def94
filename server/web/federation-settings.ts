import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { assertSameOrigin } from '../http/web.js';
import { federationInsecure } from '../federation/settings.js';
import { FederationRefused, switchFederation } from '../federation/switch.js';
import type { FederationState } from '../federation/runtime.js';
import { getOwnerAccount } from '../store/accounts.js';
import type { SessionRow } from '../store/sessions.js';
import { currentSession } from './auth-pages.js';

/** JSON for Settings → Federation: GET reads the state, POST turns federation on or off. */
export const FEDERATION_SETTINGS_PATH = '/settings/federation/state';

/** The hub owner's browser session: 401 without a session, 403 for another account's. */
function ownerSession(ctx: Context): SessionRow {
  const session = currentSession(ctx);
  if (!session) throw new HttpError(401, 'Log in first');
  if (getOwnerAccount(ctx.hub.db)?.account_id !== session.account_id) throw new HttpError(403, 'Only the owner of this hub can change its federation');
  return session;
}

function field(ctx: Context, name: string): unknown {
  const body = (ctx.request as { body?: unknown }).body;
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

function onOff(v: unknown): boolean {
  if (v === true || v === 'true' || v === '1' || v === 'on') return true;
  if (v === false || v === 'false' || v === '0' || v === 'off') return false;
  throw new HttpError(400, 'Say on (true) or off (false)');
}

function stateBody(state: FederationState) {
  return { on: state.on, running: state.running, url: state.url ?? null, problem: state.problem ?? null, insecure: federationInsecure() };
}

/**
 * Settings → Federation, for the owner only: whether federation is on and runs, the public address
 * fixed once it was on, and why it does not run. Turning it on or off applies at once.
 */
export function mountFederationSettings(router: Router, hub: Hub): void {
  router.get(FEDERATION_SETTINGS_PATH, (ctx) => {
    ownerSession(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = stateBody(hub.federation.state());
  });

  router.post(FEDERATION_SETTINGS_PATH, async (ctx) => {
    assertSameOrigin(ctx);
    const session = ownerSession(ctx);
    if (ctx.get('x-csrf-token') !== session.csrf) throw new HttpError(403, 'The page has expired; reload it and try again');
    const on = onOff(field(ctx, 'on'));
    const url = field(ctx, 'url');
    if (url !== undefined && (typeof url !== 'string' || url.length > 2000)) throw new HttpError(400, 'The address must be a URL');
    try {
      const state = await switchFederation({ db: hub.db, federation: hub.federation, baseUrl: () => hub.baseUrl }, on, typeof url === 'string' && url.trim() ? url.trim() : undefined);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = stateBody(state);
    } catch (err) {
      if (err instanceof FederationRefused) throw new HttpError(400, err.message.charAt(0).toUpperCase() + err.message.slice(1));
      throw err;
    }
  });
}
