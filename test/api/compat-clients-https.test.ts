import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertAllPassed, missingPython, runPythonScenario, startClientHub, type ClientHub } from '../helpers/client-hub.js';
import { send } from '../helpers/browser.js';
import { runTwitterNpmScenario } from '../clients/twitter-npm-scenario.js';
import { NPM_CALLS, TWEEPY_CALLS, TWYTHON_CALLS } from '../clients/required-calls.js';

/**
 * The hub behind a TLS-terminating reverse proxy (node:https with a self-signed certificate made
 * for the test), started with trustProxy and an https base URL, as a home server behind Caddy or
 * nginx: the owner logs in and registers apps through the proxy, and tweepy, twython and the npm
 * `twitter` package do the OAuth dance and their whole scenario through it.
 */
let h: ClientHub;
before(async () => {
  h = await startClientHub({ https: true });
});
after(() => h.stop());

test('through the proxy the owner logs in with a secure session cookie and registers apps', async () => {
  assert.match(h.base, /^https:\/\/127\.0\.0\.1:\d+$/);
  assert.match(h.browser.loginCookie, /; secure/i, 'Secure, as the base URL is https');
  assert.match(h.browser.loginCookie, /; httponly/i);
  const app = await h.browser.registerApp('through the proxy');
  assert.match(app.key, /^[0-9a-f]{32}$/);
  const listed = await h.browser.get('/settings/oauth/access');
  assert.match(listed.text, /through the proxy/);
});

test('an https base URL never makes login answer 500, even on a plain connection to the hub', async () => {
  const res = await send(`${h.direct}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'login=alice&password=correct+horse&return=%2F' });
  assert.equal(res.status, 302, res.text.slice(0, 200));
  assert.match(String(res.headers['set-cookie']), /; secure/i);
});

test('failed logins are counted per forwarded client address, not per proxy', async () => {
  const login = (client: string, password: string) =>
    send(`${h.direct}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `198.51.100.7, ${client}`, 'x-forwarded-proto': 'https' }, body: new URLSearchParams({ login: 'bob', password, return: '/' }).toString() });
  for (let i = 0; i < 20; i++) assert.equal((await login('203.0.113.5', 'wrong')).status, 401);
  assert.equal((await login('203.0.113.5', 'correct horse')).status, 429, 'this client is throttled');
  assert.equal((await login('203.0.113.6', 'correct horse')).status, 302, 'another client behind the same proxy is not');
  assert.equal((await send(`${h.base}/login`, { method: 'POST', ca: h.cert!.cert, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'login=bob&password=correct+horse' })).status, 302, 'nor is the proxy itself');
});

test('tweepy: OAuth (PIN and callback) and every v1.1 call of the scenario, through the https proxy', { timeout: 180_000, skip: missingPython('tweepy') }, async (t) => {
  assertAllPassed(await runPythonScenario(h, 'tweepy', 'tweepysecure'), TWEEPY_CALLS, (l) => t.diagnostic(l));
});

test('twython: OAuth (PIN and callback) and every v1.1 call of the scenario, through the https proxy', { timeout: 180_000, skip: missingPython('twython') }, async (t) => {
  assertAllPassed(await runPythonScenario(h, 'twython', 'twythonsecure'), TWYTHON_CALLS, (l) => t.diagnostic(l));
});

test('npm twitter: every v1.1 call of the scenario, through the https proxy', { timeout: 180_000 }, async (t) => {
  assertAllPassed(await runTwitterNpmScenario(h, 'npmsecure'), NPM_CALLS, (l) => t.diagnostic(l));
});
