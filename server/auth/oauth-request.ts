import type { Context } from 'koa';

/** The OAuth 1.0a parts of an HTTP request, wherever the client put them. */
export interface OAuthRequest {
  method: string;
  /** Base string URL: the hub's configured base URL plus the request path, without query. */
  url: string;
  /** Other URLs a known client signs for this same request (see clientQuirkUrls). */
  altUrls: string[];
  /** oauth_* values (header wins over body wins over query), without realm. */
  oauth: Record<string, string>;
  /** Every parameter that enters the signature base string (oauth_signature excluded). */
  signed: [string, string][];
  /** The Authorization header said OAuth but could not be parsed. */
  malformed: boolean;
}

/** Parses `Authorization: OAuth k="v", ...`; undefined when the header is another scheme or malformed. */
export function parseOAuthHeader(header: string): [string, string][] | undefined {
  const m = /^OAuth\s+(.*)$/is.exec(header.trim());
  if (!m) return undefined;
  const out: [string, string][] = [];
  const re = /\s*([^=,\s]+)\s*=\s*"([^"]*)"\s*(?:,|$)/y;
  const rest = m[1]!;
  let pos = 0;
  while (pos < rest.length) {
    re.lastIndex = pos;
    const p = re.exec(rest);
    if (!p) return undefined;
    try {
      out.push([decodeURIComponent(p[1]!), decodeURIComponent(p[2]!)]);
    } catch {
      return undefined;
    }
    pos = re.lastIndex;
  }
  return out;
}

/**
 * bti builds its token URLs as <host>/../oauth/…, with host usually …/api/statuses, and signs that
 * text, while curl sends the normalised path. Accept the signature over the form it signed.
 */
function clientQuirkUrls(url: string): string[] {
  const m = /^(.*)\/oauth\/(request_token|access_token)(\.[a-z]+)?$/i.exec(url);
  return m ? [`${m[1]}/statuses/../oauth/${m[2]}${m[3] ?? ''}`] : [];
}

function formPairs(text: string): [string, string][] {
  return [...new URLSearchParams(text)];
}

function isUrlencoded(ctx: Context): boolean {
  return ctx.request.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
}

/**
 * Collects the OAuth parameters of a request from the Authorization header, the query string and
 * an urlencoded body. Returns undefined when the request carries no OAuth parameters at all.
 * The body is read from the raw text the body parser kept, so that names like `a[]` are signed
 * as the client sent them.
 */
export function readOAuthRequest(ctx: Context, baseUrl: string): OAuthRequest | undefined {
  const header = ctx.get('authorization');
  const isOAuthHeader = /^OAuth\b/i.test(header.trim());
  const parsedHeader = isOAuthHeader ? parseOAuthHeader(header) : [];
  const headerPairs = parsedHeader ?? [];
  const queryPairs = formPairs(ctx.querystring);
  const raw = (ctx.request as { rawBody?: unknown }).rawBody;
  const bodyPairs = isUrlencoded(ctx) && typeof raw === 'string' ? formPairs(raw) : [];

  const oauth: Record<string, string> = {};
  for (const pairs of [queryPairs, bodyPairs, headerPairs.filter(([k]) => k !== 'realm')]) {
    for (const [k, v] of pairs) if (k.startsWith('oauth_')) oauth[k] = v;
  }
  if (!isOAuthHeader && oauth.oauth_consumer_key === undefined && oauth.oauth_signature === undefined) return undefined;
  const signed = [...queryPairs, ...bodyPairs, ...headerPairs.filter(([k]) => k.startsWith('oauth_'))].filter(([k]) => k !== 'oauth_signature');
  const base = baseUrl.replace(/\/+$/, '');
  const url = base + ctx.path;
  // A client that sent repeated slashes (mergeSlashes) signed the path as it sent it.
  const sentPath = ctx.originalUrl.replace(/[?#].*$/s, '');
  const altUrls = [...clientQuirkUrls(url), ...(sentPath.startsWith('/') && sentPath !== ctx.path ? [base + sentPath] : [])];
  return { method: ctx.method.toUpperCase(), url, altUrls, oauth, signed, malformed: parsedHeader === undefined };
}
