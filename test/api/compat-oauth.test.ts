import { test, before, after } from 'node:test';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { hiddenField, webLogin, type WebSession } from '../helpers/web-session.js';
import { appsPagePost, approve, formBody, obtainAccessToken, registerApp, signedFetch, type OAuthApp } from '../helpers/oauth-client.js';

let t: TestHub;
let alice: WebSession;
let app: OAuthApp;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  alice = await webLogin(t, 'alice');
  app = await registerApp(alice, { name: 'Test client', key: 'testkey', secret: 'testsecret', redirect: 'https://app.example/cb' });
});
after(() => t.stop());

const WHOAMI = '/api/ext/profile/show.json';
/** Answers 401 (not 403) for refused credentials. */
const NOTES = '/api/ext/notifications.json';

async function whoami(res: Response): Promise<string> {
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text).friendica_owner.screen_name;
}

interface AppAccess {
  apps: { client_id: string; name: string; redirect_uri: string; secret: string }[];
  grants: { kind: string; id: string; app: string; channel: string }[];
}

async function appAccess(): Promise<AppAccess> {
  const res = await alice.get('/settings/oauth/access');
  assert.equal(res.status, 200);
  return (await res.json()) as AppAccess;
}

test('the apps page is part of the UI; what it lists needs a session', async () => {
  const page = await fetch(`${t.url}/settings/oauth/`, { headers: { accept: 'text/html' } });
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<div id="root">/, 'the app, which asks to log in first');
  const anon = await fetch(`${t.url}/settings/oauth/access`, { headers: { accept: 'application/json' } });
  assert.equal(anon.status, 401);
  const listed = await appAccess();
  const client = listed.apps.find((a) => a.name === 'Test client');
  assert.equal(client?.client_id, 'testkey');
  assert.equal(client?.redirect_uri, 'https://app.example/cb');
});

