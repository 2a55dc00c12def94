import type { ApiRequest, ApiRoute, Method } from '../../http/api.js';
import type { BearerGrant } from '../../auth/bearer.js';
import { forbidden, HttpError } from '../../http/errors.js';
import { grantsNeed, knownNeed, type ScopeNeed } from '../../services/oauth2.js';

/**
 * A route of the Mastodon API. It must say which scope a token needs ('none' for the few that any
 * token may call): a token is held to it on every route, also on those that answer anonymous
 * callers, as Mastodon does.
 */
export type MastodonRoute = ApiRoute & { scope: ScopeNeed };

/** For a path that several routes serve (one per method): which route serves which method. */
const servedBy = new WeakMap<ApiRoute, Map<string, MastodonRoute>>();

function routeFor(req: ApiRequest, mounted: ApiRoute): MastodonRoute {
  const table = servedBy.get(mounted);
  return table ? table.get(req.ctx.method === 'HEAD' ? 'GET' : req.ctx.method)! : (mounted as MastodonRoute);
}

/** A route's demands on the caller, checked here for every route: its scope, then a channel where it needs one. */
export function admitRoute(req: ApiRequest, mounted: ApiRoute): void {
  const route = routeFor(req, mounted);
  const scopes = (req.ctx.state.oauth2 as BearerGrant | undefined)?.scopes ?? req.identity?.scopes;
  if (scopes && !grantsNeed(scopes, route.scope)) throw forbidden('This action is outside the authorized scopes');
  if (route.auth !== 'none' && !req.identity) throw new HttpError(401, 'The access token is invalid');
}

/** One route for a path several methods serve with their own handlers, auth and scopes. */
function byMethod(routes: MastodonRoute[]): ApiRoute {
  const table = new Map<string, MastodonRoute>();
  for (const r of routes) for (const m of r.methods === '*' ? [] : r.methods) table.set(m, r);
  const mounted: ApiRoute = {
    path: routes[0]!.path,
    methods: [...table.keys()] as Method[],
    auth: 'none',
    handler: (req) => routeFor(req, mounted).handler(req),
  };
  servedBy.set(mounted, table);
  return mounted;
}

/**
 * The routes as the HTTP layer mounts them: one per path, in the order first listed, where several
 * routes serving the same path by method become one. Throws for a route whose scope is missing or unknown.
 */
export function mountable(routes: MastodonRoute[]): ApiRoute[] {
  const byPath = new Map<string, MastodonRoute[]>();
  for (const r of routes) {
    if (r.scope === undefined || !knownNeed(r.scope)) throw new Error(`Mastodon route ${r.path} declares no known scope: ${String(r.scope)}`);
    if (r.methods === '*') throw new Error(`Mastodon route ${r.path} must name its methods`);
    const same = byPath.get(r.path);
    if (same) same.push(r);
    else byPath.set(r.path, [r]);
  }
  return [...byPath.values()].map((same) => (same.length === 1 ? same[0]! : byMethod(same)));
}
