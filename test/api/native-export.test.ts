import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { assertError, call, post, seedPosts } from '../helpers/native.js';
import { connect } from '../../server/services/connections.js';
import { createItem } from '../../server/services/items.js';
import { channelExportChunks, exportSections } from '../../server/services/channel-export.js';
import { addGroupMember, insertGroup } from '../../server/store/groups.js';
import { setAbconfig } from '../../server/store/connections.js';
import { setPConfig } from '../../server/store/config.js';
import { toDbDate } from '../../server/util/time.js';
import { insertItem, ITEM_DEFAULTS, updateItem } from '../../server/store/items.js';
import { VERB } from '../../server/services/verbs.js';
import { setProfilePhoto } from '../../server/services/photos.js';
import { sendDirectMessage } from '../../server/services/mail.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import sharp from 'sharp';

let t: TestHub;

const DEFAULT_KEYS = [
  'compatibility', 'relocate', 'channel', 'profile', 'abook', 'xchan', 'hubloc', 'atoken', 'group', 'group_member', 'config', 'term',
  'obj', 'likes', 'app', 'sysapp', 'chatroom', 'event', 'event_item', 'menu', 'webpages', 'conv', 'mail', 'wiki',
];

function monthsAgo(n: number): string {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - n);
  return toDbDate(d);
}

before(async () => {
  t = await startHub({ channels: ['alice', 'bob'] });
  const { alice, bob } = t.channels;
  connect(t.hub, alice!, bob!.channel_hash);
  connect(t.hub, bob!, alice!.channel_hash);
  const g = insertGroup(t.hub.db, alice!.channel_id, 'export-group', 'Close friends');
  addGroupMember(t.hub.db, alice!.channel_id, g, bob!.channel_hash);
  setAbconfig(t.hub.db, alice!.channel_id, bob!.channel_hash, 'system', 'note', 'old friend');
  setPConfig(t.hub.db, alice!.channel_id, 'system', 'itemspage', '20');
  await post(t, 'alice', { body: 'recent post #export' });
  await post(t, 'alice', { body: 'two months old', created: monthsAgo(2) });
  await post(t, 'alice', { body: 'four months old', created: monthsAgo(4) });
  await post(t, 'alice', { body: 'my home page', webpage: '3', pagetitle: 'home' });
  await post(t, 'bob', { body: 'bob\'s own post' });
});
after(() => t.stop());

test('channel/export/basic without sections returns the default sections, streamed as JSON', async () => {
  const r = await call(t, 'alice', 'channel/export/basic');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^application\/json/);
  assert.deepEqual(Object.keys(r.json), DEFAULT_KEYS);
  const e = r.json;
  assert.equal(e.compatibility.project, 'hubzilla');
  assert.ok(e.compatibility.version.localeCompare('6.3.4', undefined, { numeric: true }) > 0, 'importers need a version above 6.3.4');
  assert.deepEqual(e.relocate, { channel_address: 'alice', url: t.url });
  assert.equal(e.channel.channel_address, 'alice');
  assert.equal(e.channel.channel_hash, t.channels.alice!.channel_hash);
  assert.equal(e.profile.length, 1);
  assert.equal(e.profile[0].is_default, '1');
  const bobHash = t.channels.bob!.channel_hash;
  const bobAbook = e.abook.find((a: { abook_xchan: string }) => a.abook_xchan === bobHash);
  assert.deepEqual(bobAbook.abconfig.filter((c: { cat: string }) => c.cat === 'system').map((c: { v: string }) => c.v), ['old friend']);
  assert.equal(bobAbook.abconfig.filter((c: { cat: string }) => c.cat === 'my_perms').length, 17, 'every permission granted or not');
  assert.ok(e.abook.some((a: { abook_self: string }) => a.abook_self === '1'));
  assert.deepEqual(e.xchan.map((x: { xchan_addr: string }) => x.xchan_addr).sort(), [`alice@${new URL(t.url).host}`, `bob@${new URL(t.url).host}`]);
  assert.deepEqual(e.group.map((g: { gname: string }) => g.gname), ['Close friends']);
  assert.deepEqual(e.group_member.map((m: { xchan: string }) => m.xchan), [bobHash]);
  assert.ok(e.config.some((c: { cat: string; k: string; v: string }) => c.cat === 'system' && c.k === 'itemspage' && c.v === '20'));
  assert.deepEqual(e.webpages.map((i: { body: string }) => i.body), ['my home page']);
  assert.equal(e.webpages[0].item_type, '3');
  assert.deepEqual(e.hubloc.map((h: { hubloc_hash: string }) => h.hubloc_hash).sort(), [t.channels.alice!.channel_hash, bobHash].sort());
  for (const empty of ['atoken', 'obj', 'likes', 'app', 'sysapp', 'chatroom', 'event', 'event_item', 'menu', 'wiki', 'mail', 'conv']) {
    assert.deepEqual(e[empty], [], `${empty} has no data in this hub`);
  }
  assert.equal('item' in e, false, 'posts are not part of the default export');
});

