import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { lanAddress } from '../../electron/lib/lan.js';
import { appOrigins, loginUrl, windowOrigin } from '../../electron/lib/login-handoff.js';
import { HANDOFF_LIFETIME_MS, issueHandoffToken } from '../../server/web/handoff.js';

function sessionCookie(res: Response): string | undefined {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('hearth_session=') && !c.startsWith('hearth_session=;'));
  return cookie?.split(';')[0];
}

async function sessionOf(t: TestHub, cookie: string) {
  const res = await fetch(`${t.url}/session`, { headers: { cookie } });
  return (await res.json()) as { authenticated: boolean; channel?: { nick: string } };
}

describe('login handoff to the desktop window', () => {
  let t: TestHub;
  before(async () => {
    t = await startHub({ channels: ['alice', 'bob'] });
  });
  after(() => t.stop());

  it('opens the setup page while the hub has no channel', async () => {
    const empty = await startHub();
    try {
      assert.equal(loginUrl(empty.hub), `${windowOrigin(empty.hub)}/setup`);
    } finally {
      await empty.stop();
    }
  });

  it('logs the window in as the owner and lands on the UI', async () => {
    const url = loginUrl(t.hub);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/auth\/handoff\?token=[0-9a-f]{64}$/);
    const res = await fetch(url, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const cookie = sessionCookie(res);
    assert.ok(cookie, 'a session cookie is set');
    const session = await sessionOf(t, cookie);
    assert.equal(session.authenticated, true);
    assert.equal(session.channel?.nick, 'alice');
  });

  it('accepts a token once only', async () => {
    const url = loginUrl(t.hub);
    assert.equal((await fetch(url, { redirect: 'manual' })).status, 302);
    const again = await fetch(url, { redirect: 'manual' });
    assert.equal(again.status, 403);
    assert.equal(sessionCookie(again), undefined);
  });

  it('refuses expired, unknown and missing tokens', async () => {
    const old = issueHandoffToken(t.hub, { now: Date.now() - HANDOFF_LIFETIME_MS - 1 });
    for (const q of [`?token=${old}`, `?token=${'0'.repeat(64)}`, '', '?token=']) {
      const res = await fetch(`${t.url}/auth/handoff${q}`, { redirect: 'manual' });
      assert.equal(res.status, 403, q);
      assert.equal(sessionCookie(res), undefined, q);
    }
  });

  it('opens another channel of the owner on a given page, reusing the window session', async () => {
    const first = await fetch(loginUrl(t.hub), { redirect: 'manual' });
    const cookie = sessionCookie(first)!;
    const res = await fetch(loginUrl(t.hub, { channelId: t.channels.bob!.channel_id, path: '/item/42' }), { redirect: 'manual', headers: { cookie } });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/item/42');
    assert.equal(sessionCookie(res), undefined, 'no second session');
    assert.equal((await sessionOf(t, cookie)).channel?.nick, 'bob');
  });

  it('never redirects off the hub', async () => {
    for (const path of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'item/1']) {
      const res = await fetch(loginUrl(t.hub, { path }), { redirect: 'manual' });
      assert.equal(res.headers.get('location'), '/', path);
    }
  });

  it('issues no token for a channel that is not the owner\'s', () => {
    assert.equal(issueHandoffToken(t.hub, { channelId: 99999 }), undefined);
  });

  it('keeps the window on loopback when the hub is on the LAN', async () => {
    await t.hub.rebind({ host: '0.0.0.0', port: t.hub.port, baseUrl: `http://192.0.2.200:${t.hub.port}` });
    try {
      assert.equal(windowOrigin(t.hub), `http://127.0.0.1:${t.hub.port}`);
      assert.deepEqual(appOrigins(t.hub), [`http://127.0.0.1:${t.hub.port}`, `http://192.0.2.200:${t.hub.port}`]);
    } finally {
      await t.hub.rebind({ host: '127.0.0.1', port: t.hub.port });
    }
  });

  it('accepts tokens only from this computer', async (ctx) => {
    const address = lanAddress();
    if (!address) return ctx.skip('this machine has no non-loopback IPv4 address');
    await t.hub.rebind({ host: '0.0.0.0', port: t.hub.port, baseUrl: `http://${address}:${t.hub.port}` });
    try {
      const token = issueHandoffToken(t.hub);
      const res = await fetch(`http://${address}:${t.hub.port}/auth/handoff?token=${token}`, { redirect: 'manual' });
      assert.equal(res.status, 403);
      assert.equal(sessionCookie(res), undefined);
    } finally {
      await t.hub.rebind({ host: '127.0.0.1', port: t.hub.port });
    }
  });
});
