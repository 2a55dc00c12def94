import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call, fails, ok, parseXml } from '../helpers/compat.js';
import { addGroupMember, getGroup } from '../../server/store/groups.js';
import { nowDb } from '../../server/util/time.js';

let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
});
after(() => t.stop());

test('lists: create, ownerships, update, destroy', async () => {
  const made = await ok(t, '/api/lists/create.json', { as: 'alice', form: { name: 'Family' } });
  assert.equal(made.name, 'Family');
  assert.equal(made.id_str, String(made.id));
  assert.equal(made.mode, 'private');
  assert.equal(made.user.screen_name, 'alice');
  assert.equal(made.member_count, 0);
  const pub = await ok(t, '/api/lists/create.json', { as: 'alice', form: { name: 'Work', mode: 'public' } });
  assert.equal(pub.mode, 'public');
  await fails(t, '/api/lists/create.json', 400, { as: 'alice', form: { name: 'Family' } });
  await fails(t, '/api/lists/create.json', 400, { as: 'alice', form: { name: '  ' } });
  addGroupMember(t.hub.db, t.channels.alice!.channel_id, made.id, t.channels.bob!.channel_hash);

  const own = await ok(t, '/api/lists/ownerships.json', { as: 'alice' });
  assert.deepEqual(own.lists.map((l: any) => [l.name, l.member_count]), [['Family', 1], ['Work', 0]]);
  assert.equal(own.next_cursor, 0);
  assert.deepEqual((await ok(t, '/api/lists/ownerships.json', { as: 'bob' })).lists, []);
  const xml = parseXml((await call(t, '/api/lists/ownerships.xml', { as: 'alice' })).text);
  assert.deepEqual([xml.lists_list.lists.list].flat().map((l: any) => l.name), ['Family', 'Work']);

  const renamed = await ok(t, '/api/lists/update.json', { as: 'alice', form: { list_id: String(made.id), name: 'Kin', mode: 'public' } });
  assert.deepEqual([renamed.name, renamed.mode], ['Kin', 'public']);
  assert.equal(getGroup(t.hub.db, t.channels.alice!.channel_id, made.id)!.gname, 'Kin');
  await fails(t, '/api/lists/update.json', 400, { as: 'alice', form: { name: 'x' } });
  await fails(t, '/api/lists/update.json', 400, { as: 'alice', form: { list_id: String(made.id), name: 'Work' } });
  await fails(t, '/api/lists/update.json', 404, { as: 'bob', form: { list_id: String(made.id), name: 'Mine' } });
  await fails(t, '/api/lists/update.json', 400, { as: 'alice', form: { list_id: String(made.id), mode: 'secret' } });

  await fails(t, '/api/lists/destroy.json', 404, { as: 'bob', form: { list_id: String(made.id) } });
  const gone = await ok(t, '/api/lists/destroy.json', { as: 'alice', form: { list_id: String(made.id) } });
  assert.deepEqual([gone.name, gone.member_count], ['Kin', 1], 'answered as it was');
  assert.equal(getGroup(t.hub.db, t.channels.alice!.channel_id, made.id), undefined);
  await fails(t, '/api/lists/destroy.json', 404, { as: 'alice', form: { list_id: String(made.id) } });
  await fails(t, '/api/lists/destroy.json', 400, { as: 'alice', method: 'POST' });
  const x = await call(t, '/api/lists/create.xml', { as: 'alice', form: { name: 'Xml list' } });
  assert.equal(parseXml(x.text).list.name, 'Xml list');
});

test('saved_searches/list: the channel\'s saved searches', async () => {
  assert.deepEqual(await ok(t, '/api/saved_searches/list.json', { as: 'bob' }), []);
  t.hub.db.prepare('INSERT INTO saved_search (uid, term, created) VALUES (?, ?, ?)').run(t.channels.bob!.channel_id, '#hearth', nowDb());
  const list = await ok(t, '/api/saved_searches/list.json', { as: 'bob' });
  assert.equal(list.length, 1);
  assert.deepEqual([list[0].name, list[0].query, list[0].position, list[0].id_str], ['#hearth', '#hearth', null, String(list[0].id)]);
  assert.match(list[0].created_at, /\+0000 \d{4}$/);
  assert.deepEqual(await ok(t, '/api/saved_searches/list.json', { as: 'alice' }), []);
  const xml = parseXml((await call(t, '/api/saved_searches/list.xml', { as: 'bob' })).text);
  assert.equal(xml.saved_searches.saved_search.query, '#hearth');
});

test('compat/config and compat/version answer anonymous callers', async () => {
  const c = await ok(t, '/api/compat/config.json');
  assert.equal(c.site.server, '127.0.0.1');
  assert.equal(c.site.fancy, true);
  assert.equal(c.site.ssl, '0');
  assert.equal(c.site.email, '', 'the owner address is not published');
  assert.equal(typeof c.site.textlimit, 'string');
  assert.equal(c.site.friendica.FRIENDICA_PLATFORM, 'Hearth');
  const x = parseXml((await call(t, '/api/compat/config.xml')).text);
  assert.equal(x.config['@_xmlns'], undefined);
  assert.equal(x.config.site.closed, 'true');
  assert.equal(x.config.site.friendica.FRIENDICA_PLATFORM, 'Hearth');
  const v = await call(t, '/api/compat/version.json');
  assert.equal(v.text, '"0.9.7"');
  assert.match(v.res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(parseXml((await call(t, '/api/compat/version.xml')).text).version, '0.9.7');
  assert.equal((await call(t, '/api/1.1/compat/version.json')).text, '"0.9.7"');
});