test('the export never contains secrets', async () => {
  const r = await call(t, 'alice', 'channel/export/basic?posts=true');
  assert.equal('channel_prvkey' in r.json.channel, false);
  assert.equal('channel_passwd_reset' in r.json.channel, false);
  assert.doesNotMatch(r.text, /PRIVATE KEY/);
  assert.doesNotMatch(r.text, /scrypt\$/);
  assert.doesNotMatch(r.text, /account_password/);
});

test('posts=true adds three months of the channel\'s posts in the backup form', async () => {
  const r = await call(t, 'alice', 'channel/export/basic?posts=true');
  assert.deepEqual(Object.keys(r.json), [...DEFAULT_KEYS, 'item']);
  const items = r.json.item as Record<string, any>[];
  assert.deepEqual(items.map((i) => i.body), ['two months old', 'recent post #export']);
  const recent = items[1]!;
  assert.equal(recent.type, 'activity');
  assert.equal(typeof recent.id, 'string');
  assert.equal(recent.revision, '0');
  assert.equal(recent.item_wall, '1');
  assert.equal(recent.owner.address, `alice@${new URL(t.url).host}`);
  assert.deepEqual(recent.tags, [{ tag: 'export', url: `${t.url}/search?tag=export`, type: 'hashtag' }]);
});

test('sections picks what to export; unknown names are ignored', async () => {
  const ch = await call(t, 'alice', 'channel/export/basic?sections=channel');
  assert.deepEqual(Object.keys(ch.json), ['compatibility', 'relocate', 'channel', 'profile']);
  const two = await call(t, 'alice', 'channel/export/basic?sections=config,%20apps,nonsense');
  assert.deepEqual(Object.keys(two.json), ['compatibility', 'relocate', 'config', 'term', 'obj', 'likes', 'app', 'sysapp']);
  const items = await call(t, 'alice', 'channel/export/basic?sections=items');
  assert.deepEqual(Object.keys(items.json), ['compatibility', 'relocate', 'item']);
  const withPosts = await call(t, 'alice', 'channel/export/basic?sections=channel&posts=1');
  assert.ok(withPosts.json.item.length === 2 && 'abook' in withPosts.json);
  assertError(await call(t, 'alice', 'channel/export/basic?posts=maybe'), 400, /posts/);
  assertError(await call(t, undefined, 'channel/export/basic'), 401);
});

test('the export is one snapshot read on its own connection: writes go on while it streams', async () => {
  const t2 = await startHub({ channels: ['zoe'] });
  try {
    const zoe = t2.channels.zoe!;
    seedPosts(t2.hub, zoe, 500);
    const chunks = channelExportChunks(t2.hub, zoe.channel_id, exportSections([], true));
    const first = chunks.next();
    assert.equal(first.done, false);
    assert.ok(first.value.includes('"item":['), 'the first chunk ends inside the list of posts');
    // The hub's own connection takes writes while the export is in the middle of its posts.
    const written = createItem(t2.hub, zoe, { body: 'written during the export' });
    assert.ok(written.id > 0);
    let text = first.value;
    for (const c of chunks) text += c;
    const exported = JSON.parse(text);
    assert.equal(exported.item.length, 500);
    assert.ok(!text.includes('written during the export'), 'the export shows the data as it was when it began');
    const again = await call(t2, 'zoe', 'channel/export/basic?posts=true');
    assert.equal(again.json.item.length, 501);
  } finally {
    await t2.stop();
  }
});

