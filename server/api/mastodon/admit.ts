import type { ApiRequest, ApiRoute, Method } from '../../http/api.js';
import { forbidden, HttpError } from '../../http/errors.js';
import { scopeCovers } from '../../services/oauth2.js';

/** A route's demands on the caller: a channel's token where it needs one, and the route's scope. */
export function admitRoute(req: ApiRequest, route: ApiRoute): void {
  if (route.auth !== 'none' && !req.identity) throw new HttpError(401, 'The access token is invalid');
  const scopes = req.identity?.scopes;
  if (route.scope && scopes && !scopeCovers(scopes, route.scope) && !(route.scope === 'read:accounts' && scopes.includes('profile'))) {
    throw forbidden('This action is outside the authorized scopes');
  }
}

/** One route for a path several methods serve with their own handlers, auth and scopes. */
export function byMethod(routes: ApiRoute[]): ApiRoute {
  const table = new Map<string, ApiRoute>();
  for (const r of routes) for (const m of r.methods === '*' ? [] : r.methods) table.set(m, r);
  return {
    path: routes[0]!.path,
    methods: [...table.keys()] as Method[],
    auth: 'none',
    handler(req) {
      const route = table.get(req.ctx.method === 'HEAD' ? 'GET' : req.ctx.method)!;
      admitRoute(req, route);
      return route.handler(req);
    },
  };
}
