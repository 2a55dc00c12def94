import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PASSWORD, startHub, type TestHub } from '../helpers/hub.js';
import { launchBrowser } from '../helpers/ui.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { registerMastodonApp, tokenRequest } from '../helpers/mastodon.js';
import { storeAttachment } from '../../server/services/attachments.js';
import { createPhoto } from '../../server/services/photos.js';
import { toAclString } from '../../server/util/ids.js';
import { rowCounts } from '../../server/store/stats.js';

// From the attacker's side, in a real Chromium: the owner is logged in to the hub in this browser
// when a page of another origin runs. The API answers every origin (Access-Control-Allow-Origin: *),
// so that web clients with a bearer token work; the owner's cookie must still open nothing to that
// page. The other origin is another port of 127.0.0.1: the same site, so the browser does send the
// hub's SameSite=Lax cookie along with the page's requests.

let t: TestHub;
let foreign: Server;
let foreignUrl = '';
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
let statusId = '';
let privateUrls: string[] = [];
const SECRET_STATUS = 'private-medlar-3318';
const passwordDialogs: string[] = [];
const sentWithCookie = new Set<string>();
let requestLine: (id: string) => string = () => '';
const SECRET_FILE = 'private-sloe-7741';

interface Attempt {
  status?: number;
  text?: string;
  link?: string | null;
  /** The browser withheld the answer (or refused to send the request): fetch() rejected. */
  blocked?: string;
}

