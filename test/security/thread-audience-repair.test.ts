import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHub, type TestHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { connect } from '../../server/services/connections.js';
import { listMigrations, migrate } from '../../server/db/open.js';

// Data written before issue 16's fix: a thread top made private while its comments and media stayed public.
let t: TestHub;
before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  connect(t.hub, t.channels.alice!, t.channels.bob!.channel_hash);
  connect(t.hub, t.channels.bob!, t.channels.alice!.channel_hash);
});
after(() => t.stop());

async function native(as: string, body: FormData | URLSearchParams) {
  const res = await t.request('/api/z/1.0/item/update', { as, method: 'POST', body });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { item: Record<string, string> }).item;
}

test('migration 019 gives a private thread top\'s comments and media its audience', async () => {
  const png = await makeImage(30, 30, 'png');
  const top = await native('alice', form({ body: 'Zwombat top' }, { media: { data: png, name: 'w.png', type: 'image/png' } }));
  const comment = await native('bob', new URLSearchParams({ body: 'Zwombat comment', parent: top.id! }));
  await native('alice', new URLSearchParams({ post_id: top.id!, body: top.body!, contact_allow: t.channels.bob!.channel_hash }));
  const photo = /\/photo\/([0-9a-f]{64})-\d+\.png/.exec(top.body!)!;
  // What the edit left before the fix.
  const db = t.hub.db;
  db.prepare("UPDATE item SET allow_cid = '', item_private = 0 WHERE parent = ? AND id != ?").run(Number(top.id), Number(top.id));
  db.prepare("UPDATE attach SET allow_cid = '' WHERE hash = ?").run(photo[1]);
  db.prepare("UPDATE photo SET allow_cid = '' WHERE resource_id = ?").run(photo[1]);
  db.prepare("UPDATE item SET allow_cid = '', item_private = 0 WHERE resource_type = 'photo' AND resource_id = ?").run(photo[1]);
  const readable = async () => [
    (await fetch(`${t.url}/api/statuses/show/${comment.id}.json`, { headers: { authorization: 'Basic ' + Buffer.from('bob:correct horse').toString('base64') } })).status,
    (await fetch(`${t.url}${photo[0]}`)).status,
    (await fetch(`${t.url}/attach/${photo[1]}`)).status,
  ];
  assert.equal((await readable())[1], 200, 'the photo was left public');

  db.pragma('user_version = 18');
  assert.deepEqual(migrate(db, listMigrations().filter((m) => m.version === 19)), [19]);
  const [, photoStatus, attachStatus] = await readable();
  assert.notEqual(photoStatus, 200);
  assert.notEqual(attachStatus, 200);
  const row = db.prepare('SELECT allow_cid, item_private FROM item WHERE id = ?').get(Number(comment.id)) as { allow_cid: string; item_private: number };
  assert.equal(row.allow_cid, `<${t.channels.bob!.channel_hash}>`);
  assert.equal(row.item_private, 1);
  const asBob = await t.request(photo[0], { as: 'bob' });
  assert.equal(asBob.status, 200, 'the audience still sees it');
});
