import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { TestHub } from './hub.js';
import { hiddenField, type WebSession } from './web-session.js';

export const OOB = 'urn:ietf:wg:oauth:2.0:oob';

export interface MastodonApp {
  client_id: string;
  client_secret: string;
}

export async function registerMastodonApp(t: TestHub, opts: { scopes?: string; redirect?: string; name?: string } = {}): Promise<MastodonApp> {
  const res = await fetch(`${t.url}/api/v1/apps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: opts.name ?? 'Test app', redirect_uris: opts.redirect ?? OOB, scopes: opts.scopes ?? 'read write follow push', website: 'https://app.example' }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as MastodonApp;
}

/** Approves the app on the authorize page as the logged-in owner would; returns the code. */
export async function approveOnPage(session: WebSession, app: MastodonApp, opts: { channel: string; scope?: string; redirect?: string; challenge?: string; method?: string }): Promise<string> {
  const q = new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: opts.redirect ?? OOB, scope: opts.scope ?? 'read write follow push' });
  if (opts.challenge) q.set('code_challenge', opts.challenge);
  if (opts.method) q.set('code_challenge_method', opts.method);
  const page = await session.get(`/oauth/authorize?${q}`);
  const html = await page.text();
  assert.equal(page.status, 200, html);
  const fields: Record<string, string> = { channel: opts.channel, approve: '1' };
  for (const f of ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'csrf']) fields[f] = hiddenField(html, f);
  const res = await session.post('/oauth/authorize', fields);
  if (res.status === 302) return new URL(res.headers.get('location')!).searchParams.get('code')!;
  const body = await res.text();
  assert.equal(res.status, 200, body);
  const m = /id="authorization_code"[^>]*>([^<]+)</.exec(body);
  assert.ok(m, 'the page shows the code');
  return m[1]!;
}

export async function tokenRequest(t: TestHub, fields: Record<string, string>): Promise<Response> {
  return fetch(`${t.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
}

/** A bearer token for `channel`, approved on the page (PKCE S256). */
export async function mastodonToken(t: TestHub, session: WebSession, opts: { channel: string; scope?: string; app?: MastodonApp }): Promise<string> {
  const app = opts.app ?? (await registerMastodonApp(t));
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const code = await approveOnPage(session, app, { channel: opts.channel, scope: opts.scope, challenge, method: 'S256' });
  const res = await tokenRequest(t, { grant_type: 'authorization_code', client_id: app.client_id, code, redirect_uri: OOB, code_verifier: verifier });
  const body = await res.text();
  assert.equal(res.status, 200, body);
  return (JSON.parse(body) as { access_token: string }).access_token;
}

/** fetch() with the bearer token; JSON bodies for plain objects. */
export function bearerFetch(t: TestHub, token: string) {
  return (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set('authorization', `Bearer ${token}`);
    if (json !== undefined) headers.set('content-type', 'application/json');
    return fetch(t.url + path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
  };
}