before(async () => {
  t = await startHub({ channels: ['alice'] });
  const alice = t.channels.alice!;
  const app = await registerMastodonApp(t, { name: 'Web client' });
  const res = await tokenRequest(t, { grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: 'alice', password: PASSWORD, scope: 'read write' });
  token = ((await res.json()) as { access_token: string }).access_token;
  const posted = await fetch(`${t.url}/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ status: SECRET_STATUS, visibility: 'private' }) });
  statusId = ((await posted.json()) as { id: string }).id;
  const only = { allow_cid: toAclString([alice.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' };
  const file = await storeAttachment(t.hub, alice, await tempUpload(SECRET_FILE, 'diary.txt', 'text/plain'), { acl: only });
  const photo = await createPhoto(t.hub, alice, await tempUpload(await makeImage(40, 30), 'p.jpg'), { acl: only });
  privateUrls = [`${t.url}/attach/${file.hash}`, `${t.url}/photo/${photo.photos[0]!.resource_id}-0.jpg`];

  foreign = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>Another site</title><p>Another site');
  });
  foreign.listen(0, '127.0.0.1');
  await once(foreign, 'listening');
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;

  browser = await launchBrowser();
  context = await browser.newContext();
  page = await context.newPage();
  // The owner answers a password dialog a foreign page's request may bring up (a 401 with a Basic
  // challenge) with Cancel, as headless Chromium cannot show it.
  const cdp = await context.newCDPSession(page);
  cdp.on('Fetch.requestPaused', (e) => void cdp.send('Fetch.continueRequest', { requestId: e.requestId }).catch(() => undefined));
  cdp.on('Fetch.authRequired', (e) => {
    passwordDialogs.push(e.request.url);
    void cdp.send('Fetch.continueWithAuth', { requestId: e.requestId, authChallengeResponse: { response: 'CancelAuth' } }).catch(() => undefined);
  });
  await cdp.send('Fetch.enable', { handleAuthRequests: true });
  // What the browser really sent, cookies included.
  const requests = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, `${e.request.method} ${e.request.url}`));
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
    const cookie = Object.entries(e.headers).find(([k]) => k.toLowerCase() === 'cookie')?.[1];
    if (typeof cookie === 'string' && cookie.includes('hearth_session=')) sentWithCookie.add(e.requestId);
  });
  requestLine = (id) => requests.get(id) ?? '';
  await cdp.send('Network.enable');
  // The owner logs in on the hub's own page.
  await page.goto(`${t.url}/login`);
  await page.fill('#login', 'alice');
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL(`${t.url}/`), page.click('button[type=submit]')]);
  const cookies = await context.cookies(t.url);
  assert.ok(cookies.some((c) => c.name === 'hearth_session'), 'the owner is logged in');
  // The owner's own pages read the private things, so that the browser holds them in its cache.
  const own = await page.evaluate(async (urls) => Promise.all(urls.map(async (u) => (await fetch(u)).status)), privateUrls);
  assert.deepEqual(own, [200, 200]);
});

after(async () => {
  await browser?.close();
  foreign?.close();
  await t?.stop();
});

/** Runs fetch() calls in the foreign page; each answers what the page could see. */
async function fromForeignPage(calls: Record<string, [string, RequestInit?]>): Promise<Record<string, Attempt>> {
  if (!page.url().startsWith(foreignUrl)) await page.goto(`${foreignUrl}/`);
  return page.evaluate(async (list) => {
    const out: Record<string, Attempt> = {};
    for (const [name, [url, init]] of Object.entries(list)) {
      try {
        const r = await fetch(url, init);
        out[name] = { status: r.status, text: await r.text(), link: r.headers.get('link') };
      } catch (e) {
        out[name] = { blocked: String(e) };
      }
    }
    return out;
  }, calls);
}

test('a foreign page with a bearer token reads and posts; the owner\'s cookie gets it nothing private and changes nothing', async () => {
  const hub = t.url;
  const bearer = { authorization: `Bearer ${token}` };
  sentWithCookie.clear();
  const before = rowCounts(t.hub.db);
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
  const attacks = await fromForeignPage({
    // Reads with the owner's cookie: the answers are withheld (Allow-Origin * never admits credentials).
    session: [`${hub}/session`, { credentials: 'include' }],
    nativeStream: [`${hub}/api/z/1.0/channel/stream`, { credentials: 'include' }],
    compatHome: [`${hub}/api/statuses/home_timeline.json`, { credentials: 'include' }],
    privateStatus: [`${hub}/api/v1/statuses/${statusId}`, { credentials: 'include' }],
    file: [privateUrls[0]!, { credentials: 'include' }],
    photo: [privateUrls[1]!, { credentials: 'include' }],
    // Without the cookie: what anyone sees, even though the owner's browser has these in its cache.
    privateStatusPlain: [`${hub}/api/v1/statuses/${statusId}`],
    filePlain: [privateUrls[0]!],
    photoPlain: [privateUrls[1]!],
    // A guessed CSRF header needs a preflight, which fails for a request with credentials.
    nativeWithHeader: [`${hub}/api/z/1.0/channel/stream`, { credentials: 'include', headers: { 'x-csrf-token': 'guess' } }],
    // Writes a browser sends without a preflight, cookie included: the cookie alone counts for nothing.
    postNative: [`${hub}/api/z/1.0/item/update`, { method: 'POST', credentials: 'include', headers: formHeaders, body: form({ body: 'pwned native' }) }],
    postCompat: [`${hub}/api/statuses/update.json`, { method: 'POST', credentials: 'include', headers: formHeaders, body: form({ status: 'pwned compat' }) }],
    postMastodon: [`${hub}/api/v1/statuses`, { method: 'POST', credentials: 'include', headers: formHeaders, body: form({ status: 'pwned mastodon' }) }],
    postNativeWithHeader: [`${hub}/api/z/1.0/item/update`, { method: 'POST', credentials: 'include', headers: { ...formHeaders, 'x-csrf-token': 'guess' }, body: form({ body: 'pwned header' }) }],
    authorizeApp: [`${hub}/oauth/authorize`, { method: 'POST', credentials: 'include', headers: formHeaders, body: form({ client_id: 'x', response_type: 'code', approve: '1' }) }],
  });

  for (const name of ['session', 'nativeStream', 'compatHome', 'privateStatus', 'file', 'photo', 'nativeWithHeader', 'postNative', 'postCompat', 'postMastodon', 'postNativeWithHeader', 'authorizeApp']) {
    assert.ok(attacks[name]!.blocked, `${name}: the foreign page read ${JSON.stringify(attacks[name]).slice(0, 300)}`);
  }
  for (const name of ['privateStatusPlain', 'filePlain', 'photoPlain']) {
    assert.equal(attacks[name]!.status, 404, `${name}: ${JSON.stringify(attacks[name]).slice(0, 300)}`);
  }
  for (const [name, a] of Object.entries(attacks)) {
    assert.ok(!(a.text ?? '').includes(SECRET_STATUS) && !(a.text ?? '').includes(SECRET_FILE), `${name} leaked a secret`);
  }
  // The browser did send the owner's cookie with these: the hub itself refused it.
  const cookieSent = [...sentWithCookie].map(requestLine);
  for (const write of ['POST /api/z/1.0/item/update', 'POST /api/statuses/update.json', 'GET /api/z/1.0/channel/stream']) {
    assert.ok(cookieSent.some((r) => r.startsWith(`${write.split(' ')[0]} ${hub}${write.split(' ')[1]}`)), `${write} went without the cookie: ${cookieSent.join(', ')}`);
  }
  assert.deepEqual(rowCounts(t.hub.db), before, 'a foreign page changed something with the owner\'s cookie');

  // The same page as a web client, with its own bearer token: CORS lets it work.
  const client = await fromForeignPage({
    me: [`${hub}/api/v1/accounts/verify_credentials`, { headers: bearer }],
    post: [`${hub}/api/v1/statuses`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'posted from a web client' }) }],
    home: [`${hub}/api/v1/timelines/home?limit=1`, { headers: bearer }],
    privateStatus: [`${hub}/api/v1/statuses/${statusId}`, { headers: bearer }],
    apps: [`${hub}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer (null)' }, body: JSON.stringify({ client_name: 'Elk', redirect_uris: `${foreignUrl}/cb` }) }],
    metadata: [`${hub}/.well-known/oauth-authorization-server`],
  });
  assert.equal(client.me!.status, 200, JSON.stringify(client.me));
  assert.equal(JSON.parse(client.me!.text!).acct, 'alice');
  assert.equal(client.post!.status, 200, JSON.stringify(client.post));
  assert.equal(client.home!.status, 200);
  assert.match(client.home!.link ?? '', /rel="next"/, 'the page reads the Link header it pages with');
  assert.match(client.privateStatus!.text ?? '', new RegExp(SECRET_STATUS), 'the owner\'s token opens what it was granted');
  assert.equal(client.apps!.status, 200, JSON.stringify(client.apps));
  assert.equal(JSON.parse(client.metadata!.text!).code_challenge_methods_supported[0], 'S256');
});

