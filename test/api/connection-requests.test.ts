import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call } from '../helpers/native.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { webLogin } from '../helpers/web-session.js';

let t: TestHub;

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave'] });
  // alice approves her followers by hand (the UI's Settings); other channels are followed at once.
  const settings = await t.request('/api/account/settings.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ protected: '1' }) });
  assert.equal(settings.status, 200, await settings.clone().text());
});

after(async () => {
  await t?.stop();
});

const address = (nick: string) => `${nick}@${new URL(t.hub.baseUrl).host}`;

async function befriend(from: string, to: string) {
  const res = await t.request('/api/friendships/create.json', { as: from, method: 'POST', body: new URLSearchParams({ screen_name: address(to) }) });
  assert.equal(res.status, 200, await res.clone().text());
}

async function connectionOf(as: string, nick: string): Promise<Record<string, string>> {
  const rows = (await call(t, as, 'abook')).json as Record<string, string>[];
  const row = rows.find((r) => r.xchan_addr === address(nick));
  assert.ok(row, `${as} has a connection entry for ${nick}`);
  return row;
}

async function notificationsOf(as: string) {
  const res = await t.request('/api/ext/notifications.json', { as });
  return (await res.json()) as { id: number; type: number; link: string; name: string; msg: string; msg_plain: string; verb: string; seen: boolean }[];
}

const ignore = (as: string, abookId: string) => call(t, as, 'abook/ignore', { form: { abook_id: abookId } });
const approve = (as: string, abookId: string) => call(t, as, 'abook/approve', { form: { abook_id: abookId } });

test('a connection request can be ignored, and accepted later', async () => {
  await befriend('bob', 'alice');
  const request = await connectionOf('alice', 'bob');
  assert.equal(request.abook_pending, '1');
  const intro = (await notificationsOf('alice')).find((n) => n.type === 1);
  assert.ok(intro, 'alice is told about the request');
  assert.equal(new URL(intro.link).pathname, `/connections/${request.abook_id}`, 'the notification leads to the request');

  const ignored = await ignore('alice', request.abook_id!);
  assert.equal(ignored.status, 200, ignored.text);
  assert.equal(ignored.json.abook_ignored, '1');
  assert.equal(ignored.json.abook_pending, '1', 'still unanswered: bob gets no access');
  const incoming = await t.request('/api/friendships/incoming.json', { as: 'alice' });
  assert.deepEqual(((await incoming.json()) as number[]).length, 0, 'no longer among the requests waiting');

  // Following bob back is a follow of alice's own, not an answer to his request.
  await befriend('alice', 'bob');
  const followed = await connectionOf('alice', 'bob');
  assert.equal(followed.abook_unconnected, '0', 'alice follows bob');
  assert.equal(followed.abook_pending, '1', 'his request still waits');

  const approved = await approve('alice', request.abook_id!);
  assert.equal(approved.status, 200, approved.text);
  const accepted = await connectionOf('alice', 'bob');
  assert.equal(accepted.abook_pending, '0');
  assert.equal(accepted.abook_ignored, '0');
  const mine = await connectionOf('bob', 'alice');
  const confirm = (await notificationsOf('bob')).find((n) => n.type === 2);
  assert.ok(confirm, 'bob is told his request was accepted');
  assert.equal(new URL(confirm.link).pathname, `/connections/${mine.abook_id}`);
});

test('abook/ignore answers bad input with 4xx', async () => {
  await befriend('carol', 'alice');
  const fromCarol = await connectionOf('alice', 'carol');
  const accepted = await connectionOf('alice', 'bob');
  assert.equal((await call(t, 'alice', 'abook/ignore', { form: {} })).status, 400);
  assert.equal((await ignore('alice', 'abc')).status, 400);
  assert.equal((await ignore('alice', '999999')).status, 404);
  assert.equal((await ignore('alice', accepted.abook_id!)).status, 400, 'an accepted connection is no request');
  assert.equal((await ignore('bob', fromCarol.abook_id!)).status, 404, "someone else's connection");
  assert.equal((await call(t, 'alice', `abook/ignore?abook_id=${fromCarol.abook_id}`)).status, 405);
  assert.equal((await ignore('alice', fromCarol.abook_id!)).status, 200);
  assert.equal((await call(t, 'alice', 'abook/approve', { form: {} })).status, 400);
  assert.equal((await approve('alice', 'abc')).status, 400);
  assert.equal((await approve('alice', '999999')).status, 404);
  assert.equal((await approve('alice', accepted.abook_id!)).status, 400, 'an accepted connection is no request');
  assert.equal((await approve('bob', fromCarol.abook_id!)).status, 404, "someone else's connection");
  assert.equal((await call(t, 'alice', `abook/approve?abook_id=${fromCarol.abook_id}`)).status, 405);
});

test('once accepted, the notification of a request tells of the follow, in every API', async () => {
  await befriend('dave', 'alice');
  const asked = (await notificationsOf('alice')).find((n) => n.type === 1 && n.name === 'Dave');
  assert.ok(asked);
  assert.equal(asked.msg_plain, 'Dave wants to connect with you');
  const masto = bearerFetch(t, await mastodonToken(t, await webLogin(t, 'alice'), { channel: 'alice' }));
  const mastodonType = async () => {
    const res = await masto('/api/v1/notifications');
    assert.equal(res.status, 200);
    return ((await res.json()) as { id: string; type: string }[]).find((n) => n.id === String(asked.id))?.type;
  };
  assert.equal(await mastodonType(), 'follow_request');

  const approved = await approve('alice', (await connectionOf('alice', 'dave')).abook_id!);
  assert.equal(approved.status, 200, approved.text);
  const now = (await notificationsOf('alice')).find((n) => n.id === asked.id);
  assert.ok(now, 'the same notification');
  assert.equal(now.msg_plain, 'Dave follows you now: you accepted their request');
  assert.equal(now.seen, false, 'accepting from the connection page leaves it unseen');
  assert.equal(await mastodonType(), 'follow');
  assert.ok(!(await notificationsOf('alice')).some((n) => /wants to connect/.test(n.msg) && n.name === 'Dave'), 'no request left to answer');
});