test('changes on the apps page refuse cross-site posts and posts without the CSRF token', async () => {
  const foreign = await appsPagePost(alice, 'apps', { name: 'Evil' }, { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  const noToken = await alice.post('/settings/oauth/apps', { name: 'Evil' }, { accept: 'application/json', 'x-csrf-token': 'wrong' });
  assert.equal(noToken.status, 403);
  const anon = await fetch(`${t.url}/settings/oauth/apps`, { method: 'POST', headers: { accept: 'application/json' }, body: new URLSearchParams({ name: 'Evil' }) });
  assert.equal(anon.status, 401);
  assert.ok(!(await appAccess()).apps.some((a) => a.name === 'Evil'));
});

test('an app gets a generated key and secret when left empty; bad input is refused', async () => {
  const generated = await registerApp(alice, { name: 'Generated' });
  assert.match(generated.key, /^[0-9a-f]{32}$/);
  assert.match(generated.secret, /^[0-9a-f]{32}$/);
  for (const fields of [{ name: '' }, { name: 'Dup', key: 'testkey' }, { name: 'Bad', redirect: 'javascript:alert(1)' }, { name: 'Bad', icon: 'ftp://x/y.png' }]) {
    const res = await appsPagePost(alice, 'apps', { key: '', secret: '', redirect: '', icon: '', ...fields });
    assert.equal(res.status, 400, JSON.stringify(fields));
    assert.equal(typeof ((await res.json()) as { message: string }).message, 'string');
  }
});

test('three-legged dance with the parameters in the Authorization header', async () => {
  const rt = await signedFetch(t, app, '/api/oauth/request_token', { method: 'POST', oauth: { oauth_callback: 'https://app.example/cb?x=1' } });
  assert.equal(rt.status, 200);
  assert.match(rt.headers.get('content-type')!, /application\/x-www-form-urlencoded/);
  const request = await formBody(rt);
  assert.match(request.oauth_token!, /^[0-9a-f]{32}$/);
  assert.match(request.oauth_token_secret!, /^[0-9a-f]{32}$/);
  assert.equal(request.oauth_callback_confirmed, 'true');

  // Not logged in: the authorize page sends the browser to the login page and back.
  const anon = await fetch(`${t.url}/api/oauth/authorize?oauth_token=${request.oauth_token}`, { redirect: 'manual' });
  assert.equal(anon.status, 302);
  assert.equal(anon.headers.get('location'), `/login?return=${encodeURIComponent(`/api/oauth/authorize?oauth_token=${request.oauth_token}`)}`);

  const page = await (await alice.get(`/api/oauth/authorize?oauth_token=${request.oauth_token}`)).text();
  assert.match(page, /Test client/);
  assert.match(page, /name="oauth_yes"/);

  const approved = await approve(alice, request.oauth_token!);
  assert.equal(approved.status, 302);
  const callback = new URL(approved.headers.get('location')!);
  assert.equal(callback.origin + callback.pathname, 'https://app.example/cb');
  assert.equal(callback.searchParams.get('x'), '1');
  assert.equal(callback.searchParams.get('oauth_token'), request.oauth_token);
  const verifier = callback.searchParams.get('oauth_verifier')!;
  assert.ok(verifier);

  const requestToken = { key: request.oauth_token!, secret: request.oauth_token_secret! };
  const at = await signedFetch(t, app, '/api/oauth/access_token', { method: 'POST', token: requestToken, oauth: { oauth_verifier: verifier } });
  assert.equal(at.status, 200);
  const access = await formBody(at);
  assert.match(access.oauth_token!, /^[0-9a-f]{32}$/);
  const token = { key: access.oauth_token!, secret: access.oauth_token_secret! };
  assert.equal(await whoami(await signedFetch(t, app, WHOAMI, { token })), 'alice');

  // The request token is spent.
  const again = await signedFetch(t, app, '/api/oauth/access_token', { method: 'POST', token: requestToken, oauth: { oauth_verifier: verifier } });
  assert.equal(again.status, 401);
  assert.match((await formBody(again)).error!, /Invalid request token/);
});

test('out-of-band approval shows the verifier; parameters in the query string', async () => {
  const oob = await registerApp(alice, { name: 'Desktop client' });
  const request = await formBody(await signedFetch(t, oob, '/api/oauth/request_token', { place: 'query', oauth: { oauth_callback: 'oob' } }));
  const res = await approve(alice, request.oauth_token!, '/oauth/authorize');
  assert.equal(res.status, 200);
  const verifier = /id="oauth_verifier"[^>]*>(\d{7})</.exec(await res.text())?.[1];
  assert.ok(verifier, 'the page shows the verifier');
  const access = await formBody(
    await signedFetch(t, oob, '/api/oauth/access_token', { place: 'query', token: { key: request.oauth_token!, secret: request.oauth_token_secret! }, oauth: { oauth_verifier: verifier } }),
  );
  assert.ok(access.oauth_token);
  assert.equal(await whoami(await signedFetch(t, oob, WHOAMI, { place: 'query', token: { key: access.oauth_token!, secret: access.oauth_token_secret! } })), 'alice');
});

test('signed API requests are accepted from the header, the query and an urlencoded body', async () => {
  const token = await obtainAccessToken(t, alice, app);
  assert.equal(await whoami(await signedFetch(t, app, WHOAMI, { token, place: 'header', data: { profile_id: '' } })), 'alice');
  assert.equal(await whoami(await signedFetch(t, app, WHOAMI, { token, place: 'query', data: { 'a[]': 'x y', b: 'é&=' } })), 'alice');
  // A write endpoint with everything in the POST body.
  const seen = await signedFetch(t, app, '/api/ext/notifications/seen.json', { token, place: 'body', data: { id: 'all', 'list[]': 'a+b' } });
  assert.equal(seen.status, 200, await seen.clone().text());
  assert.equal(await seen.json(), 'success');
});

test('a reused nonce, an old timestamp, a wrong secret or a wrong token secret are refused', async () => {
  const token = await obtainAccessToken(t, alice, app);
  const first = await signedFetch(t, app, NOTES, { token, nonce: 'once-only' });
  assert.equal(first.status, 200);
  const replay = await signedFetch(t, app, NOTES, { token, nonce: 'once-only' });
  assert.equal(replay.status, 401);
  assert.equal(replay.headers.get('www-authenticate'), 'Basic realm="Hearth"');

  const old = await signedFetch(t, app, NOTES, { token, timestamp: Math.floor(Date.now() / 1000) - 3600 });
  assert.equal(old.status, 401);
  const future = await signedFetch(t, app, NOTES, { token, timestamp: Math.floor(Date.now() / 1000) + 3600 });
  assert.equal(future.status, 401);
  const wrongSecret = await signedFetch(t, app, NOTES, { token, consumerSecret: 'not the secret' });
  assert.equal(wrongSecret.status, 401);
  const wrongTokenSecret = await signedFetch(t, app, NOTES, { token: { key: token.key, secret: 'nope' } });
  assert.equal(wrongTokenSecret.status, 401);
  const unknownConsumer = await signedFetch(t, { key: 'nobody', secret: 'x' }, NOTES, { token });
  assert.equal(unknownConsumer.status, 401);
  const tampered = await signedFetch(t, app, '/api/ext/profile/show.json?profile_id=1', { token, signedUrl: `${t.url}/api/ext/profile/show.json` });
  assert.equal(tampered.status, 403, 'ext/profile/show answers 403 for refused credentials');

  // The token endpoints refuse the same way, with a form-encoded error.
  const oldRequest = await signedFetch(t, app, '/api/oauth/request_token', { timestamp: 1000 });
  assert.equal(oldRequest.status, 401);
  assert.match((await formBody(oldRequest)).error!, /Expired timestamp/);
  const nonce = 'request-nonce';
  assert.equal((await signedFetch(t, app, '/api/oauth/request_token', { nonce })).status, 200);
  const replayed = await signedFetch(t, app, '/api/oauth/request_token', { nonce });
  assert.equal(replayed.status, 401);
  assert.match((await formBody(replayed)).error!, /Nonce already used/);
  const badSig = await signedFetch(t, app, '/api/oauth/request_token', { consumerSecret: 'wrong' });
  assert.equal(badSig.status, 401);
  assert.equal((await formBody(badSig)).error, 'Invalid signature');
});

test('the signature base URL is the configured base URL, not the Host the client used', async () => {
  const token = await obtainAccessToken(t, alice, app);
  const viaLocalhost = t.url.replace('127.0.0.1', 'localhost');
  const path = '/api/ext/profile/show.json';
  const signedForHost = await signedFetch(t, app, path, { token, requestUrl: viaLocalhost + path });
  assert.equal(signedForHost.status, 403);
  const signedForBase = await signedFetch(t, app, path, { token, requestUrl: viaLocalhost + path, signedUrl: t.url + path });
  assert.equal(await whoami(signedForBase), 'alice');
});

test('revoking an access token on the apps page stops it at once; deleting the app too', async () => {
  const other = await registerApp(alice, { name: 'Short-lived', redirect: 'https://short.example/cb' });
  const token = await obtainAccessToken(t, alice, other);
  const second = await obtainAccessToken(t, alice, other);
  assert.equal(await whoami(await signedFetch(t, other, WHOAMI, { token })), 'alice');

  const grant = (await appAccess()).grants.find((g) => g.kind === 'oauth1' && g.id === token.key);
  assert.equal(grant?.app, 'Short-lived');
  assert.equal(grant?.channel, 'alice');
  const revoke = await appsPagePost(alice, 'grants/revoke', { kind: 'oauth1', id: token.key });
  assert.equal(revoke.status, 200);
  assert.equal((await signedFetch(t, other, WHOAMI, { token })).status, 403);
  assert.equal(await whoami(await signedFetch(t, other, WHOAMI, { token: second })), 'alice');

  // Bob's browser cannot revoke Alice's tokens… both channels share the account here, so use an unknown token.
  assert.equal((await appsPagePost(alice, 'grants/revoke', { kind: 'oauth1', id: 'f'.repeat(32) })).status, 404);
  assert.equal((await appsPagePost(alice, 'grants/revoke', { kind: 'unknown', id: second.key })).status, 404);

  const del = await appsPagePost(alice, 'apps/delete', { client_id: other.key });
  assert.equal(del.status, 200);
  assert.equal((await signedFetch(t, other, WHOAMI, { token: second })).status, 403);
  assert.ok(!(await appAccess()).apps.some((a) => a.name === 'Short-lived'));
  assert.equal((await appsPagePost(alice, 'apps/delete', { client_id: other.key })).status, 404);
});

test('a wrong or missing verifier gets no token and spends the request token', async () => {
  for (const oauth of [{ oauth_verifier: 'wrong' }, {}] as Record<string, string>[]) {
    const request = await formBody(await signedFetch(t, app, '/api/oauth/request_token'));
    const res = await approve(alice, request.oauth_token!);
    const verifier = new URL(res.headers.get('location')!).searchParams.get('oauth_verifier')!;
    const rt = { key: request.oauth_token!, secret: request.oauth_token_secret! };
    const bad = await signedFetch(t, app, '/api/oauth/access_token', { method: 'POST', token: rt, oauth });
    assert.ok(bad.status === 400 || bad.status === 401, String(bad.status));
    assert.ok((await formBody(bad)).error);
    const late = await signedFetch(t, app, '/api/oauth/access_token', { method: 'POST', token: rt, oauth: { oauth_verifier: verifier } });
    assert.equal(late.status, 401);
  }
});

test('an unapproved request token cannot be exchanged', async () => {
  const request = await formBody(await signedFetch(t, app, '/api/oauth/request_token'));
  const res = await signedFetch(t, app, '/api/oauth/access_token', { token: { key: request.oauth_token!, secret: request.oauth_token_secret! }, oauth: { oauth_verifier: 'x' } });
  assert.equal(res.status, 401);
});

test('the authorize page refuses unknown, expired and denied tokens', async () => {
  const unknown = await alice.get('/api/oauth/authorize?oauth_token=nope');
  assert.equal(unknown.status, 400);
  assert.match(await unknown.text(), /Unknown token/);

  const request = await formBody(await signedFetch(t, app, '/api/oauth/request_token'));
  t.hub.db.prepare("UPDATE oauth_token SET expires = '2000-01-01 00:00:00' WHERE token = ?").run(request.oauth_token);
  assert.equal((await alice.get(`/api/oauth/authorize?oauth_token=${request.oauth_token}`)).status, 400);

  const denied = await formBody(await signedFetch(t, app, '/api/oauth/request_token'));
  const page = await (await alice.get(`/api/oauth/authorize?oauth_token=${denied.oauth_token}`)).text();
  const no = await alice.post('/api/oauth/authorize', { oauth_token: denied.oauth_token!, csrf: hiddenField(page, 'csrf'), oauth_no: 'No' });
  assert.equal(no.status, 200);
  assert.match(await no.text(), /refused/);
  assert.equal((await alice.get(`/api/oauth/authorize?oauth_token=${denied.oauth_token}`)).status, 400);
});

test('approval needs the session CSRF token and a same-origin post', async () => {
  const request = await formBody(await signedFetch(t, app, '/api/oauth/request_token'));
  const csrf = hiddenField(await (await alice.get(`/api/oauth/authorize?oauth_token=${request.oauth_token}`)).text(), 'csrf');
  const forged = await alice.post('/api/oauth/authorize', { oauth_token: request.oauth_token!, csrf: 'guess', oauth_yes: 'Yes' });
  assert.equal(forged.status, 403);
  const foreign = await alice.post('/api/oauth/authorize', { oauth_token: request.oauth_token!, csrf, oauth_yes: 'Yes' }, { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  const anon = await fetch(`${t.url}/api/oauth/authorize`, { method: 'POST', body: new URLSearchParams({ oauth_token: request.oauth_token!, csrf, oauth_yes: 'Yes' }), redirect: 'manual' });
  assert.equal(anon.status, 403);
  // Still pending: nobody approved it.
  assert.equal((await alice.get(`/api/oauth/authorize?oauth_token=${request.oauth_token}`)).status, 200);
});

test('a callback to another site than the registered redirect is refused', async () => {
  const res = await signedFetch(t, app, '/api/oauth/request_token', { oauth: { oauth_callback: 'https://evil.example/steal' } });
  assert.equal(res.status, 401);
  assert.match((await formBody(res)).error!, /callback/);
  const bad = await signedFetch(t, app, '/api/oauth/request_token', { oauth: { oauth_callback: 'javascript:alert(1)' } });
  assert.equal(bad.status, 400);
});

test('token endpoints without a signature, or with an unknown consumer, are refused (also under api/1.1)', async () => {
  for (const path of ['/api/oauth/request_token', '/api/1.1/oauth/request_token.json', '/api/oauth/access_token']) {
    const res = await fetch(t.url + path, { method: 'POST' });
    assert.equal(res.status, 401, path);
    assert.ok((await formBody(res)).error, path);
  }
  const unknown = await signedFetch(t, { key: 'nobody', secret: 'x' }, '/api/1.1/oauth/request_token');
  assert.equal(unknown.status, 401);
  assert.equal((await formBody(unknown)).error, 'Invalid consumer');
  const plaintext = await fetch(`${t.url}/api/oauth/request_token`, { headers: { authorization: `OAuth oauth_consumer_key="testkey", oauth_signature_method="PLAINTEXT", oauth_signature="testsecret%26", oauth_timestamp="${Math.floor(Date.now() / 1000)}", oauth_nonce="n1"` } });
  assert.equal(plaintext.status, 400);
  const malformed = await fetch(`${t.url}/api/oauth/request_token`, { headers: { authorization: 'OAuth garbage' } });
  assert.equal(malformed.status, 400);
});

/** The `twitter` npm client (1.7.1), loaded as the CommonJS module it is. */
interface TwitterClient {
  get(path: string, params: Record<string, string>, cb: (err: unknown, data: unknown, res: { statusCode: number }) => void): void;
  post(path: string, params: Record<string, string>, cb: (err: unknown, data: unknown, res: { statusCode: number }) => void): void;
}
type TwitterCtor = new (opts: Record<string, string>) => TwitterClient;
const Twitter = createRequire(import.meta.url)('twitter') as TwitterCtor;

function call(client: TwitterClient, method: 'get' | 'post', path: string, params: Record<string, string> = {}): Promise<{ err: unknown; data: unknown; status: number }> {
  return new Promise((resolve) => client[method](path, params, (err, data, res) => resolve({ err, data, status: res?.statusCode ?? 0 })));
}

test('the twitter npm client completes the dance, then reads the home timeline and posts', async () => {
  const base = { consumer_key: app.key, consumer_secret: app.secret, rest_base: `${t.url}/api` };
  // The token endpoints answer form-encoded text, which this JSON client hands back raw with a parse error.
  const consumer = new Twitter({ ...base, access_token_key: '', access_token_secret: '' });
  const rt = await call(consumer, 'post', 'oauth/request_token', { oauth_callback: 'https://app.example/cb' });
  assert.equal(rt.status, 200, String(rt.data));
  const request = Object.fromEntries(new URLSearchParams(String(rt.data)));
  assert.ok(request.oauth_token, String(rt.data));

  const approved = await approve(alice, request.oauth_token!);
  const verifier = new URL(approved.headers.get('location')!).searchParams.get('oauth_verifier')!;

  const exchanging = new Twitter({ ...base, access_token_key: request.oauth_token!, access_token_secret: request.oauth_token_secret! });
  const at = await call(exchanging, 'post', 'oauth/access_token', { oauth_verifier: verifier });
  assert.equal(at.status, 200, String(at.data));
  const access = Object.fromEntries(new URLSearchParams(String(at.data)));
  assert.ok(access.oauth_token && access.oauth_token_secret);

  const client = new Twitter({ ...base, access_token_key: access.oauth_token!, access_token_secret: access.oauth_token_secret! });
  const posted = await call(client, 'post', 'statuses/update', { status: 'Hello from the twitter client!' });
  assert.equal(posted.err, null, JSON.stringify(posted.data));
  const status = posted.data as { id: number; text: string; user: { screen_name: string } };
  assert.equal(status.text, 'Hello from the twitter client!');
  assert.equal(status.user.screen_name, 'alice');

  const home = await call(client, 'get', 'statuses/home_timeline', { count: '5' });
  assert.equal(home.err, null, JSON.stringify(home.data));
  assert.ok(Array.isArray(home.data));
  assert.ok((home.data as { id: number }[]).some((s) => s.id === status.id), 'the new post is on the home timeline');

  const forged = new Twitter({ ...base, access_token_key: access.oauth_token!, access_token_secret: 'not the secret' });
  const refused = await call(forged, 'get', 'statuses/home_timeline', {});
  assert.equal(refused.status, 401);
});

test('oauth/authenticate is the authorize page; oob asks for the PIN even when the app has a redirect; access_token names the user', async () => {
  const request = await formBody(await signedFetch(t, app, '/api/oauth/request_token', { method: 'POST', oauth: { oauth_callback: 'oob' } }));
  for (const path of ['/api/oauth/authenticate', '/api/1.1/oauth/authenticate', '/oauth/authenticate']) {
    const page = await alice.get(`${path}?oauth_token=${request.oauth_token}`);
    assert.equal(page.status, 200, path);
    assert.match(await page.text(), /name="oauth_yes"/);
  }
  const res = await approve(alice, request.oauth_token!, '/api/oauth/authenticate');
  assert.equal(res.status, 200, 'no redirect to the registered callback: the client said oob');
  const verifier = /id="oauth_verifier"[^>]*>(\d{7})</.exec(await res.text())?.[1];
  assert.ok(verifier);
  const access = await formBody(await signedFetch(t, app, '/api/oauth/access_token', { method: 'POST', token: { key: request.oauth_token!, secret: request.oauth_token_secret! }, oauth: { oauth_verifier: verifier } }));
  assert.equal(access.screen_name, 'alice');
  assert.match(access.user_id!, /^\d+$/);
  assert.equal(await whoami(await signedFetch(t, app, WHOAMI, { token: { key: access.oauth_token!, secret: access.oauth_token_secret! } })), 'alice');
});
