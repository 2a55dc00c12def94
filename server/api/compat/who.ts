import type { ApiRequest } from '../../http/api.js';
import type { XchanRow } from '../../store/rows.js';
import { getXchan, getXchanByAddress, getXchanById, getLocalXchanByNick } from '../../store/xchans.js';
import { findXchanByUrl } from '../../store/xchan-lookup.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';

/** An identity by Twitter screen name: a local nickname or a nick@host address (of this hub or another). */
export function xchanByScreenName(req: ApiRequest, name: string): XchanRow | undefined {
  const n = name.trim().replace(/^@/, '');
  if (!n) return undefined;
  const at = n.lastIndexOf('@');
  if (at < 0) return getLocalXchanByNick(req.hub.db, n);
  const host = n.slice(at + 1).toLowerCase();
  const ours = host === new URL(req.hub.baseUrl).host.toLowerCase() || host === req.hub.hostname.toLowerCase();
  // bob@elsewhere is never this hub's bob.
  return getXchanByAddress(req.hub.db, n) ?? (ours ? getLocalXchanByNick(req.hub.db, n) : undefined);
}

/** Whether a query names someone by address (user@host, @user@host, acct:…) or by actor URL. */
export function looksLikeAddress(q: string): boolean {
  return /^https?:\/\/\S+$/i.test(q) || /^(acct:)?@?[^@\s/]+@[^@\s/]+$/i.test(q);
}

/**
 * Someone named by address or URL who is not known here yet, looked up where they are (for a
 * caller with a channel, while the hub federates); undefined when nobody is found.
 */
export async function resolveRemote(req: ApiRequest, q: string): Promise<XchanRow | undefined> {
  if (!req.identity || !looksLikeAddress(q.trim())) return undefined;
  return req.hub.federation.resolve(q.trim());
}

export function xchanByUserId(req: ApiRequest, raw: string): XchanRow | undefined {
  const s = raw.trim();
  if (!/^\d{1,15}$/.test(s)) throw badRequest(`user_id must be a number: ${s.slice(0, 40)}`);
  return getXchanById(req.hub.db, Number(s));
}

/**
 * The person a request names (Twitter's user_id / screen_name, Friendica's profileurl, or the path
 * id), by precedence user_id > profileurl > screen_name; the caller when none is given and
 * `orSelf`; 404 when the named person is unknown; 400 when nobody is named and there is no caller.
 */
export function resolveWho(req: ApiRequest, opts: { orSelf: boolean; pathId?: boolean }): XchanRow {
  const p = req.params;
  const fromPath = opts.pathId ? req.pathParams.id : undefined;
  const userId = p.str('user_id');
  let x: XchanRow | undefined;
  let named: string | undefined;
  if (fromPath) {
    // Twitter's users/show/:id takes an id or a screen name.
    named = fromPath;
    x = /^\d+$/.test(fromPath) ? xchanByUserId(req, fromPath) : xchanByScreenName(req, fromPath);
  } else if (userId?.trim()) {
    named = userId;
    x = xchanByUserId(req, userId);
  } else if (p.str('profileurl')?.trim()) {
    named = p.str('profileurl')!;
    x = findXchanByUrl(req.hub.db, named.trim());
  } else if (p.str('screen_name')?.trim()) {
    named = p.str('screen_name')!;
    x = xchanByScreenName(req, named);
  } else if (opts.orSelf && req.identity) {
    x = getXchan(req.hub.db, req.identity.channel.channel_hash);
  } else {
    throw badRequest('user_id, screen_name or profileurl is required');
  }
  if (!x || x.xchan_deleted) throw notFound(named !== undefined ? `User not found: ${named.trim().slice(0, 80)}` : 'User not found.');
  return x;
}

/**
 * resolveWho, where someone elsewhere named by address or profile URL who is not known yet is
 * looked up on their server (as Friendica does), for a caller with a channel while the hub federates.
 */
export async function resolveWhoAnywhere(req: ApiRequest, opts: { orSelf: boolean; pathId?: boolean }): Promise<XchanRow> {
  try {
    return resolveWho(req, opts);
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 404) throw err;
    const p = req.params;
    const named = (opts.pathId ? req.pathParams.id : undefined) ?? (p.str('user_id')?.trim() ? undefined : p.str('profileurl')?.trim() || p.str('screen_name'));
    const found = named ? await resolveRemote(req, named) : undefined;
    if (!found || found.xchan_deleted) throw err;
    return found;
  }
}
