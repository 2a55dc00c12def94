import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHub } from '../helpers/hub.js';
import { createItem } from '../../server/services/items.js';
import { publishedCounts } from '../../server/services/published-counts.js';

// NodeInfo and the Mastodon API's instance answer anyone; their counts read every thread top, so a
// client asking in a loop must not make the hub count each time.
test('the published counts are counted again after a minute, not on every request', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const start = Date.now();
    createItem(t.hub, t.channels.alice!, { body: 'first' });
    assert.deepEqual(publishedCounts(t.hub.db, start), { channels: 1, posts: 1 });
    createItem(t.hub, t.channels.alice!, { body: 'second' });
    assert.deepEqual(publishedCounts(t.hub.db, start + 59_000), { channels: 1, posts: 1 }, 'within the minute');
    assert.deepEqual(publishedCounts(t.hub.db, start + 60_000), { channels: 1, posts: 2 }, 'a minute later');
    // A clock set back does not keep an old count forever.
    createItem(t.hub, t.channels.alice!, { body: 'third' });
    assert.deepEqual(publishedCounts(t.hub.db, start), { channels: 1, posts: 3 }, 'after the clock went back');
    const nodeinfo = (await (await fetch(`${t.url}/nodeinfo/2.0`)).json()) as { usage: { localPosts: number } };
    assert.equal(nodeinfo.usage.localPosts, 3);
  } finally {
    await t.stop();
  }
});
