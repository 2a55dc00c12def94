import type Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { Hub } from '../hub-context.js';
import { authenticate, SESSION_COOKIE, switchChannel, type Identity } from '../auth/identity.js';
import { hasBody, isMultipart, refusedBeforeBody } from './body.js';
import { HttpError, methodNotAllowed, notFound, toHttpError, unauthorized } from './errors.js';
import { paramReader, type ParamReader } from './params.js';
import { responseCache } from './response-cache.js';
import { keepableBody } from './answer-body.js';
import { requestGeneration } from './request-generation.js';
import { allowLongBody } from './body-deadline.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type Format = 'json' | 'xml' | 'rss' | 'atom';

/**
 * Who may call a route: anyone ('none'), an authenticated channel ('user'), or an authenticated
 * channel with 403 instead of 401 when credentials are missing ('user403', ext/profile/show).
 */
export type AuthMode = 'none' | 'user' | 'user403';

export interface ApiRequest {
  ctx: Context;
  hub: Hub;
  params: ParamReader;
  /** Path placeholders (`:verb`) and the trailing id segment (`id`) of compat routes. */
  pathParams: Record<string, string>;
  format: Format;
  /** The caller, when credentials were given and valid. */
  identity: Identity | undefined;
  /** The caller; throws 401 for an anonymous request. */
  user(): Identity;
  /** The API path as requested, without the leading slash (for compat error bodies). */
  requestPath: string;
}

export interface ApiRoute {
  /** Path relative to the API root, e.g. 'files' or 'ext/activity/:verb'. */
  path: string;
  /** Accepted methods; '*' accepts any. */
  methods: Method[] | '*';
  auth: AuthMode;
  /** Also accept a trailing '/<id>' segment (Twitter's statuses/show/123 form). */
  idParam?: boolean;
  /** Accepted format suffixes besides none (which means JSON). */
  formats?: Format[];
  /**
   * The GET answer depends only on the URL, the caller and the database, and the handler writes
   * nothing: repeated requests are answered from memory until the database changes (response-cache.ts).
   */
  cache?: boolean;
  /**
   * The OAuth 2 scope a bearer token needs for this route (Mastodon API, where every route declares
   * it): e.g. 'read:statuses', several of which any one will do, or 'none'.
   */
  scope?: string | readonly string[];
  handler: (req: ApiRequest) => unknown | Promise<unknown>;
}

/** What one API needs to render results and errors in its own shapes. */
export interface ApiDefinition {
  name: 'native' | 'compat' | 'mastodon';
  /** URL prefixes the routes are served under, e.g. ['/api/z/1.0']. */
  prefixes: string[];
  routes: ApiRoute[];
  defaultFormats: Format[];
  render(req: ApiRequest, route: ApiRoute, value: unknown): void;
  renderError(ctx: Context, error: HttpError, format: Format, requestPath: string): void;
  /** Recognises the caller when the API accepts other credentials than the hub's authenticators. */
  authenticate?(ctx: Context): Promise<Identity | null | undefined>;
  /** Checks run once the caller is known, before the handler (scopes of a token). */
  admit?(req: ApiRequest, route: ApiRoute): void;
  /** Reads the request's parameters when the API takes more than query and forms (JSON bodies). */
  params?(ctx: Context): ParamReader;
}

export function allowedMethods(route: ApiRoute): string[] {
  return route.methods === '*' ? ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] : route.methods.includes('GET') ? [...route.methods, 'HEAD'] : [...route.methods];
}

function formatOf(ctx: Context, api: ApiDefinition, route: ApiRoute | undefined): Format {
  const f = (ctx.params as Record<string, string> | undefined)?.format?.toLowerCase();
  if (!f) return 'json';
  const allowed = route?.formats ?? api.defaultFormats;
  return (allowed as string[]).includes(f) ? (f as Format) : f === 'xml' ? 'xml' : 'json';
}

function requestPathOf(ctx: Context): string {
  return ctx.originalUrl.replace(/^\/+/, '');
}

async function authenticateCaller(ctx: Context, hub: Hub, api: ApiDefinition): Promise<Identity | null | undefined> {
  return api.authenticate ? api.authenticate(ctx) : authenticate(ctx, hub.authenticators);
}

