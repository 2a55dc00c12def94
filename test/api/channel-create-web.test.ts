import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';

let t: TestHub;
let web: WebSession;
let csrf: string;

before(async () => {
  t = await startHub({ channels: ['alice'] });
  web = await webLogin(t, 'alice');
  csrf = ((await (await web.get('/session')).json()) as { csrf: string }).csrf;
});

after(() => t.stop());

const create = (fields: Record<string, string>, headers: Record<string, string> = { 'x-csrf-token': csrf }) => web.post('/session/channels', fields, headers);
const session = async () => (await (await web.get('/session')).json()) as { channel: { nick: string }; channels: { nick: string; name: string }[] };

test('POST /session/channels adds a channel to the account and switches the session to it', async () => {
  const res = await create({ nick: 'Family', name: ' Our family ' });
  assert.equal(res.status, 201, await res.clone().text());
  assert.deepEqual(await res.json(), { success: true, channel: 'family', name: 'Our family' });
  const s = await session();
  assert.equal(s.channel.nick, 'family');
  assert.deepEqual(s.channels.map((c) => c.nick).sort(), ['alice', 'family']);
  // The new channel logs in with the account's password and has an empty stream of its own.
  const timeline = await t.request('/api/statuses/home_timeline', { as: 'family' });
  assert.equal(timeline.status, 200);
  assert.deepEqual(await timeline.json(), []);
});

test('bad input is a 4xx that says why, and creates nothing', async () => {
  const cases: Array<[Record<string, string>, number, RegExp]> = [
    [{ nick: '', name: 'x' }, 400, /nickname is required/],
    [{ nick: '9lives', name: 'x' }, 400, /2 to 32 characters/],
    [{ nick: 'a b', name: 'x' }, 400, /2 to 32 characters/],
    [{ nick: 'admin', name: 'x' }, 400, /reserved/],
    [{ nick: 'alice', name: 'x' }, 409, /already taken/],
    [{ nick: 'longname', name: 'x'.repeat(300) }, 400, /too long/],
    [{ nick: 'x'.repeat(300), name: 'x' }, 400, /too long/],
  ];
  for (const [fields, status, message] of cases) {
    const res = await create(fields);
    assert.equal(res.status, status, JSON.stringify(fields));
    assert.match(await res.text(), message);
  }
  assert.deepEqual((await session()).channels.map((c) => c.nick).sort(), ['alice', 'family']);
});

test('attacker: no channel is created without the session, its CSRF token, or from another site', async () => {
  assert.equal((await fetch(`${t.url}/session/channels`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'nick=anon' })).status, 401);
  assert.equal((await create({ nick: 'nocsrf' }, {})).status, 401);
  assert.equal((await create({ nick: 'wrongcsrf' }, { 'x-csrf-token': 'x' + csrf })).status, 401);
  const crossSite = await create({ nick: 'crosssite' }, { 'x-csrf-token': csrf, origin: 'https://evil.example' });
  assert.ok(crossSite.status === 403 || crossSite.status === 401, `cross-site answered ${crossSite.status}`);
  // Basic credentials of a channel are API credentials, not a browser session.
  assert.equal((await t.request('/session/channels', { as: 'alice', method: 'POST', body: new URLSearchParams({ nick: 'viabasic' }) })).status, 401);
  assert.deepEqual((await session()).channels.map((c) => c.nick).sort(), ['alice', 'family']);
});
