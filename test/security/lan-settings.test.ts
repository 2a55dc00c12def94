import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { startHub, PASSWORD, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { obtainAccessToken, registerApp, sessionCsrf, signedFetch } from '../helpers/oauth-client.js';
import { mastodonToken } from '../helpers/mastodon.js';
import { addForeignAccount, EVE_PASSWORD } from '../helpers/seed.js';

// Settings → Network access opens the hub to every device on the network (or cuts them off): only
// the hub's owner, from the hub's own pages, may do that. Seen from outside: the status, and
// whether the hub answers at its address on the network. The "network" is 127.0.0.2 here, a
// loopback address the test says is the machine's LAN address: the hub answers there only while
// it listens on all interfaces.

const PATH = '/settings/lan/state';
const LAN_ADDRESS = '127.0.0.2';

const fakeLan = () => ({ eth0: [{ address: LAN_ADDRESS, family: 'IPv4', internal: false, netmask: '255.0.0.0', mac: '', cidr: null } as NetworkInterfaceInfo] });

/** Whether anybody on the network reaches the hub now. */
async function reachableOnLan(t: TestHub): Promise<boolean> {
  try {
    await fetch(`http://${LAN_ADDRESS}:${t.hub.port}/session`);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(what);
}

async function ownerChange(t: TestHub, s: WebSession, on: boolean): Promise<Response> {
  return fetch(t.url + PATH, {
    method: 'POST',
    headers: { cookie: s.cookie, 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': await sessionCsrf(s), origin: t.url },
    body: JSON.stringify({ on }),
  });
}

test('nobody but the owner, from the hub\'s own page, opens the hub to the network or closes it', async () => {
  const t = await startHub({ channels: ['alice'], options: { lanSwitch: { interfaces: fakeLan } } });
  try {
    await addForeignAccount(t.hub, 'eve', EVE_PASSWORD);
    const owner = await webLogin(t, 'alice');
    const eve = await webLogin(t, 'eve', EVE_PASSWORD);
    const bearer = await mastodonToken(t, owner, { channel: 'alice' });
    const app = await registerApp(owner, { name: 'Old client', redirect: 'https://client.example/cb' });
    const oauth1 = await obtainAccessToken(t, owner, app);

    const attempts = async (on: boolean) => {
      const json = JSON.stringify({ on });
      const form = new URLSearchParams({ on: String(on) }).toString();
      const ownerCsrf = await sessionCsrf(owner);
      const basic = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
      return [
        { who: 'anonymous', status: 401, res: await fetch(t.url + PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json }) },
        { who: "another account's session with its own CSRF token", status: 403, res: await fetch(t.url + PATH, { method: 'POST', headers: { cookie: eve.cookie, 'content-type': 'application/json', 'x-csrf-token': await sessionCsrf(eve) }, body: json }) },
        { who: "an app's OAuth 2 token for the owner's channel", status: 401, res: await fetch(t.url + PATH, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: json }) },
        { who: "an app's OAuth 1.0a token for the owner's channel", status: 401, res: await signedFetch(t, app, PATH, { method: 'POST', token: oauth1, data: { on: String(on) }, place: 'body' }) },
        { who: "an app with the owner's password (Basic auth)", status: 401, res: await fetch(t.url + PATH, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/json' }, body: json }) },
        { who: "a cross-site form riding on the owner's cookie", status: 403, res: await fetch(t.url + PATH, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, body: form, redirect: 'manual' }) },
        { who: "the owner's cookie without the CSRF token", status: 403, res: await fetch(t.url + PATH, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual' }) },
        { who: 'a foreign page that got hold of the CSRF token', status: 403, res: await fetch(t.url + PATH, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/json', 'x-csrf-token': ownerCsrf, origin: 'https://evil.example' }, body: json }) },
      ];
    };

    assert.equal(await reachableOnLan(t), false, 'the hub starts on this computer only');
    for (const a of await attempts(true)) assert.equal(a.res.status, a.status, `opening, ${a.who}: ${await a.res.text()}`);
    // A switch would have happened right after the answer; give it the time.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await reachableOnLan(t), false, 'nobody on the network reaches the hub');

    // Reading the state is the owner's too (it names the hub's address on the network).
    assert.equal((await fetch(t.url + PATH)).status, 401, 'anonymous read');
    assert.equal((await fetch(t.url + PATH, { headers: { cookie: eve.cookie } })).status, 403, "another account's read");
    assert.equal((await fetch(t.url + PATH, { headers: { authorization: `Bearer ${bearer}` } })).status, 401, "an app's read");

    const on = await ownerChange(t, owner, true);
    assert.equal(on.status, 200, await on.clone().text());
    await eventually(() => reachableOnLan(t), 'the owner opened the hub to the network');

    for (const a of await attempts(false)) assert.equal(a.res.status, a.status, `closing, ${a.who}: ${await a.res.text()}`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await reachableOnLan(t), true, 'the hub is still open to the network');
  } finally {
    await t.stop();
  }
});
