import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { sessionCsrf } from '../helpers/oauth-client.js';
import { mastodonToken } from '../helpers/mastodon.js';
import { addForeignAccount, EVE_PASSWORD } from '../helpers/seed.js';

// Settings → Federation turns the hub into a server others reach (or stops it being one): only the
// hub's owner, from the hub's own pages, may do that. Seen from outside: the status, and whether
// the hub then says it speaks ActivityPub (NodeInfo) and answers WebFinger for its channels.

const PATH = '/settings/federation/state';

function withoutInsecure<T>(run: () => Promise<T>): Promise<T> {
  const before = process.env.HEARTH_FEDERATION_INSECURE;
  delete process.env.HEARTH_FEDERATION_INSECURE;
  return run().finally(() => {
    if (before === undefined) delete process.env.HEARTH_FEDERATION_INSECURE;
    else process.env.HEARTH_FEDERATION_INSECURE = before;
  });
}

/** What anybody can see of the hub's federation: NodeInfo's protocols. */
async function speaksActivityPub(t: TestHub): Promise<boolean> {
  const info = (await (await fetch(`${t.url}/nodeinfo/2.0`)).json()) as { protocols: string[] };
  return info.protocols.includes('activitypub');
}

/** The owner's change, as the Settings page sends it (JSON, the session's CSRF token, same origin). */
async function ownerChange(t: TestHub, s: WebSession, fields: Record<string, unknown>): Promise<Response> {
  return fetch(t.url + PATH, {
    method: 'POST',
    headers: { cookie: s.cookie, 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': await sessionCsrf(s), origin: t.url },
    body: JSON.stringify(fields),
  });
}

/** Every way someone other than the owner's own page could try; each must be refused and change nothing. */
async function attempts(t: TestHub, owner: WebSession, eve: WebSession, token: string, fields: Record<string, string>) {
  const json = JSON.stringify(fields);
  const form = new URLSearchParams(fields).toString();
  const ownerCsrf = await sessionCsrf(owner);
  return [
    { who: 'anonymous', status: 401, res: await fetch(t.url + PATH, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: json }) },
    {
      who: "another account's session with its own CSRF token",
      status: 403,
      res: await fetch(t.url + PATH, { method: 'POST', headers: { cookie: eve.cookie, 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': await sessionCsrf(eve) }, body: json }),
    },
    {
      who: "an app's OAuth 2 token for the owner's channel",
      status: 401,
      res: await fetch(t.url + PATH, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' }, body: json }),
    },
    {
      who: 'a cross-site form riding on the owner\'s cookie',
      status: 403,
      res: await fetch(t.url + PATH, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' }, body: form, redirect: 'manual' }),
    },
    {
      who: "the owner's cookie without the CSRF token",
      status: 403,
      res: await fetch(t.url + PATH, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual' }),
    },
    {
      who: 'a foreign page that got hold of the CSRF token',
      status: 403,
      res: await fetch(t.url + PATH, { method: 'POST', headers: { cookie: owner.cookie, 'content-type': 'application/json', 'x-csrf-token': ownerCsrf, origin: 'https://evil.example' }, body: json }),
    },
  ];
}

test('nobody but the owner, from the hub\'s own page, turns federation on or off', async () => {
  await withoutInsecure(async () => {
    const t = await startHub({ channels: ['alice'] });
    try {
      await addForeignAccount(t.hub, 'eve', EVE_PASSWORD);
      const owner = await webLogin(t, 'alice');
      const eve = await webLogin(t, 'eve', EVE_PASSWORD);
      const token = await mastodonToken(t, owner, { channel: 'alice' });

      for (const a of await attempts(t, owner, eve, token, { on: 'true', url: 'https://hub.example.org' })) {
        assert.equal(a.res.status, a.status, `turning on, ${a.who}: ${await a.res.text()}`);
      }
      assert.equal(await speaksActivityPub(t), false, 'federation is still off');

      // Reading the state is the owner's too (it says why federation does not run, and where).
      assert.equal((await fetch(t.url + PATH)).status, 401, 'anonymous read');
      assert.equal((await fetch(t.url + PATH, { headers: { cookie: eve.cookie } })).status, 403, "another account's read");
      assert.equal((await fetch(t.url + PATH, { headers: { authorization: `Bearer ${token}` } })).status, 401, "an app's read");

      const on = await ownerChange(t, owner, { on: true, url: 'https://hub.example.org' });
      assert.equal(on.status, 200, await on.clone().text());
      assert.equal(await speaksActivityPub(t), true, 'the owner turned it on');

      for (const a of await attempts(t, owner, eve, token, { on: 'false' })) {
        assert.equal(a.res.status, a.status, `turning off, ${a.who}: ${await a.res.text()}`);
      }
      assert.equal(await speaksActivityPub(t), true, 'federation is still on');
    } finally {
      await t.stop();
    }
  });
});

test('the owner turns federation on at a public https address, which then stays fixed, and off again; other addresses are refused with 400', async () => {
  await withoutInsecure(async () => {
    const t = await startHub({ channels: ['alice'] });
    try {
      const owner = await webLogin(t, 'alice');
      const state = async () => (await (await owner.get(PATH)).json()) as { on: boolean; running: boolean; url: string | null; problem: string | null; insecure: boolean };
      assert.deepEqual(await state(), { on: false, running: false, url: null, problem: null, insecure: false });

      for (const [url, why] of [
        ['http://hub.example.org', /not https/],
        ['https://192.168.1.20:8420', /not a public host name/],
        ['https://localhost', /not a public host name/],
        ['https://myhub.local', /not a public host name/],
        ['not a url', /not a URL/],
        ['', /public https address/],
      ] as const) {
        const res = await ownerChange(t, owner, { on: true, url });
        assert.equal(res.status, 400, url);
        const body = (await res.json()) as { message: string };
        assert.match(body.message, why, url);
        assert.match(body.message, /reverse proxy or a tunnel/, `${url}: says what to do`);
      }
      assert.equal((await ownerChange(t, owner, { on: 'perhaps' })).status, 400, 'on must be on or off');
      assert.equal((await ownerChange(t, owner, { on: true, url: 42 })).status, 400, 'a URL is text');
      assert.equal(await speaksActivityPub(t), false);

      const on = await ownerChange(t, owner, { on: true, url: 'https://hub.example.org/' });
      assert.equal(on.status, 200);
      assert.deepEqual(await on.json(), { on: true, running: true, url: 'https://hub.example.org', problem: null, insecure: false });
      assert.equal(await speaksActivityPub(t), true);
      // The channels are found at their new address at once.
      const finger = await fetch(`${t.url}/.well-known/webfinger?resource=${encodeURIComponent('acct:alice@hub.example.org')}`);
      assert.equal(finger.status, 200);
      assert.ok(((await finger.json()) as { links: { href?: string }[] }).links.some((l) => l.href === 'https://hub.example.org/channel/alice'));

      const moved = await ownerChange(t, owner, { on: true, url: 'https://other.example.org' });
      assert.equal(moved.status, 400);
      assert.match(((await moved.json()) as { message: string }).message, /never change/);

      const off = await ownerChange(t, owner, { on: false });
      assert.equal(off.status, 200);
      assert.deepEqual(await off.json(), { on: false, running: false, url: 'https://hub.example.org', problem: null, insecure: false });
      assert.equal(await speaksActivityPub(t), false);
      assert.equal((await fetch(`${t.url}/.well-known/webfinger?resource=${encodeURIComponent('acct:alice@hub.example.org')}`)).status, 404);

      const again = await ownerChange(t, owner, { on: true });
      assert.equal(again.status, 200, 'on again at the address fixed before');
      assert.equal(((await again.json()) as { url: string }).url, 'https://hub.example.org');
    } finally {
      await t.stop();
    }
  });
});

test('with HEARTH_FEDERATION_INSECURE=1 (tests, LAN experiments) the owner may federate at an http address on this network', async () => {
  const before = process.env.HEARTH_FEDERATION_INSECURE;
  process.env.HEARTH_FEDERATION_INSECURE = '1';
  const t = await startHub({ channels: ['alice'] });
  try {
    const owner = await webLogin(t, 'alice');
    assert.equal((await ownerChange(t, owner, { on: true, url: 'ftp://hub.example.org' })).status, 400, 'still an http(s) URL');
    const on = await ownerChange(t, owner, { on: true, url: t.url });
    assert.equal(on.status, 200, await on.clone().text());
    assert.deepEqual(await on.json(), { on: true, running: true, url: t.url, problem: null, insecure: true });
    assert.equal(await speaksActivityPub(t), true);
  } finally {
    await t.stop();
    if (before === undefined) delete process.env.HEARTH_FEDERATION_INSECURE;
    else process.env.HEARTH_FEDERATION_INSECURE = before;
  }
});