/**
 * For a route that needs a user, refuses an anonymous request with a body as soon as its headers are
 * read, before anything of the body is written to disk. A multipart body cannot carry credentials
 * (OAuth signs only urlencoded bodies), so its caller is authenticated here and then reused; an
 * urlencoded body may carry OAuth parameters and is read (in memory, within the form limit) first.
 */
async function authenticateBeforeBody(ctx: Context, hub: Hub, api: ApiDefinition, route: ApiRoute): Promise<Identity | undefined> {
  if (route.auth === 'none' || !hasBody(ctx)) return undefined;
  const refuse = () => (route.auth === 'user403' ? refusedBeforeBody(403, 'This API requires login') : refusedBeforeBody(401, 'This API requires login', unauthorized().headers));
  if (isMultipart(ctx)) {
    const identity = await authenticateCaller(ctx, hub, api);
    if (!identity) throw refuse();
    allowLongBody(ctx);
    return identity;
  }
  if (ctx.request.is('application/x-www-form-urlencoded')) return undefined;
  const mayCarryCredentials = Boolean(ctx.get('authorization') || ctx.cookies.get(SESSION_COOKIE) || /(^|&)oauth_/.test(ctx.querystring));
  if (!mayCarryCredentials) throw refuse();
  return undefined;
}

async function runRoute(ctx: Context, api: ApiDefinition, route: ApiRoute): Promise<void> {
  const requestPath = requestPathOf(ctx);
  let format: Format = 'json';
  try {
    const suffix = (ctx.params as Record<string, string>).format?.toLowerCase();
    format = formatOf(ctx, api, route);
    if (suffix && !(route.formats ?? api.defaultFormats).includes(suffix as Format)) throw notFound(`unsupported format: .${suffix}`);
    const hub = ctx.hub;
    const early = await authenticateBeforeBody(ctx, hub, api, route);
    await hub.parseBody(ctx, () => handle(ctx, api, route, format, requestPath, early));
  } catch (err) {
    const { error, internal } = toHttpError(err);
    if (internal) ctx.hub.log.error(`${ctx.method} ${ctx.path}:`, err);
    // The error's headers first: an API's own rendering may replace them (Mastodon's Bearer challenge).
    for (const [k, v] of Object.entries(error.headers)) ctx.set(k, v);
    api.renderError(ctx, error, format, requestPath);
  }
}

async function handle(ctx: Context, api: ApiDefinition, route: ApiRoute, format: Format, requestPath: string, early: Identity | undefined): Promise<void> {
  const hub = ctx.hub;
  const params = api.params ? api.params(ctx) : paramReader(ctx);
  let identity = early ?? (await authenticateCaller(ctx, hub, api)) ?? undefined;
  if (identity) identity = switchChannel(hub.db, identity, params.str('channel'));
  if (!identity && route.auth !== 'none') {
    if (route.auth === 'user403') throw new HttpError(403, 'This API requires login');
    throw unauthorized();
  }
  const { format: _f, ...pathParams } = (ctx.params ?? {}) as Record<string, string>;
  const req: ApiRequest = {
    ctx,
    hub,
    params,
    pathParams,
    format,
    identity,
    requestPath,
    user() {
      if (!identity) throw unauthorized();
      return identity;
    },
  };
  api.admit?.(req, route);
  const cache = route.cache && (ctx.method === 'GET' || ctx.method === 'HEAD') ? responseCache(hub.db) : undefined;
  const cacheKey = `${identity?.channel.channel_id ?? 0} ${ctx.originalUrl}`;
  const generation = cache ? requestGeneration(ctx) : '';
  const cached = cache?.lookup(cacheKey, generation);
  if (cached?.hit) {
    ctx.status = 200;
    ctx.set('Content-Type', cached.hit.type);
    ctx.body = cached.hit.body;
    return;
  }
  const value = await route.handler(req);
  api.render(req, route, value);
  if (cache && cached?.admit && ctx.status === 200 && (typeof ctx.body === 'string' || Buffer.isBuffer(ctx.body))) {
    const body = typeof ctx.body === 'string' ? Buffer.from(ctx.body) : keepableBody(ctx.body);
    ctx.body = body;
    cache.set(cacheKey, generation, ctx.response.get('Content-Type'), body);
  }
}

