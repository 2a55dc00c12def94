import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHub } from '../helpers/hub.js';
import { createItem, deleteItem, editItem, setActivity } from '../../server/services/items.js';
import { connect } from '../../server/services/connections.js';
import { CONTENT_VERBS, VERB } from '../../server/services/verbs.js';
import { countStatusesByScan, peopleFacts } from '../../server/store/user-facts.js';
import { updateItem } from '../../server/store/items.js';
import { toAclString } from '../../server/util/ids.js';

// The users and accounts the APIs render read public statuses from trigger-kept counts (migration
// 007) and add the restricted ones the observer may see; a plain scan of every item must always agree.
test('statuses_count from the trigger-kept counts equals a full count, for every observer, through posts, edits and deletions', async () => {
  const t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  try {
    const [alice, bob, carol] = [t.channels.alice!, t.channels.bob!, t.channels.carol!];
    for (const [a, b] of [[alice, bob], [bob, alice], [carol, alice], [alice, carol]] as const) connect(t.hub, a, b.channel_hash);
    const hashes = [alice.channel_hash, bob.channel_hash, carol.channel_hash];
    const check = (when: string) => {
      for (const viewer of [alice, bob, carol, undefined]) {
        const observer = viewer?.channel_hash ?? '';
        const fast = new Map(peopleFacts(t.hub.db, viewer && { uid: viewer.channel_id, hash: observer }, hashes).map((p) => [p.xchan.xchan_hash, p.statuses]));
        const counted = countStatusesByScan(t.hub.db, hashes, observer, CONTENT_VERBS);
        const scan = new Map(hashes.map((h) => [h, counted.get(h) ?? 0]));
        assert.deepEqual(fast, scan, `${when}, observer ${observer || 'anonymous'}`);
      }
    };
    const onlyBob = { allow_cid: toAclString([bob.channel_hash]), allow_gid: '', deny_cid: '', deny_gid: '' };
    const pub = createItem(t.hub, alice, { body: 'public post' });
    const secret = createItem(t.hub, alice, { body: 'for bob only', acl: onlyBob });
    createItem(t.hub, bob, { body: 'bob comments', parentId: pub.id });
    createItem(t.hub, bob, { body: 'bob answers in private', parentId: secret.id });
    createItem(t.hub, carol, { body: 'carol writes' });
    setActivity(t.hub, bob, pub.id, VERB.LIKE, true);
    check('after posts');
    editItem(t.hub, alice, pub.id, { body: 'now for bob only', acl: onlyBob });
    check('after restricting a post');
    editItem(t.hub, alice, pub.id, { body: 'public again', acl: { allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '' } });
    check('after opening it again');
    updateItem(t.hub.db, secret.id, { item_hidden: 1 });
    check('after hiding');
    deleteItem(t.hub, alice, pub.id);
    check('after deleting a thread');
    t.hub.db.prepare('DELETE FROM item WHERE author_xchan = ?').run(carol.channel_hash);
    check('after removing rows');
  } finally {
    await t.stop();
  }
});
