import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHub } from '../../server/hub.js';
import { createPhoto } from '../../server/services/photos.js';
import { storeAttachment } from '../../server/services/attachments.js';
import { getAttachByHash } from '../../server/store/attachments.js';
import { getItem } from '../../server/store/items.js';
import { getPhotoScales } from '../../server/store/photos.js';
import { startHub } from '../helpers/hub.js';
import { tinyPng } from '../helpers/hostile.js';

async function tempFile(dir: string, name: string, data: Uint8Array): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, data);
  return p;
}

test('the startup check reports and repairs orphan files, rows without files and half photos', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-check-'));
  const scratch = await mkdtemp(join(tmpdir(), 'hearth-scratch-'));
  try {
    const t = await startHub({ channels: ['alice'], dataDir });
    const alice = t.channels.alice!;
    const broken = await createPhoto(t.hub, alice, { filepath: await tempFile(scratch, 'a.png', tinyPng()), originalFilename: 'a.png', mimetype: 'image/png' });
    const intact = await createPhoto(t.hub, alice, { filepath: await tempFile(scratch, 'b.png', tinyPng()), originalFilename: 'b.png', mimetype: 'image/png' });
    const file = await storeAttachment(t.hub, alice, { filepath: await tempFile(scratch, 'c.txt', Buffer.from('keep me')), originalFilename: 'c.txt', mimetype: 'text/plain' });
    const lostFile = await storeAttachment(t.hub, alice, { filepath: await tempFile(scratch, 'd.txt', Buffer.from('lose me')), originalFilename: 'd.txt', mimetype: 'text/plain' });
    const orphan = await t.hub.files.putBuffer(Buffer.from('nobody refers to me'));
    const files = t.hub.files;
    const scale1 = getPhotoScales(t.hub.db, broken.attach.hash).find((p) => p.imgscale === 1)!;
    await t.stop();

    // Faults: one scale of a photo and one plain file lose their bytes; an orphan file and a
    // leftover temporary file remain from writes that never committed.
    await rm(join(dataDir, scale1.content));
    await rm(join(dataDir, lostFile.content));
    await writeFile(join(dataDir, 'store', '.tmp', 'leftover'), 'half written');

    // A clean stop: the routine check, hurried.
    const hub = await createHub({ dataDir, port: 0, integrity: { delayMs: 0, pauseMs: 0 } });
    try {
      const r = await hub.integrity;
      assert.equal(r.rowsWithoutFile, 2, r.repaired.join('; '));
      // The orphan, plus the remaining files of the half photo (other scales and its file record).
      assert.equal(r.orphanFiles, 1 + broken.photos.length - 1 + 1, r.repaired.join('; '));
      assert.ok(r.repaired.some((s) => /orphan/.test(s)) && r.repaired.some((s) => /missing/.test(s)));
      assert.deepEqual(getPhotoScales(hub.db, broken.attach.hash), [], 'half a photo is still visible');
      assert.equal(getAttachByHash(hub.db, broken.attach.hash), undefined);
      assert.equal(getItem(hub.db, broken.item.id)?.item_deleted, 1);
      assert.equal(getAttachByHash(hub.db, lostFile.hash), undefined);
      assert.equal(await hub.files.size(orphan), undefined);
      assert.equal(getPhotoScales(hub.db, intact.attach.hash).length, intact.photos.length, 'an intact photo was touched');
      assert.equal((await hub.files.read(files.keyOf(file.content)!)).toString(), 'keep me');
    } finally {
      await hub.close();
    }
    const again = await createHub({ dataDir, port: 0, integrity: { delayMs: 0, pauseMs: 0 } });
    try {
      assert.deepEqual(await again.integrity, { orphanFiles: 0, rowsWithoutFile: 0, repaired: [] });
    } finally {
      await again.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
});
