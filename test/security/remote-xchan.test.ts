import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { EVE_PASSWORD, seed, type Seeded } from '../helpers/seed.js';

// The attacker is eve (a channel of another account) and bob (alice's contact); alice is the one they claim to be.
let t: TestHub;
let s: Seeded;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  s = await seed(t);
});
after(() => t.stop());

async function postAs(nick: string, password: string | undefined, form: Record<string, string>) {
  const res = await t.request('/api/z/1.0/item/update', { as: nick, password, method: 'POST', body: new URLSearchParams(form) });
  return { status: res.status, text: await res.text() };
}

async function aliceWall(): Promise<string> {
  const res = await t.request('/api/z/1.0/channel/stream', { as: 'alice' });
  return res.text();
}

test('remote_xchan naming another channel is refused (403) and nothing is stored', async () => {
  const r = await postAs('eve', EVE_PASSWORD, { body: 'eve writing as alice', remote_xchan: s.alice.channel_hash });
  assert.equal(r.status, 403, r.text);
  assert.match(r.text, /remote_xchan/);
  const b = await postAs('bob', undefined, { body: 'bob writing as alice', remote_xchan: s.alice.channel_hash });
  assert.equal(b.status, 403, b.text);
  const wall = await aliceWall();
  assert.doesNotMatch(wall, /writing as alice/);
});

test('a comment into a thread the caller cannot see is refused even when claiming its author', async () => {
  const plain = await postAs('eve', EVE_PASSWORD, { body: 'eve comments', parent: String(s.forBob.id) });
  assert.ok(plain.status === 404 || plain.status === 403, plain.text);
  const claimed = await postAs('eve', EVE_PASSWORD, { body: 'eve comments as alice', parent: String(s.onlyMe.id), remote_xchan: s.alice.channel_hash });
  assert.ok(claimed.status === 404 || claimed.status === 403, claimed.text);
  const claimedBob = await postAs('eve', EVE_PASSWORD, { body: 'eve comments as bob', parent: String(s.forBob.id), remote_xchan: s.bob.channel_hash });
  assert.ok(claimedBob.status === 404 || claimedBob.status === 403, claimedBob.text);
  assert.doesNotMatch(await aliceWall(), /eve comments/);
});

test('remote_xchan naming the caller itself is accepted', async () => {
  const r = await postAs('bob', undefined, { body: 'bob as himself', remote_xchan: s.bob.channel_hash });
  assert.equal(r.status, 200, r.text);
});
