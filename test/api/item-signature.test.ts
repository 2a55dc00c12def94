import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVerify } from 'node:crypto';
import { startHub } from '../helpers/hub.js';
import { getItem } from '../../server/store/items.js';

// Posts are signed ahead of the write on the thread pool; the signature must be the channel's over the stored body.
test('item/update and statuses/update store a valid signature of the body by the channel key', async () => {
  const t = await startHub({ channels: ['alice'] });
  try {
    const alice = t.channels.alice!;
    const verify = (id: number) => {
      const item = getItem(t.hub.db, id)!;
      const sig = Buffer.from(item.sig.replace(/^sha256\./, ''), 'base64url');
      assert.ok(createVerify('RSA-SHA256').update(item.body).verify(alice.channel_pubkey, sig), `signature of item ${id}`);
    };
    const native = await t.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: new URLSearchParams({ body: 'signed ünïcode 🎉 #tag' }) });
    assert.equal(native.status, 200);
    verify(Number(((await native.json()) as { item_id: string }).item_id));
    const compat = await t.request('/api/statuses/update.json', { as: 'alice', method: 'POST', body: new URLSearchParams({ status: 'a status, signed too' }) });
    assert.equal(compat.status, 200);
    verify(((await compat.json()) as { id: number }).id);
  } finally {
    await t.stop();
  }
});
