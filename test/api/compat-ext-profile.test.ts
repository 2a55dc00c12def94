import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { basic, startHub, type TestHub } from '../helpers/hub.js';

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  t.hub.db.prepare("UPDATE profile SET pdesc = 'Baker', locality = 'Lyon', about = 'I bake [b]bread[/b]', keywords = 'bread,cake' WHERE uid = ?").run(t.channels.alice!.channel_id);
});
after(() => t.stop());

const xml = new XMLParser({ ignoreAttributes: false, parseTagValue: false });
const profileId = (nick: string) => (t.hub.db.prepare('SELECT id FROM profile WHERE uid = ? AND is_default = 1').get(t.channels[nick]!.channel_id) as { id: number }).id;

test('ext/profile/show lists the user\'s profiles with the owner', async () => {
  const res = await t.request('/api/ext/profile/show.json', { as: 'alice' });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.multi_profiles, false);
  assert.equal(typeof body.global_dir, 'string');
  assert.equal(body.friendica_owner.screen_name, 'alice');
  assert.equal('uid' in body.friendica_owner, false);
  assert.equal(body.profiles.length, 1);
  const p = body.profiles[0];
  assert.equal(p.profile_id, profileId('alice'));
  assert.equal(p.is_default, true);
  assert.equal(p.description, 'Baker');
  assert.equal(p.city, 'Lyon');
  assert.equal(p.about, 'I bake [b]bread[/b]');
  assert.equal(p.public_keywords, 'bread,cake');
  assert.equal(typeof p.hide_friends, 'boolean');
  assert.ok(p.profile_photo.startsWith(t.url));
  assert.deepEqual(p.users, []);
  assert.deepEqual(p.custom_fields, []);
});

test('profile_id selects one of the user\'s profiles; any other id is a 400', async () => {
  const one = await (await t.request(`/api/ext/profile/show.json?profile_id=${profileId('alice')}`, { as: 'alice' })).json();
  assert.deepEqual(one.profiles.map((p: { profile_id: number }) => p.profile_id), [profileId('alice')]);
  for (const id of [String(profileId('bob')), '999999', 'abc']) {
    const res = await t.request(`/api/ext/profile/show.json?profile_id=${id}`, { as: 'alice' });
    assert.equal(res.status, 400, id);
    assert.equal((await res.json()).error, 'profile_id not found');
  }
});

test('XML root friendica_profiles with friendica:owner and profiles/profile', async () => {
  const res = await t.request('/api/1.1/ext/profile/show.xml', { as: 'bob' });
  assert.equal(res.status, 200);
  const doc = xml.parse(await res.text()).friendica_profiles;
  assert.equal(doc.multi_profiles, 'false');
  assert.equal(doc['friendica:owner'].screen_name, 'bob');
  assert.equal(doc.profiles.profile.profile_id, String(profileId('bob')));
});

test('403 without credentials or with wrong ones; GET only', async () => {
  for (const headers of [{}, { authorization: basic('alice', 'wrong') }] as Record<string, string>[]) {
    const res = await fetch(`${t.url}/api/ext/profile/show.json`, { headers });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).code, '403 Forbidden');
  }
  const x = await fetch(`${t.url}/api/ext/profile/show.xml`);
  assert.equal(x.status, 403);
  assert.equal(xml.parse(await x.text()).status.code, '403 Forbidden');
  const post = await t.request('/api/ext/profile/show.json', { as: 'alice', method: 'POST' });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
});