type RouteRunner = (ctx: Context) => Promise<void>;

function routeRunner(api: ApiDefinition, route: ApiRoute): RouteRunner {
  const allow = allowedMethods(route);
  return async (ctx: Context) => {
    if (route.methods === '*' || allow.includes(ctx.method)) return runRoute(ctx, api, route);
    const requestPath = requestPathOf(ctx);
    const error = methodNotAllowed(allow);
    api.renderError(ctx, error, formatOf(ctx, api, route), requestPath);
    ctx.set('Allow', allow.join(', '));
  };
}

/**
 * Registers the APIs' route tables on the router (each route's methods run it, any other method
 * gets 405), and returns a middleware to put before the router that finds the route of a plain
 * path (`/api/statuses/home_timeline.json`) in a map. The router tests every layer's pattern on
 * every request, about two hundred of them; paths with an id segment, a placeholder, a trailing
 * slash or escapes still go to it. A path is only mapped when no earlier layer could match it too,
 * so both ways pick the same route.
 */
export function mountApis(router: Router, apis: ApiDefinition[]): Middleware {
  const plain = new Map<string, RouteRunner>();
  // Paths of the layers registered so far that also match one more segment (an id or a placeholder).
  const takesSegment: string[] = [];
  for (const api of apis) {
    for (const prefix of api.prefixes) {
      for (const route of api.routes) {
        const run = routeRunner(api, route);
        router.all(`${prefix}/${route.path}${route.idParam ? '{/:id}' : ''}{.:format}`, run);
        const full = `${prefix}/${route.path}`.toLowerCase();
        const placeholder = full.indexOf('/:');
        if (placeholder >= 0) {
          takesSegment.push(full.slice(0, placeholder));
          continue;
        }
        const shadowed = takesSegment.some((base) => full.startsWith(`${base}/`) && !full.slice(base.length + 1).includes('/'));
        if (!shadowed && !plain.has(full)) plain.set(full, run);
        if (route.idParam) takesSegment.push(full);
      }
    }
  }
  return (ctx, next) => {
    const path = ctx.path;
    if (!PLAIN_PATH.test(path)) return next();
    const dot = path.indexOf('.', path.lastIndexOf('/'));
    const run = plain.get((dot < 0 ? path : path.slice(0, dot)).toLowerCase());
    if (!run) return next();
    ctx.params = dot < 0 ? {} : { format: path.slice(dot + 1) };
    return run(ctx);
  };
}

/** Letters, digits, '_', '-', '/' and dots, at most one dot in the last segment, ending in a letter or digit. */
const PLAIN_PATH = /^\/api(?:\/[\w.-]+)*\/[\w-]+(?:\.[A-Za-z0-9]+)?$/;

/**
 * For paths under an API's prefix: errors raised before a route ran (the body parser's 413, say)
 * in the API's own error shape, and 404 for any path that no route matched.
 */
export function apiFallback(apis: ApiDefinition[]) {
  const ordered = apis.flatMap((api) => api.prefixes.map((prefix) => ({ api, prefix }))).sort((a, b) => b.prefix.length - a.prefix.length);
  return async (ctx: Context, next: Next) => {
    const match = ordered.find(({ prefix }) => ctx.path === prefix || ctx.path.startsWith(`${prefix}/`));
    if (!match) return next();
    const format: Format = /\.xml$/i.test(ctx.path) ? 'xml' : 'json';
    try {
      await next();
    } catch (err) {
      const { error, internal } = toHttpError(err);
      if (internal) ctx.hub.log.error(`${ctx.method} ${ctx.path}:`, err);
      for (const [k, v] of Object.entries(error.headers)) ctx.set(k, v);
      match.api.renderError(ctx, error, format, requestPathOf(ctx));
      return;
    }
    if (ctx.status === 404 && ctx.body === undefined) {
      match.api.renderError(ctx, notFound(`not implemented: ${ctx.path}`), format, requestPathOf(ctx));
    }
  };
}
