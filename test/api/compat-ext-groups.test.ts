import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { startHub, type TestHub } from '../helpers/hub.js';
import { connect } from '../../server/services/connections.js';

let t: TestHub;
const ids: Record<string, number> = {};
before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave'] });
  const { alice, bob, carol } = t.channels;
  for (const other of [bob!, carol!]) {
    connect(t.hub, alice!, other.channel_hash);
    connect(t.hub, other, alice!.channel_hash);
  }
  for (const nick of Object.keys(t.channels)) {
    ids[nick] = (t.hub.db.prepare('SELECT xchan_id FROM xchan WHERE xchan_hash = ?').get(t.channels[nick]!.channel_hash) as { xchan_id: number }).xchan_id;
  }
});
after(() => t.stop());

const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false });

interface Entry {
  name: string;
  gid: number;
  user: { screen_name: string; id: number; cid: number }[];
}
interface Result {
  success: boolean;
  gid: number;
  name: string;
  status: string;
  'wrong users': unknown[];
}

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text) as T;
}

function form(path: string, fields: Record<string, string>, method = 'POST') {
  return t.request(path, { as: 'alice', method, body: new URLSearchParams(fields) });
}

function rawJson(path: string, doc: unknown, method = 'POST') {
  return t.request(path, { as: 'alice', method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(doc) });
}

async function show(gid?: number): Promise<Entry[]> {
  return json<Entry[]>(await t.request(`/api/ext/group_show.json${gid ? `?gid=${gid}` : ''}`, { as: 'alice' }));
}

const members = (e: Entry | undefined) => (e?.user ?? []).map((u) => u.screen_name).sort();

test('group_create takes the Friendica form field `json`; group_show lists the group with its users', async () => {
  const res = await json<Result>(await form('/api/ext/group_create.json', { name: 'Friends', json: JSON.stringify({ user: [{ cid: ids.bob }, { cid: ids.carol }] }) }));
  assert.equal(res.success, true);
  assert.equal(typeof res.gid, 'number');
  assert.deepEqual({ ...res, gid: 0 }, { success: true, gid: 0, name: 'Friends', status: 'ok', 'wrong users': [] });
  const all = await show();
  const entry = all.find((g) => g.gid === res.gid)!;
  assert.equal(entry.name, 'Friends');
  assert.deepEqual(members(entry), ['bob', 'carol']);
  assert.equal(typeof entry.user[0]!.id, 'number');
  assert.deepEqual((await show(res.gid)).map((g) => g.gid), [res.gid]);
});

test('a raw JSON body works as well, as an object or an array holding one; `id` names members too', async () => {
  const a = await json<Result>(await rawJson('/api/ext/group_create.json', { name: 'Raw object', user: [{ id: ids.bob }] }));
  assert.equal(a.status, 'ok');
  assert.deepEqual(members((await show(a.gid))[0]), ['bob']);
  const b = await json<Result>(await rawJson('/api/ext/group_create.json', [{ name: 'Raw array', gid: 0, user: [{ cid: String(ids.carol) }] }], 'PUT'));
  assert.equal(b.status, 'ok');
  assert.deepEqual(members((await show(b.gid))[0]), ['carol']);
});

test('users who are not connections are reported as wrong users', async () => {
  const res = await json<Result>(await form('/api/ext/group_create.json', { name: 'Mixed', json: JSON.stringify({ user: [{ cid: ids.bob }, { cid: ids.dave }, { cid: 999999 }, { cid: 'x' }] }) }));
  assert.equal(res.status, 'missing user');
  assert.deepEqual(res['wrong users'], [ids.dave, 999999, 'x']);
  assert.deepEqual(members((await show(res.gid))[0]), ['bob']);
});

