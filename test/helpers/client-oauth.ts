import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import type { ClientHub } from './client-hub.js';
import { send } from './browser.js';

const hmac = (base: string, key: string) => createHmac('sha1', key).update(base).digest('base64');

/** POSTs an OAuth 1.0a signed request (Authorization header) to the hub's public base URL; answers the form fields. */
async function signedPost(h: ClientHub, app: { key: string; secret: string }, path: string, token?: { key: string; secret: string }, extra: Record<string, string> = {}) {
  const url = `${h.base}${path}`;
  const signer = new OAuth({ consumer: { key: app.key, secret: app.secret }, signature_method: 'HMAC-SHA1', hash_function: hmac });
  const auth = signer.authorize({ url, method: 'POST', data: extra }, token);
  const res = await send(url, {
    method: 'POST',
    headers: { ...signer.toHeader(auth), 'content-type': 'application/x-www-form-urlencoded' },
    // oauth-1.0a puts oauth_* parameters into the header itself; the others go in the body.
    body: new URLSearchParams(Object.entries(extra).filter(([k]) => !k.startsWith('oauth_'))).toString(),
    ca: h.cert?.cert,
  });
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return Object.fromEntries(new URLSearchParams(res.text));
}

/** The three-legged dance a client without one of its own goes through, approved by alice in her browser. */
export async function obtainAccessTokenAt(h: ClientHub, app: { key: string; secret: string }): Promise<{ key: string; secret: string; screen_name?: string }> {
  const request = await signedPost(h, app, '/api/oauth/request_token', undefined, { oauth_callback: 'https://client.example/npm' });
  const answer = await h.browser.approve(`${h.base}/api/oauth/authorize?oauth_token=${request.oauth_token}`);
  assert.ok('redirect' in answer, 'redirected to the callback');
  const verifier = new URL(answer.redirect).searchParams.get('oauth_verifier')!;
  const access = await signedPost(h, app, '/api/oauth/access_token', { key: request.oauth_token!, secret: request.oauth_token_secret! }, { oauth_verifier: verifier });
  return { key: access.oauth_token!, secret: access.oauth_token_secret!, screen_name: access.screen_name };
}
