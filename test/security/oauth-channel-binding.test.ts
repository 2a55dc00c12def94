import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin } from '../helpers/web-session.js';
import { obtainAccessToken, registerApp, signedFetch, type OAuthApp, type OAuthToken } from '../helpers/oauth-client.js';

// The attacker is an app the owner approved for the channel `alice`; the account also has `alicework`.
let t: TestHub;
let app: OAuthApp;
let token: OAuthToken;

before(async () => {
  t = await startHub({ channels: ['alice'] });
  await t.addChannel('alicework');
  const s = await webLogin(t, 'alice');
  app = await registerApp(s, { name: 'Approved for alice', redirect: 'https://app.example/cb' });
  token = await obtainAccessToken(t, s, app);
});
after(() => t.stop());

const ROUTES: { method: 'GET' | 'POST'; path: string; data?: Record<string, string> }[] = [
  { method: 'GET', path: '/api/statuses/home_timeline.json' },
  { method: 'GET', path: '/api/statuses/user_timeline.json' },
  { method: 'GET', path: '/api/statuses/friends_timeline.json' },
  { method: 'GET', path: '/api/account/verify_credentials.json' },
  { method: 'POST', path: '/api/statuses/update.json', data: { status: 'written by the app as the other channel' } },
  { method: 'GET', path: '/api/z/1.0/channel/export/basic' },
  { method: 'GET', path: '/api/z/1.0/channel/stream' },
  { method: 'GET', path: '/api/z/1.0/network/stream' },
  { method: 'POST', path: '/api/z/1.0/item/update', data: { body: 'written by the app as the other channel' } },
];

const nickOf = async (res: Response) => ((await res.json()) as { screen_name: string }).screen_name;

test('an OAuth token acts for the channel it was approved for, and channel= naming it works', async () => {
  assert.equal(await nickOf(await signedFetch(t, app, '/api/account/verify_credentials.json', { token })), 'alice');
  const res = await signedFetch(t, app, '/api/account/verify_credentials.json', { token, data: { channel: 'alice' } });
  assert.equal(res.status, 200);
  assert.equal(await nickOf(res), 'alice');
});

test('an OAuth token approved for one channel cannot switch to another channel of the account (403 on every API)', async () => {
  for (const r of ROUTES) {
    const res = await signedFetch(t, app, r.path, { method: r.method, token, data: { ...r.data, channel: 'alicework' } });
    const text = await res.text();
    assert.equal(res.status, 403, `${r.method} ${r.path} channel=alicework: ${res.status} ${text.slice(0, 200)}`);
    assert.match(text, /approved for the channel alice/i, `${r.path} says why`);
  }
  // Nothing was written as the other channel.
  const own = await t.request('/api/statuses/user_timeline.json?channel=alicework', { as: 'alice' });
  assert.equal(own.status, 200);
  assert.deepEqual(await own.json(), []);
});

test('Basic auth and the browser session still switch between the account\'s own channels', async () => {
  const basic = await t.request('/api/account/verify_credentials.json?channel=alicework', { as: 'alice' });
  assert.equal(basic.status, 200);
  assert.equal(await nickOf(basic), 'alicework');
  const s = await webLogin(t, 'alice');
  const csrf = ((await (await s.get('/session')).json()) as { csrf: string }).csrf;
  const res = await fetch(`${t.url}/api/account/verify_credentials.json?channel=alicework`, { headers: { cookie: s.cookie, 'x-csrf-token': csrf, origin: t.url } });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(await nickOf(res), 'alicework');
});
