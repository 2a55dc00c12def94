import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { startHub, PASSWORD, type TestHub } from '../helpers/hub.js';
import { webLogin, hiddenField, type WebSession } from '../helpers/web-session.js';
import { OOB } from '../helpers/mastodon.js';

// The discovery documents a client reads before it logs in: OAuth 2 server metadata (RFC 8414), from
// which a web client learns that PKCE is there and where to go, and host-meta (RFC 6415).

let t: TestHub;
let alice: WebSession;

before(async () => {
  t = await startHub({ channels: ['alice'] });
  alice = await webLogin(t, 'alice');
});
after(() => t.stop());

interface Metadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
  app_registration_endpoint: string;
  scopes_supported: string[];
  response_types_supported: string[];
  grant_types_supported: string[];
  code_challenge_methods_supported: string[];
  token_endpoint_auth_methods_supported: string[];
}

async function metadata(): Promise<Metadata> {
  const res = await fetch(`${t.url}/.well-known/oauth-authorization-server`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  return (await res.json()) as Metadata;
}

test('the OAuth server metadata names the endpoints, and what it lists is what the hub does', async () => {
  const m = await metadata();
  assert.equal(m.issuer, `${t.url}/`);
  assert.equal(m.authorization_endpoint, `${t.url}/oauth/authorize`);
  assert.equal(m.token_endpoint, `${t.url}/oauth/token`);
  assert.equal(m.revocation_endpoint, `${t.url}/oauth/revoke`);
  assert.equal(m.app_registration_endpoint, `${t.url}/api/v1/apps`);
  assert.deepEqual(m.response_types_supported, ['code']);
  assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
  assert.deepEqual([...m.grant_types_supported].sort(), ['authorization_code', 'client_credentials', 'password']);
  assert.deepEqual([...m.token_endpoint_auth_methods_supported].sort(), ['client_secret_basic', 'client_secret_post', 'none']);
  for (const s of ['read', 'write', 'follow', 'push', 'profile', 'read:statuses', 'write:media', 'read:notifications']) assert.ok(m.scopes_supported.includes(s), s);

  // Every listed scope can be asked for: an app registers with all of them.
  const all = await fetch(m.app_registration_endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Everything', redirect_uris: OOB, scopes: m.scopes_supported.join(' ') }) });
  assert.equal(all.status, 200, await all.clone().text());
  const app = (await all.json()) as { client_id: string; client_secret: string };
  // And a scope it does not list cannot.
  const admin = await fetch(m.app_registration_endpoint, { method: 'POST', body: new URLSearchParams({ client_name: 'x', redirect_uris: OOB, scopes: 'admin:read' }) });
  assert.equal(admin.status, 400);
  assert.ok(!m.scopes_supported.some((s) => s.startsWith('admin')));

  // Each listed grant type is one the token endpoint knows (it may still refuse the request's contents); others are not.
  for (const grant of m.grant_types_supported) {
    const res = await fetch(m.token_endpoint, { method: 'POST', body: new URLSearchParams({ grant_type: grant, client_id: app.client_id, client_secret: app.client_secret, username: 'alice', password: PASSWORD, code: 'x', redirect_uri: OOB }) });
    const body = (await res.json()) as { error?: string };
    assert.notEqual(body.error, 'unsupported_grant_type', grant);
  }
  const refresh = await fetch(m.token_endpoint, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', client_id: app.client_id, client_secret: app.client_secret, refresh_token: 'x' }) });
  assert.equal(((await refresh.json()) as { error: string }).error, 'unsupported_grant_type');
});

test('a public web client logs in with only what the metadata tells it: registration, PKCE S256 without a secret, revocation', async () => {
  const m = await metadata();
  const reg = await fetch(m.app_registration_endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Web client', redirect_uris: 'https://web.example/cb', scopes: 'read write' }) });
  assert.equal(reg.status, 200);
  const app = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const method = m.code_challenge_methods_supported[0]!;
  const authorize = new URL(m.authorization_endpoint);
  for (const [k, v] of Object.entries({ response_type: m.response_types_supported[0]!, client_id: app.client_id, redirect_uri: 'https://web.example/cb', scope: 'read write', state: 's1', code_challenge: challenge, code_challenge_method: method })) authorize.searchParams.set(k, v);

  // The owner approves on that page, in the browser.
  const page = await fetch(authorize, { headers: { cookie: alice.cookie }, redirect: 'manual' });
  const html = await page.text();
  assert.equal(page.status, 200, html.slice(0, 300));
  const fields: Record<string, string> = { channel: 'alice', approve: '1' };
  for (const f of ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'csrf']) fields[f] = hiddenField(html, f);
  const approved = await alice.post(new URL(m.authorization_endpoint).pathname, fields, { origin: t.url });
  assert.equal(approved.status, 302);
  const back = new URL(approved.headers.get('location')!);
  assert.equal(back.origin + back.pathname, 'https://web.example/cb');
  assert.equal(back.searchParams.get('state'), 's1');

  // A public client: no secret, the verifier proves it ('none' in the metadata).
  assert.ok(m.token_endpoint_auth_methods_supported.includes('none'));
  const exchange = { grant_type: 'authorization_code', client_id: app.client_id, code: back.searchParams.get('code')!, redirect_uri: 'https://web.example/cb' };
  const token = await fetch(m.token_endpoint, { method: 'POST', body: new URLSearchParams({ ...exchange, code_verifier: verifier }) });
  assert.equal(token.status, 200, await token.clone().text());
  const { access_token } = (await token.json()) as { access_token: string };
  const me = await fetch(`${t.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${access_token}` } });
  assert.equal(((await me.json()) as { acct: string }).acct, 'alice');

  const revoked = await fetch(m.revocation_endpoint, { method: 'POST', body: new URLSearchParams({ client_id: app.client_id, token: access_token }) });
  assert.equal(revoked.status, 200);
  assert.equal((await fetch(`${t.url}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${access_token}` } })).status, 401);
});

test('host-meta names the WebFinger template, as XRD and as JSON', async () => {
  const template = `${t.url}/.well-known/webfinger?resource={uri}`;
  const xrd = await fetch(`${t.url}/.well-known/host-meta`);
  assert.equal(xrd.status, 200);
  assert.match(xrd.headers.get('content-type') ?? '', /^application\/xrd\+xml/);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(await xrd.text());
  assert.equal(doc.XRD['@xmlns'], 'http://docs.oasis-open.org/ns/xri/xrd-1.0');
  assert.equal(doc.XRD.Link['@rel'], 'lrdd');
  assert.equal(doc.XRD.Link['@template'], template);
  const json = await fetch(`${t.url}/.well-known/host-meta.json`);
  assert.equal(json.status, 200);
  assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(await json.json(), { links: [{ rel: 'lrdd', template }] });
});