test('group_update replaces the membership with the posted users (round trip through group_show)', async () => {
  const created = await json<Result>(await form('/api/ext/group_create.json', { name: 'Team', json: JSON.stringify({ user: [{ cid: ids.bob }, { cid: ids.carol }] }) }));
  const [entry] = await show(created.gid);
  // Post back the group_show entry without carol, as a client editing the list would.
  const edited = { ...entry!, user: entry!.user.filter((u) => u.screen_name !== 'carol') };
  const res = await json<Result>(await form('/api/ext/group_update.json', { gid: String(created.gid), name: 'Team', json: JSON.stringify(edited) }));
  assert.deepEqual(res, { success: true, gid: created.gid, name: 'Team', status: 'ok', 'wrong users': [] });
  assert.deepEqual(members((await show(created.gid))[0]), ['bob']);

  const again = await json<Result>(await rawJson('/api/ext/group_update.json', { gid: created.gid, name: 'Team', user: [{ cid: ids.carol }, { cid: ids.dave }] }));
  assert.equal(again.status, 'missing user');
  assert.deepEqual(again['wrong users'], [ids.dave]);
  assert.deepEqual(members((await show(created.gid))[0]), ['carol']);

  const emptied = await json<Result>(await form('/api/ext/group_update.json', { gid: String(created.gid), name: 'Team', json: '{"user":[]}' }));
  assert.equal(emptied.status, 'ok');
  assert.deepEqual(members((await show(created.gid))[0]), []);

  // Only the cid of group_show's user objects, as Friendica clients send it.
  const byCid = await json<Result>(await form('/api/ext/group_update.json', { gid: String(created.gid), name: 'Team', json: JSON.stringify({ user: entry!.user.map((u) => ({ cid: u.cid })) }) }));
  assert.equal(byCid.status, 'ok');
  assert.deepEqual(members((await show(created.gid))[0]), ['bob', 'carol']);

  const renamed = await json<Result>(await form('/api/ext/group_update.json', { gid: String(created.gid), name: 'Crew', json: JSON.stringify({ user: [{ cid: ids.bob }] }) }));
  assert.equal(renamed.name, 'Crew');
  assert.equal((await show(created.gid))[0]!.name, 'Crew');
});

test('group_create and group_update refuse bad input', async () => {
  const cases: [string, Record<string, string>, number, string][] = [
    ['/api/ext/group_create.json', { json: '{"user":[]}' }, 400, 'group name not specified'],
    ['/api/ext/group_create.json', { name: 'Friends' }, 400, 'group name already exists'],
    ['/api/ext/group_create.json', { name: 'Broken', json: '{"user": [' }, 400, 'json is not valid JSON'],
    ['/api/ext/group_create.json', { name: 'Broken', json: '{"user": 5}' }, 400, 'json: user must be an array of users'],
    ['/api/ext/group_update.json', { name: 'Friends' }, 400, 'gid not specified'],
    ['/api/ext/group_update.json', { gid: '1' }, 400, 'group name not specified'],
    ['/api/ext/group_update.json', { gid: 'abc', name: 'x' }, 400, 'gid must be a number'],
    ['/api/ext/group_update.json', { gid: '999999', name: 'x' }, 404, 'gid not available'],
  ];
  for (const [path, fields, status, message] of cases) {
    const res = await form(path, fields);
    assert.equal(res.status, status, `${path} ${JSON.stringify(fields)}`);
    assert.equal((await res.json()).error, message);
  }
  // Bob cannot change alice's groups.
  const [friends] = (await show()).filter((g) => g.name === 'Friends');
  const bob = await t.request('/api/ext/group_update.json', { as: 'bob', method: 'POST', body: new URLSearchParams({ gid: String(friends!.gid), name: 'Friends', json: '{"user":[]}' }) });
  assert.equal(bob.status, 404);
  assert.deepEqual(members((await show(friends!.gid))[0]), ['bob', 'carol']);
});

