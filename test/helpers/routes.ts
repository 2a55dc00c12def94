import { allowedMethods, type ApiDefinition, type ApiRoute, type Method } from '../../server/http/api.js';
import { compatApi } from '../../server/api/compat/api.js';
import { nativeApi } from '../../server/api/native/api.js';

export const APIS: ApiDefinition[] = [nativeApi, compatApi];
export const ALL_METHODS: Method[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

export interface RouteUrl {
  api: ApiDefinition;
  prefix: string;
  route: ApiRoute;
  /** Concrete request path, placeholders filled in, e.g. /api/ext/activity/like. */
  path: string;
}

/** Values for path placeholders such as ext/activity/:verb. */
const PLACEHOLDERS: Record<string, string> = { verb: 'like' };

export function concretePath(prefix: string, route: ApiRoute): string {
  return `${prefix}/${route.path.replace(/:(\w+)/g, (_, name: string) => PLACEHOLDERS[name] ?? '1')}`;
}

/** Every route of both APIs under every prefix it is served at (api/ and api/1.1/ for compat). */
export function routeUrls(opts: { allPrefixes?: boolean } = {}): RouteUrl[] {
  const out: RouteUrl[] = [];
  for (const api of APIS) {
    for (const prefix of opts.allPrefixes === false ? api.prefixes.slice(0, 1) : api.prefixes) {
      for (const route of api.routes) out.push({ api, prefix, route, path: concretePath(prefix, route) });
    }
  }
  return out;
}

/** The methods a route answers (for '*' routes, the ones clients use). */
export function acceptedMethods(route: ApiRoute): Method[] {
  return route.methods === '*' ? ['GET', 'POST'] : route.methods;
}

export function refusedMethods(route: ApiRoute): Method[] {
  if (route.methods === '*') return [];
  const allowed = allowedMethods(route);
  return ALL_METHODS.filter((m) => !allowed.includes(m));
}

export function label(r: RouteUrl): string {
  return `${r.path} [${r.route.methods === '*' ? '*' : r.route.methods.join(',')}]`;
}

/** Checks an error response has the body shape of its API with a message a person can read. */
export async function errorMessage(res: Response, api: ApiDefinition, text?: string): Promise<string> {
  text ??= await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${res.status} error body is not JSON: ${text.slice(0, 200)}`);
  }
  const message = api.name === 'compat' ? body.error : body.message;
  if (api.name === 'compat' && (typeof body.code !== 'string' || !body.code.startsWith(String(res.status)))) throw new Error(`bad compat error body: ${text.slice(0, 200)}`);
  if (api.name === 'native' && body.success !== false) throw new Error(`bad native error body: ${text.slice(0, 200)}`);
  if (typeof message !== 'string' || message.trim() === '') throw new Error(`error without a message: ${text.slice(0, 200)}`);
  return message;
}
