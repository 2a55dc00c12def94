import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import type { TestHub } from './hub.js';
import { hiddenField, type WebSession } from './web-session.js';

export interface OAuthApp {
  key: string;
  secret: string;
}

export interface OAuthToken {
  key: string;
  secret: string;
}

export type Placement = 'header' | 'query' | 'body';

export interface SignedRequest {
  method?: string;
  token?: OAuthToken;
  /** Ordinary parameters (query for GET, urlencoded body otherwise). */
  data?: Record<string, string>;
  /** Extra oauth_* parameters such as oauth_callback or oauth_verifier. */
  oauth?: Record<string, string>;
  place?: Placement;
  nonce?: string;
  timestamp?: number;
  /** Sign with this consumer secret instead of the app's (to forge a wrong signature). */
  consumerSecret?: string;
  /** Sign for this URL instead of the one requested. */
  signedUrl?: string;
  /** Request this URL instead of the hub's base URL + path. */
  requestUrl?: string;
}

const hmac = (base: string, key: string) => createHmac('sha1', key).update(base).digest('base64');

const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Sends an OAuth 1.0a HMAC-SHA1 signed request, with the oauth parameters where asked. */
export function signedFetch(t: TestHub, app: OAuthApp, path: string, r: SignedRequest = {}): Promise<Response> {
  const place = r.place ?? 'header';
  const method = r.method ?? (place === 'body' ? 'POST' : 'GET');
  const url = r.requestUrl ?? t.url + path;
  const oauth: Record<string, string> = {
    oauth_consumer_key: app.key,
    oauth_nonce: r.nonce ?? randomUUID().replace(/-/g, ''),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(r.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
    ...r.oauth,
  };
  if (r.token) oauth.oauth_token = r.token.key;
  const data = r.data ?? {};
  const signer = new OAuth({ consumer: { key: app.key, secret: r.consumerSecret ?? app.secret }, signature_method: 'HMAC-SHA1', hash_function: hmac });
  oauth.oauth_signature = signer.getSignature({ url: r.signedUrl ?? url, method, data: { ...data } }, r.token?.secret, { ...oauth } as unknown as OAuth.Data);

  const headers: Record<string, string> = {};
  let query = new URLSearchParams();
  let body: URLSearchParams | undefined;
  const params = place === 'header' ? data : { ...data, ...oauth };
  if (place === 'header') headers.authorization = 'OAuth ' + Object.entries(oauth).map(([k, v]) => `${encode(k)}="${encode(v)}"`).join(', ');
  if (method === 'GET' || method === 'HEAD' || place === 'query') query = new URLSearchParams(params);
  else body = new URLSearchParams(params);
  const qs = query.toString();
  return fetch(qs ? `${url}?${qs}` : url, { method, headers, body, redirect: 'manual' });
}

/** Parses a form-encoded token answer. */
export async function formBody(res: Response): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(await res.text()));
}

/** The session's CSRF token, as the UI gets it. */
export async function sessionCsrf(s: WebSession): Promise<string> {
  return ((await (await s.get('/session')).json()) as { csrf: string }).csrf;
}

/** A change on the apps page (/settings/oauth/), as the UI makes it: a form post with the session's CSRF token. */
export async function appsPagePost(s: WebSession, path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return s.post(`/settings/oauth/${path}`, fields, { accept: 'application/json', 'x-csrf-token': await sessionCsrf(s), ...headers });
}

/** Registers an app on the apps page (/settings/oauth/); answers its key and secret. */
export async function registerApp(s: WebSession, fields: { name: string; key?: string; secret?: string; redirect?: string; icon?: string }): Promise<OAuthApp> {
  const res = await appsPagePost(s, 'apps', { name: fields.name, key: fields.key ?? '', secret: fields.secret ?? '', redirect: fields.redirect ?? '', icon: fields.icon ?? '' });
  const text = await res.text();
  assert.equal(res.status, 201, text);
  const { app } = JSON.parse(text) as { app: { client_id: string; secret: string } };
  return { key: app.client_id, secret: app.secret };
}

/** The owner approves a request token on the authorize page; returns the redirect (or the page). */
export async function approve(s: WebSession, token: string, path = '/api/oauth/authorize'): Promise<Response> {
  const page = await s.get(`${path}?oauth_token=${encodeURIComponent(token)}`);
  const html = await page.text();
  assert.equal(page.status, 200, html);
  return s.post(path, { oauth_token: hiddenField(html, 'oauth_token'), csrf: hiddenField(html, 'csrf'), oauth_yes: 'Yes' });
}

/** The full three-legged dance with a callback app; returns the access token. */
export async function obtainAccessToken(t: TestHub, s: WebSession, app: OAuthApp): Promise<OAuthToken> {
  const rt = await formBody(await signedFetch(t, app, '/api/oauth/request_token', { method: 'POST' }));
  const res = await approve(s, rt.oauth_token!);
  const location = new URL(res.headers.get('location')!);
  const at = await formBody(
    await signedFetch(t, app, '/api/oauth/access_token', { method: 'POST', token: { key: rt.oauth_token!, secret: rt.oauth_token_secret! }, oauth: { oauth_verifier: location.searchParams.get('oauth_verifier')! } }),
  );
  assert.ok(at.oauth_token && at.oauth_token_secret, 'access token issued');
  return { key: at.oauth_token, secret: at.oauth_token_secret };
}
