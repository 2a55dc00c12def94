import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call } from '../helpers/native.js';
import { webLogin } from '../helpers/web-session.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
});

after(() => t?.stop());

interface SessionAnswer {
  addressHost: string;
  channel?: { nick: string; address: string };
  channels?: { nick: string; address: string }[];
}

/** The address other hubs know a channel by: its xchan's, as the native API tells it. */
async function xchanAddress(nick: string): Promise<string> {
  const self = ((await call(t, nick, 'abook')).json as { abook_self: string; xchan_addr: string }[]).find((r) => r.abook_self === '1');
  assert.ok(self);
  return self.xchan_addr;
}

test('the session gives the address of each channel and the host part of new ones, port included', async () => {
  const host = new URL(t.url).host;
  assert.match(host, /:\d+$/, 'the test hub listens on a port that is not the default');

  const anonymous = (await (await fetch(`${t.url}/session`)).json()) as SessionAnswer;
  assert.equal(anonymous.addressHost, host, 'the setup page can show the address a nickname will make');

  const web = await webLogin(t, 'alice');
  const s = (await (await web.get('/session')).json()) as SessionAnswer;
  assert.equal(s.addressHost, host);
  assert.equal(s.channel?.address, await xchanAddress('alice'));
  assert.equal(s.channel?.address, `alice@${host}`);
  assert.deepEqual(
    s.channels?.map((c) => [c.nick, c.address]),
    [['alice', await xchanAddress('alice')], ['bob', await xchanAddress('bob')]],
  );
});