test('item/export_page pages through the channel\'s items from page 0 until item is missing', async () => {
  const t2 = await startHub({ channels: ['yann', 'xena'] });
  try {
    seedPosts(t2.hub, t2.channels.yann!, 25, { end: new Date('2024-06-01T00:00:00Z'), body: (i) => `post ${i}` });
    seedPosts(t2.hub, t2.channels.xena!, 3);
    const pages = [];
    for (let page = 0; ; page++) {
      const r = await call(t2, 'yann', `item/export_page?records=10&page=${page}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.relocate, { channel_address: 'yann', url: t2.url });
      assert.equal(r.json.items_total, '25');
      assert.equal(r.json.items_page, '10');
      if (!r.json.item) break;
      pages.push(r.json.item.map((i: { body: string }) => i.body));
    }
    assert.deepEqual(pages.map((p) => p.length), [10, 10, 5]);
    assert.deepEqual(pages.flat(), Array.from({ length: 25 }, (_, i) => `post ${i}`));
    const first = (await call(t2, 'yann', 'item/export_page')).json;
    assert.equal(first.items_page, '10');
    assert.equal(first.item[0].uid, String(t2.channels.yann!.channel_id));
    assert.equal(first.item[0].id, first.item[0].parent);
  } finally {
    await t2.stop();
  }
});

test('item/export_page filters by since and until; bad values are 400', async () => {
  const t2 = await startHub({ channels: ['walt'] });
  try {
    seedPosts(t2.hub, t2.channels.walt!, 10, { end: new Date('2024-01-01T00:00:10Z'), body: (i) => `p${i}` });
    // Created 2024-01-01 00:00:00 .. 00:00:09, one second apart.
    const r = await call(t2, 'walt', `item/export_page?since=${encodeURIComponent('2024-01-01 00:00:03')}&until=${encodeURIComponent('2024-01-01 00:00:05')}`);
    assert.equal(r.json.items_total, '3');
    assert.deepEqual(r.json.item.map((i: { body: string }) => i.body), ['p3', 'p4', 'p5']);
    const big = await call(t2, 'walt', 'item/export_page?records=5000');
    assert.equal(big.json.items_page, '1000');
    assertError(await call(t2, 'walt', 'item/export_page?since=2024-02-01&until=2024-01-01'), 400, /until/);
    assertError(await call(t2, 'walt', 'item/export_page?since=whenever'), 400, /since/);
    assertError(await call(t2, 'walt', 'item/export_page?page=x'), 400, /page/);
    assertError(await call(t2, undefined, 'item/export_page'), 401);
  } finally {
    await t2.stop();
  }
});

test('item/export_page counts and pages across months, since and until anywhere, as items are added, changed and removed', async () => {
  const t2 = await startHub({ channels: ['vera', 'xavi'] });
  try {
    const vera = t2.channels.vera!;
    const db = t2.hub.db;
    // What the export covers: wall posts and items of other types. Not: received posts, deleted
    // items, the hidden items of photos.
    const exported: { id: number; created: string }[] = [];
    const add = (created: string, fields: Partial<Parameters<typeof insertItem>[1]> = {}) => {
      const mid = `${created}-${Math.random()}`;
      return insertItem(db, {
        ...ITEM_DEFAULTS, uid: vera.channel_id, aid: vera.channel_account_id, mid, parent_mid: mid, thr_parent: mid, created, edited: created,
        owner_xchan: vera.channel_hash, author_xchan: vera.channel_hash, body: `at ${created}`, verb: VERB.POST, item_wall: 1, item_thread_top: 1, ...fields,
      });
    };
    const days = ['2023-12-31 23:59:59', '2024-01-01 00:00:00', '2024-01-15 12:00:00', '2024-01-31 23:59:59', '2024-02-01 00:00:00', '2024-02-10 08:00:00',
      '2024-04-30 10:00:00', '2024-05-01 00:00:01', '2024-05-20 00:00:00', '2024-07-04 09:00:00'];
    for (const [i, created] of days.entries()) {
      // Two at the same time, ordered by id.
      for (let k = 0; k < (i % 3 === 0 ? 2 : 1); k++) exported.push({ id: add(created), created });
      add(created, { item_wall: 0 });
      add(created, { item_deleted: 1 });
      add(created, { resource_type: 'photo', item_hidden: 1 });
    }
    exported.push({ id: add('2024-03-03 03:03:03', { item_wall: 0, item_type: 3 }), created: '2024-03-03 03:03:03' });

    const expected = (since: string, until: string) =>
      exported.filter((e) => e.created >= since && e.created <= until).sort((a, b) => a.created.localeCompare(b.created) || a.id - b.id).map((e) => `at ${e.created}`);
    const ranges: [string, string][] = [
      ['0001-01-01 00:00:00', '2030-01-01 00:00:00'], ['2024-01-01 00:00:00', '2024-01-31 23:59:59'], ['2024-01-15 12:00:00', '2024-05-01 00:00:01'],
      ['2024-01-15 12:00:01', '2024-05-01 00:00:00'], ['2024-02-01 00:00:00', '2024-02-01 00:00:00'], ['2024-03-01 00:00:00', '2024-03-31 23:59:59'],
      ['2023-12-31 23:59:59', '2024-07-04 09:00:00'], ['2024-06-01 00:00:00', '2024-06-30 00:00:00'],
    ];
    const check = async () => {
      for (const [since, until] of ranges) {
        const want = expected(since, until);
        for (const records of [1, 3, 7, 100]) {
          const got: string[] = [];
          for (let page = 0; ; page++) {
            const r = await call(t2, 'vera', `item/export_page?records=${records}&page=${page}&since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`);
            assert.equal(r.json.items_total, String(want.length), `${since}..${until}`);
            if (!r.json.item) break;
            got.push(...r.json.item.map((i: { body: string }) => i.body));
          }
          assert.deepEqual(got, want, `${since}..${until} by ${records}`);
        }
      }
    };
    await check();

    // Deleted, moved to another month, to another channel, made a wall item, removed for good.
    const [a, b, c, d] = exported.splice(1, 4);
    updateItem(db, a!.id, { item_deleted: 1 });
    updateItem(db, b!.id, { created: '2024-06-15 00:00:00' });
    exported.push({ ...b!, created: '2024-06-15 00:00:00' });
    db.prepare('UPDATE item SET body = ? WHERE id = ?').run('at 2024-06-15 00:00:00', b!.id);
    db.prepare('UPDATE item SET uid = ? WHERE id = ?').run(t2.channels.xavi!.channel_id, c!.id);
    db.prepare('DELETE FROM item WHERE id = ?').run(d!.id);
    const received = db.prepare('SELECT id, created FROM item WHERE uid = ? AND item_wall = 0 AND item_type = 0 ORDER BY id LIMIT 1').get(vera.channel_id) as { id: number; created: string };
    updateItem(db, received.id, { item_wall: 1 });
    exported.push(received);
    await check();
  } finally {
    await t2.stop();
  }
});

test('the channel section carries the 300×300 profile photo as base64url', async () => {
  const t2 = await startHub({ channels: ['pia'] });
  try {
    await setProfilePhoto(t2.hub, t2.channels.pia!, await tempUpload(await makeImage(500, 400, 'png'), 'me.png'));
    const r = await call(t2, 'pia', 'channel/export/basic?sections=channel');
    assert.deepEqual(Object.keys(r.json), ['compatibility', 'relocate', 'channel', 'profile', 'photo']);
    assert.equal(r.json.photo.type, 'image/png');
    assert.match(r.json.photo.data, /^[A-Za-z0-9_-]+$/);
    const meta = await sharp(Buffer.from(r.json.photo.data, 'base64url')).metadata();
    assert.deepEqual([meta.width, meta.height], [300, 300]);
  } finally {
    await t2.stop();
  }
});

test('the mail section holds the channel\'s copies of its direct messages and their conversations', async () => {
  const t2 = await startHub({ channels: ['mia', 'ned'] });
  try {
    const { mia, ned } = t2.channels;
    connect(t2.hub, mia!, ned!.channel_hash);
    connect(t2.hub, ned!, mia!.channel_hash);
    sendDirectMessage(t2.hub, mia!, { recipient: ned!.channel_hash, body: 'hello ned', title: 'Hi' });
    const r = await call(t2, 'mia', 'channel/export/basic?sections=mail');
    assert.deepEqual(Object.keys(r.json), ['compatibility', 'relocate', 'conv', 'mail']);
    assert.equal(r.json.mail.length, 1);
    const m = r.json.mail[0];
    assert.equal(m.body, 'hello ned');
    assert.equal(m.from_xchan, mia!.channel_hash);
    assert.equal(m.channel_id, String(mia!.channel_id));
    assert.equal(r.json.conv.length, 1);
    assert.equal(r.json.conv[0].id, m.convid);
    assert.equal(r.json.conv[0].subject, 'Hi');
  } finally {
    await t2.stop();
  }
});

test('events, wikis and web pages of the channel are exported in creation order, kinds and resources of others left out', async () => {
  const t2 = await startHub({ channels: ['vera', 'wes'] });
  try {
    const { vera, wes } = t2.channels;
    const seed = (ch: typeof vera, body: string, created: string, extra: Record<string, unknown>) => {
      const mid = `${body.replace(/\W/g, '-')}@${t2.hub.hostname}`;
      const id = insertItem(t2.hub.db, {
        ...ITEM_DEFAULTS, uid: ch!.channel_id, aid: ch!.channel_account_id, mid, parent_mid: mid, thr_parent: mid, created, edited: created, changed: created,
        owner_xchan: ch!.channel_hash, author_xchan: ch!.channel_hash, body, verb: VERB.POST, item_wall: 1, item_thread_top: 1, ...extra,
      });
      updateItem(t2.hub.db, id, { parent: id });
    };
    seed(vera, 'second event', '2024-03-02 00:00:00', { resource_type: 'event', resource_id: 'e2' });
    seed(vera, 'first event', '2024-03-01 00:00:00', { resource_type: 'event', resource_id: 'e1' });
    seed(vera, 'an eventual thing', '2024-03-03 00:00:00', { resource_type: 'eventual', resource_id: 'e3' });
    seed(vera, 'not an event', '2024-03-04 00:00:00', { resource_type: 'evens', resource_id: 'e4' });
    seed(vera, 'a wiki page', '2024-03-05 00:00:00', { resource_type: 'nwikipage', resource_id: 'w1' });
    seed(vera, 'a deleted event', '2024-03-06 00:00:00', { resource_type: 'event', resource_id: 'e5', item_deleted: 1 });
    seed(vera, 'a layout', '2024-03-08 00:00:00', { item_type: 2 });
    seed(vera, 'a block', '2024-03-07 00:00:00', { item_type: 1 });
    seed(vera, 'a card', '2024-03-09 00:00:00', { item_type: 6 });
    seed(wes, 'an event of wes', '2024-03-01 00:00:00', { resource_type: 'event', resource_id: 'x1' });
    seed(wes, 'a page of wes', '2024-03-01 00:00:00', { item_type: 3 });
    const e = (await call(t2, 'vera', 'channel/export/basic')).json;
    const bodies = (list: { body: string }[]) => list.map((i) => i.body);
    assert.deepEqual(bodies(e.event_item), ['first event', 'second event', 'an eventual thing']);
    assert.deepEqual(bodies(e.wiki), ['a wiki page']);
    assert.deepEqual(bodies(e.webpages), ['a block', 'a layout']);
  } finally {
    await t2.stop();
  }
});
