import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHub } from '../helpers/hub.js';
import { createItem, deleteItem, editItem } from '../../server/services/items.js';
import { hashtagsLike } from '../../server/store/mastodon.js';

// hashtagsLike reads hashtags from trigger-kept counts (migration 053); they must always agree with
// counting every use of every tag (the former query), whatever happens to the tags.
test('hashtag suggestions from the trigger-kept counts equal a count of every use, through posts, edits, deletions and odd prefixes', async () => {
  const t = await startHub({ channels: ['alice', 'bob'] });
  try {
    const db = t.hub.db;
    const { alice, bob } = t.channels;
    const counted = (prefix: string) =>
      (db.prepare("SELECT lower(term) AS tag, count(*) AS n FROM term WHERE ttype = 1 AND otype = 1 AND term LIKE ? ESCAPE '\\' GROUP BY lower(term) ORDER BY n DESC, tag")
        .all(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) as { tag: string; n: number }[]).map((r) => r.tag);
    // As SQLite's lower() (and LIKE) fold case: ASCII letters only.
    const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const check = (when: string) => {
      for (const prefix of ['', 'c', 'C', 'co', 'cof', 'ca', 'x', '%', '_', 'c_', 'été', 'É']) {
        const all = counted(prefix);
        assert.deepEqual(hashtagsLike(db, prefix, 50, 0).map(lower), all, `${when}: "${prefix}"`);
        assert.deepEqual(hashtagsLike(db, prefix, 2, 1).map(lower), all.slice(1, 3), `${when}: "${prefix}", paged`);
      }
    };
    const coffee = createItem(t.hub, alice!, { body: 'morning #coffee and #cats' });
    createItem(t.hub, alice!, { body: 'more #Coffee, #COFFEE #café #c_at' });
    const cats = createItem(t.hub, bob!, { body: '#cats #cats #catsofhearth #Été' });
    createItem(t.hub, bob!, { body: '#coffee again', parentId: coffee.id });
    check('after posts');
    editItem(t.hub, bob!, cats.id, { body: 'no more cat tags, #coffee instead' });
    check('after an edit');
    deleteItem(t.hub, alice!, coffee.id);
    check('after a deletion');
    db.prepare("UPDATE term SET term = 'cacao' WHERE ttype = 1 AND lower(term) = 'coffee'").run();
    db.prepare("UPDATE term SET ttype = 3 WHERE ttype = 1 AND term = 'café'").run();
    db.prepare("DELETE FROM term WHERE ttype = 1 AND term = 'c_at'").run();
    check('after the term rows change');
    assert.deepEqual(hashtagsLike(db, 'CA', 10, 0), ['cacao', 'cats', 'catsofhearth'].filter((tag) => counted('ca').includes(tag)));
  } finally {
    await t.stop();
  }
});