test('HTML pages, the authorize page and the session stay closed to a foreign page, while the API beside them is open', async () => {
  const hub = t.url;
  const seen = await fromForeignPage({
    login: [`${hub}/login`],
    authorize: [`${hub}/oauth/authorize`],
    settings: [`${hub}/settings/oauth/`],
    home: [`${hub}/`],
    session: [`${hub}/session`],
    instance: [`${hub}/api/v1/instance`],
  });
  for (const name of ['login', 'authorize', 'settings', 'home', 'session']) assert.ok(seen[name]!.blocked, `${name}: ${JSON.stringify(seen[name]).slice(0, 200)}`);
  assert.equal(seen.instance!.status, 200, JSON.stringify(seen.instance).slice(0, 200));
});

test('a foreign page cannot open the owner’s WebSocket stream with the cookie; the hub’s own page can', async () => {
  const wsUrl = `${t.url.replace(/^http/, 'ws')}/api/v1/streaming?stream=user`;
  const open = (url: string) =>
    page.evaluate(
      (u) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(u);
          ws.onopen = () => (ws.close(), resolve('open'));
          ws.onclose = (e) => resolve(`closed ${e.code}`);
          setTimeout(() => resolve('no answer'), 5000);
        }),
      url,
    );
  // The other origin is the same site: the browser sends the SameSite=Lax cookie with the handshake
  // (test/security/stream-session.test.ts sends it with each foreign Origin itself).
  await page.goto(`${foreignUrl}/`);
  assert.notEqual(await open(wsUrl), 'open', 'the foreign page opened the owner’s stream');
  await page.goto(`${t.url}/`);
  assert.equal(await open(wsUrl), 'open', 'the hub’s own page opens it');
});