test('group_delete needs the matching gid and name; a deleted group can be reactivated', async () => {
  const created = await json<Result>(await form('/api/ext/group_create.json', { name: 'Temp', json: JSON.stringify({ user: [{ cid: ids.bob }] }) }));
  const gid = String(created.gid);
  const cases: [Record<string, string>, number, string][] = [
    [{ gid }, 400, 'gid or name not specified'],
    [{ name: 'Temp' }, 400, 'gid or name not specified'],
    [{ gid, name: 'Other' }, 400, 'wrong group name'],
    [{ gid: '999999', name: 'Temp' }, 404, 'gid not available'],
  ];
  for (const [fields, status, message] of cases) {
    const res = await form('/api/ext/group_delete.json', fields);
    assert.equal(res.status, status, JSON.stringify(fields));
    assert.equal((await res.json()).error, message);
  }
  assert.equal((await show(created.gid)).length, 1, 'still there');
  const del = await json<Result>(await form('/api/ext/group_delete.json', { gid, name: 'Temp' }, 'DELETE'));
  assert.deepEqual(del, { success: true, gid: created.gid, name: 'Temp', status: 'deleted', 'wrong users': [] });
  assert.equal((await t.request(`/api/ext/group_show.json?gid=${gid}`, { as: 'alice' })).status, 404);
  assert.ok(!(await show()).some((g) => g.name === 'Temp'));

  const revived = await json<Result>(await form('/api/ext/group_create.json', { name: 'Temp', json: JSON.stringify({ user: [{ cid: ids.carol }] }) }));
  assert.equal(revived.status, 'reactivated');
  assert.equal(revived.gid, created.gid);
  assert.deepEqual(members((await show(revived.gid))[0]), ['carol'], 'the old members are gone');
});

test('XML forms of group_show and the operation results', async () => {
  const res = await t.request('/api/ext/group_show.xml', { as: 'alice' });
  assert.equal(res.status, 200);
  const doc = xml.parse(await res.text());
  const groups = [doc.groups.group].flat();
  const friends = groups.find((g: { name: string }) => g.name === 'Friends');
  assert.ok(friends.gid);
  const users = [friends.users.user].flat().map((u: { screen_name: string }) => u.screen_name).sort();
  assert.deepEqual(users, ['bob', 'carol']);

  const created = xml.parse(await (await form('/api/ext/group_create.xml', { name: 'Xml group', json: JSON.stringify({ user: [{ cid: ids.dave }] }) })).text());
  assert.equal(created.group_create.status, 'missing user');
  assert.equal(created.group_create.success, 'true');
  assert.equal(String(created.group_create.wrong_users.user), String(ids.dave));

  const err = await form('/api/ext/group_delete.xml', { gid: '1' });
  assert.equal(err.status, 400);
  assert.equal(xml.parse(await err.text()).status.error, 'gid or name not specified');
  const badGid = await t.request('/api/ext/group_show.xml?gid=abc', { as: 'alice' });
  assert.equal(badGid.status, 400);
});

test('methods and credentials', async () => {
  const wrong: [string, string][] = [['/api/ext/group_create.json', 'GET'], ['/api/ext/group_update.json', 'GET'], ['/api/ext/group_update.json', 'PUT'], ['/api/ext/group_delete.json', 'GET'], ['/api/ext/group_delete.json', 'PUT']];
  for (const [path, method] of wrong) assert.equal((await t.request(path, { as: 'alice', method })).status, 405, `${method} ${path}`);
  assert.equal((await t.request('/api/ext/group_show.json', { as: 'alice', method: 'POST' })).status, 200);
  for (const path of ['/api/ext/group_show.json', '/api/ext/group_create.json', '/api/ext/group_update.json', '/api/ext/group_delete.json']) {
    const res = await fetch(t.url + path, { method: 'POST', body: new URLSearchParams({ name: 'x', gid: '1' }) });
    assert.equal(res.status, 401, path);
  }
  assert.deepEqual(await json(await t.request('/api/1.1/ext/group_show.json', { as: 'dave' })), []);
});
