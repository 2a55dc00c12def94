import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from '../../server/services/connections.js';
import type { ChannelRow } from '../../server/store/rows.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { webLogin } from '../helpers/web-session.js';

/** GET /api/v1/accounts/familiar_followers (Phanpy shows it on profiles): whom I follow that follows them. */
let t: TestHub;
let asAlice: ReturnType<typeof bearerFetch>;
const ids: Record<string, string> = {};

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave', 'erin'] });
  const c = t.channels as Record<string, ChannelRow>;
  // alice follows bob and carol; bob and erin follow dave; carol does not.
  connect(t.hub, c.alice!, c.bob!.channel_hash);
  connect(t.hub, c.alice!, c.carol!.channel_hash);
  connect(t.hub, c.bob!, c.dave!.channel_hash);
  connect(t.hub, c.erin!, c.dave!.channel_hash);
  asAlice = bearerFetch(t, await mastodonToken(t, await webLogin(t, 'alice'), { channel: 'alice', scope: 'read' }));
  for (const nick of Object.keys(c)) ids[nick] = ((await (await fetch(`${t.url}/api/v1/accounts/lookup?acct=${nick}`)).json()) as { id: string }).id;
});
after(() => t.stop());

test('for each id, the accounts the caller follows that follow it; unknown ids are left out', async () => {
  const res = await asAlice(`/api/v1/accounts/familiar_followers?id[]=${ids.dave}&id[]=${ids.carol}&id[]=999999&id[]=nope`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as { id: string; accounts: { acct: string }[] }[];
  assert.deepEqual(body.map((e) => ({ id: e.id, accts: e.accounts.map((a) => a.acct) })), [
    { id: ids.dave, accts: ['bob'] },
    { id: ids.carol, accts: [] },
  ]);
});

test('a single id, and none', async () => {
  const one = (await (await asAlice(`/api/v1/accounts/familiar_followers?id=${ids.dave}`)).json()) as { id: string }[];
  assert.deepEqual(one.map((e) => e.id), [ids.dave]);
  assert.deepEqual(await (await asAlice('/api/v1/accounts/familiar_followers')).json(), []);
});

test('needs a token', async () => {
  const res = await fetch(`${t.url}/api/v1/accounts/familiar_followers?id[]=${ids.dave}`);
  assert.equal(res.status, 401);
});
