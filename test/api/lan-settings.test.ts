import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';
import { sessionCsrf } from '../helpers/oauth-client.js';
import { serveOptions } from '../../server/cli.js';

// Settings → Network access: the owner opens the hub to the devices on the network and closes it
// again, when the hub may move itself; else the page says how to start it so. 127.0.0.2 stands for
// the machine's address on the network (a loopback address, so that the test stays on this machine).

const PATH = '/settings/lan/state';
const LAN_ADDRESS = '127.0.0.2';
const fakeLan = () => ({ eth0: [{ address: LAN_ADDRESS, family: 'IPv4', internal: false, netmask: '255.0.0.0', mac: '', cidr: null } as NetworkInterfaceInfo] });

interface State {
  on: boolean;
  url: string;
  lanUrl: string | null;
  switchable: boolean;
  problem: string | null;
  restart: { why: string; on: string; off: string } | null;
  moving?: boolean;
}

async function change(t: TestHub, s: WebSession, on: unknown): Promise<Response> {
  return fetch(t.url + PATH, {
    method: 'POST',
    headers: { cookie: s.cookie, 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': await sessionCsrf(s), origin: t.url },
    body: JSON.stringify({ on }),
  });
}

/** The state read at `base` once the hub answers there again (it moves after answering a switch). */
async function stateAt(base: string, s: WebSession, want: (st: State) => boolean): Promise<State> {
  for (let i = 0; i < 100; i++) {
    try {
      const st = (await (await fetch(base + PATH, { headers: { cookie: s.cookie } })).json()) as State;
      if (want(st)) return st;
    } catch {
      /* moving: not listening for a moment */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`the hub did not reach the state wanted at ${base}`);
}

test('the owner opens the hub to the network and closes it again; the session and the choice stay', async () => {
  const t = await startHub({ channels: ['alice'], options: { lanSwitch: { interfaces: fakeLan } } });
  let again: TestHub | undefined;
  try {
    const owner = await webLogin(t, 'alice');
    const port = t.hub.port;
    const lanUrl = `http://${LAN_ADDRESS}:${port}`;
    assert.deepEqual(await (await owner.get(PATH)).json(), { on: false, url: t.url, lanUrl, switchable: true, problem: null, restart: null });

    assert.equal((await change(t, owner, 'perhaps')).status, 400, 'on or off');
    const off = await change(t, owner, false);
    assert.equal(off.status, 200, 'off while off: nothing moves');
    assert.equal(((await off.json()) as State).moving, undefined);

    const on = await change(t, owner, true);
    assert.equal(on.status, 200);
    assert.equal(on.headers.get('connection'), 'close', 'the connection goes with the move');
    assert.deepEqual(await on.json(), { on: true, url: lanUrl, lanUrl, switchable: true, problem: null, restart: null, moving: true });
    const there = await stateAt(`http://127.0.0.1:${port}`, owner, (st) => st.on);
    assert.deepEqual(there, { on: true, url: lanUrl, lanUrl, switchable: true, problem: null, restart: null }, 'this computer still reaches it, logged in');
    const fromLan = await fetch(`${lanUrl}/session`, { headers: { cookie: owner.cookie } });
    assert.equal(((await fromLan.json()) as { baseUrl: string }).baseUrl, lanUrl, 'the network reaches it at its new address');

    const closing = await fetch(lanUrl + PATH, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json', 'x-csrf-token': await sessionCsrf(owner), origin: lanUrl },
      body: JSON.stringify({ on: false }),
    });
    assert.equal(closing.status, 200, 'closed from a device on the network');
    assert.equal(((await closing.json()) as State).url, `http://127.0.0.1:${port}`, 'the answer says where the hub goes');
    await stateAt(`http://127.0.0.1:${port}`, owner, (st) => !st.on);
    await assert.rejects(fetch(`${lanUrl}/session`), 'the network does not reach it any more');

    await change(t, owner, true);
    await stateAt(`http://127.0.0.1:${port}`, owner, (st) => st.on);
    await t.hub.close();
    again = await startHub({ dataDir: t.dataDir, options: { lanSwitch: { interfaces: fakeLan } } });
    assert.equal(again.hub.lan!.remembered(), true, 'the choice is kept for the next start');
  } finally {
    await again?.hub.close();
    await t.stop().catch(() => undefined);
  }
});

test('a hub started with its address given says how to restart it instead, and refuses to move', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const owner = await webLogin(t, 'alice');
    const state = (await (await owner.get(PATH)).json()) as State;
    assert.equal(state.switchable, false);
    assert.equal(state.on, false);
    assert.equal(state.url, t.url);
    assert.match(state.restart!.why, /--host, --base-url/);
    assert.match(state.restart!.on, new RegExp(`^hearth serve --host 0\\.0\\.0\\.0 --port ${t.hub.port} --base-url http://\\S+:${t.hub.port}$`));
    assert.equal(state.restart!.off, `hearth serve --host 127.0.0.1 --port ${t.hub.port}`);
    const res = await change(t, owner, true);
    assert.equal(res.status, 409);
    assert.match(((await res.json()) as { message: string }).message, /start it with: hearth serve --host 0\.0\.0\.0/);
  } finally {
    await t.stop();
  }
});

test('hearth serve lets the owner switch LAN access only when nobody gave its address', () => {
  assert.equal(serveOptions([], {}).lanSwitch, true);
  assert.equal(serveOptions(['--port', '9000'], {}).lanSwitch, true);
  assert.equal(serveOptions(['--host', '0.0.0.0'], {}).lanSwitch, false);
  assert.equal(serveOptions(['--base-url', 'http://hub.lan:8420'], {}).lanSwitch, false);
  assert.equal(serveOptions([], { HEARTH_HOST: '127.0.0.1' }).lanSwitch, false);
  assert.equal(serveOptions([], { HEARTH_BASE_URL: 'https://hub.example.org' }).lanSwitch, false);
  assert.equal(serveOptions(['--trust-proxy'], {}).lanSwitch, false);
});
