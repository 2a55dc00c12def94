import type { ApiRequest } from '../../http/api.js';
import type { XchanRow } from '../../store/rows.js';
import { getXchan, getXchanByAddress, getXchanById, getLocalXchanByNick } from '../../store/xchans.js';
import { findXchanByUrl } from '../../store/xchan-lookup.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';

/** An identity by Twitter screen name: a local nickname or a nick@host address. */
export function xchanByScreenName(req: ApiRequest, name: string): XchanRow | undefined {
  const n = name.trim().replace(/^@/, '');
  if (!n) return undefined;
  return getLocalXchanByNick(req.hub.db, n) ?? (n.includes('@') ? getXchanByAddress(req.hub.db, n) : undefined);
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
 * As resolveWho; and someone elsewhere whom the hub does not know yet, named by address
 * (screen_name nick@host) or profile URL, is looked up on their server (while federation runs).
 */
export async function resolveWhoAnywhere(req: ApiRequest, opts: { orSelf: boolean; pathId?: boolean }): Promise<XchanRow> {
  try {
    return resolveWho(req, opts);
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 404) throw err;
    const p = req.params;
    const fromPath = opts.pathId ? req.pathParams.id : undefined;
    const named = fromPath ?? (p.str('user_id')?.trim() ? undefined : (p.str('profileurl')?.trim() || p.str('screen_name')?.trim()));
    const found = named && (named.includes('@') || /^https?:\/\//i.test(named)) ? await req.hub.federation.resolve(named) : undefined;
    if (!found || found.xchan_deleted) throw err;
    return found;
  }
}
