import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, type NetworkInterfaceInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startHub, PASSWORD, type TestHub } from '../helpers/hub.js';
import { applyLanAccess, lanAddress, type Interfaces } from '../../electron/lib/lan.js';
import { startDesktopHub } from '../../electron/lib/desktop-hub.js';
import { SettingsStore } from '../../electron/lib/settings.js';
import { createChannel } from '../../server/services/channels.js';
import { insertPlainNotification } from '../../server/store/notify-watch.js';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo;

const FAKE_LAN: Interfaces = { lo: [nic('127.0.0.1', 'IPv4', true)], wlan0: [nic('fe80::1', 'IPv6'), nic('192.0.2.50', 'IPv4')] };

describe('LAN address', () => {
  it('is the first non-internal IPv4 address', () => {
    assert.equal(lanAddress(FAKE_LAN), '192.0.2.50');
    assert.equal(lanAddress({ a: [nic('169.254.3.4', 'IPv4')], b: [nic('10.1.2.3', 'IPv4')], c: [nic('10.9.9.9', 'IPv4')] }), '10.1.2.3');
  });
  it('does not exist without a network', () => {
    assert.equal(lanAddress({ lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)], eth0: [nic('fd00::2', 'IPv6')] }), undefined);
    assert.equal(lanAddress({}), undefined);
  });
});

describe('turning LAN access on and off on a running hub', () => {
  let t: TestHub;
  let cookie: string;
  let csrf: string;
  before(async () => {
    t = await startHub({ channels: ['alice'] });
    const res = await t.request('/login', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login: 'alice', password: PASSWORD }) });
    assert.equal(res.status, 200);
    cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
    csrf = ((await res.json()) as { csrf: string }).csrf;
    insertPlainNotification(t.hub.db, { uid: t.channels.alice!.channel_id, msg: 'kept across rebinds' });
  });
  after(() => t.stop());

  async function assertStillThere(base: string) {
    const res = await fetch(`${base}/session`, { headers: { cookie } });
    const body = (await res.json()) as { authenticated: boolean; csrf: string; channel: { nick: string }; baseUrl: string };
    assert.equal(body.authenticated, true, 'the session survived');
    assert.equal(body.csrf, csrf);
    assert.equal(body.channel.nick, 'alice');
    const row = t.hub.db.prepare("SELECT count(*) AS n FROM notify WHERE msg = 'kept across rebinds'").get() as { n: number };
    assert.equal(row.n, 1, 'the data survived');
    return body;
  }

  it('listens on all interfaces with a LAN base URL, on the same port', async () => {
    const port = t.hub.port;
    const state = await applyLanAccess(t.hub, true, FAKE_LAN);
    assert.deepEqual(state, { on: true, url: `http://192.0.2.50:${port}` });
    assert.equal(t.hub.host, '0.0.0.0');
    assert.equal(t.hub.port, port);
    assert.equal(t.hub.baseUrl, `http://192.0.2.50:${port}`);
    const body = await assertStillThere(`http://127.0.0.1:${port}`);
    assert.equal(body.baseUrl, `http://192.0.2.50:${port}`);
  });

  it('goes back to loopback, keeping data and sessions', async () => {
    const port = t.hub.port;
    assert.deepEqual(await applyLanAccess(t.hub, false), { on: false });
    assert.equal(t.hub.host, '127.0.0.1');
    assert.equal(t.hub.baseUrl, `http://127.0.0.1:${port}`);
    const body = await assertStillThere(`http://127.0.0.1:${port}`);
    assert.equal(body.baseUrl, `http://127.0.0.1:${port}`);
  });

  it('is really reachable from the LAN only while on', async (ctx) => {
    const address = lanAddress();
    if (!address) return ctx.skip('this machine has no non-loopback IPv4 address');
    const lanUrl = `http://${address}:${t.hub.port}`;
    assert.equal((await applyLanAccess(t.hub, true)).url, lanUrl);
    await assertStillThere(lanUrl);
    await applyLanAccess(t.hub, false);
    await assert.rejects(fetch(`${lanUrl}/session`), 'nothing listens on the LAN address any more');
    await assertStillThere(`http://127.0.0.1:${t.hub.port}`);
  });

  it('stays on loopback and says why when there is no network', async () => {
    const state = await applyLanAccess(t.hub, true, { lo: [nic('127.0.0.1', 'IPv4', true)] });
    assert.equal(state.on, false);
    assert.match(state.problem ?? '', /No network/);
    assert.equal(t.hub.host, '127.0.0.1');
    await assertStillThere(`http://127.0.0.1:${t.hub.port}`);
  });
});

describe('starting the desktop hub', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-desktop-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('picks a free loopback port the first time and keeps it for the next start', async () => {
    const settings = new SettingsStore(join(dir, 'a', 'settings.json'));
    const first = await startDesktopHub({ dataDir: join(dir, 'a', 'hub'), settings });
    const port = first.hub.port;
    assert.ok(port > 0);
    assert.equal(first.hub.host, '127.0.0.1');
    assert.deepEqual(first.lan, { on: false });
    assert.equal(settings.get().port, port);
    await first.hub.close();
    const second = await startDesktopHub({ dataDir: join(dir, 'a', 'hub'), settings: new SettingsStore(join(dir, 'a', 'settings.json')) });
    try {
      assert.equal(second.hub.port, port);
      assert.equal((await fetch(`${second.hub.baseUrl}/session`)).status, 200);
    } finally {
      await second.hub.close();
    }
  });

  it('moves to another port when the remembered one is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    const settings = new SettingsStore(join(dir, 'b', 'settings.json'));
    settings.update({ port: taken });
    try {
      const { hub } = await startDesktopHub({ dataDir: join(dir, 'b', 'hub'), settings });
      try {
        assert.notEqual(hub.port, taken);
        assert.equal(settings.get().port, hub.port);
        assert.equal((await fetch(`${hub.baseUrl}/session`)).status, 200);
      } finally {
        await hub.close();
      }
    } finally {
      blocker.close();
    }
  });

  it('comes up on the LAN when LAN access was left on, with the owner\'s data', async () => {
    const settings = new SettingsStore(join(dir, 'c', 'settings.json'));
    settings.update({ lanAccess: true });
    const first = await startDesktopHub({ dataDir: join(dir, 'c', 'hub'), settings, interfaces: FAKE_LAN });
    await createChannel(first.hub.db, { baseUrl: first.hub.baseUrl }, { nick: 'carol', name: 'Carol', password: PASSWORD, email: 'c@example.com' });
    await first.hub.close();
    const { hub, lan } = await startDesktopHub({ dataDir: join(dir, 'c', 'hub'), settings, interfaces: FAKE_LAN });
    try {
      assert.deepEqual(lan, { on: true, url: `http://192.0.2.50:${hub.port}` });
      assert.equal(hub.host, '0.0.0.0');
      const res = await fetch(`http://127.0.0.1:${hub.port}/login`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login: 'carol', password: PASSWORD }) });
      assert.equal(res.status, 200, 'the channel created before the restart can log in');
    } finally {
      await hub.close();
    }
  });
});
