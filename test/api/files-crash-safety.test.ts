import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startHub, type TestHub } from '../helpers/hub.js';
import { makeImage, tempUpload } from '../helpers/media.js';
import { storeAttachment } from '../../server/services/attachments.js';
import { createPhoto, replacePhotoImage, setProfilePhoto } from '../../server/services/photos.js';
import { withPostMedia } from '../../server/services/media.js';
import { PUBLIC_ACL } from '../../server/services/acl.js';

let t: TestHub;
let image: Buffer;

before(async () => {
  t = await startHub({ channels: ['alice'] });
  image = await makeImage(900, 600);
});

after(() => t.stop());

async function snapshot() {
  const n = (table: string) => (t.hub.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { keys: (await t.hub.files.listKeys()).sort(), attach: n('attach'), photo: n('photo'), item: n('item') };
}

/** Makes every insert into `table` fail inside the database, as a full or broken disk would. */
function failInserts(table: string): () => void {
  t.hub.db.exec(`CREATE TEMP TRIGGER fail_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'simulated database failure'); END`);
  return () => t.hub.db.exec(`DROP TRIGGER temp.fail_${table}`);
}

test('a failed database write after the files were stored leaves no files and no rows', async () => {
  const alice = t.channels.alice!;
  for (const table of ['attach', 'photo', 'item']) {
    const before = await snapshot();
    const restore = failInserts(table);
    try {
      await assert.rejects(createPhoto(t.hub, alice, await tempUpload(image, 'p.jpg')), /simulated database failure/, `photo, ${table} insert fails`);
      await assert.rejects(setProfilePhoto(t.hub, alice, await tempUpload(image, 'me.jpg')), /simulated database failure/, `profile photo, ${table} insert fails`);
      await assert.rejects(withPostMedia(t.hub, alice, [await tempUpload('x', 'a.txt'), await tempUpload(image, 'b.jpg')], PUBLIC_ACL, (m) => m), /simulated database failure/);
      if (table === 'attach') await assert.rejects(storeAttachment(t.hub, alice, await tempUpload('bytes', 'f.bin')), /simulated database failure/);
    } finally {
      restore();
    }
    assert.deepEqual(await snapshot(), before, `nothing left after a failed ${table} insert`);
  }
});

test('a failed file write leaves no rows and no files', async () => {
  const alice = t.channels.alice!;
  const before = await snapshot();
  const tmp = join(t.hub.files.root, '.tmp');
  await rm(tmp, { recursive: true, force: true });
  await writeFile(tmp, 'not a directory');
  try {
    await assert.rejects(storeAttachment(t.hub, alice, await tempUpload('bytes', 'f.bin')));
    await assert.rejects(createPhoto(t.hub, alice, await tempUpload(image, 'p.jpg')));
  } finally {
    await rm(tmp, { force: true });
    await mkdir(tmp);
  }
  assert.deepEqual(await snapshot(), before);
});

test('when a later file write fails, the scales already written are removed again', async () => {
  const alice = t.channels.alice!;
  const before = await snapshot();
  const files = t.hub.files;
  const original = files.putFile.bind(files);
  files.putFile = async () => {
    throw Object.assign(new Error('simulated disk full'), { code: 'ENOSPC' });
  };
  try {
    await assert.rejects(createPhoto(t.hub, alice, await tempUpload(image, 'p.jpg')), /simulated disk full/);
  } finally {
    files.putFile = original;
  }
  assert.deepEqual(await snapshot(), before);
});

test('a failed image replacement keeps the old image, rows and files', async () => {
  const alice = t.channels.alice!;
  const photo = await createPhoto(t.hub, alice, await tempUpload(image, 'keep.jpg'));
  const before = await snapshot();
  const rowsBefore = t.hub.db.prepare('SELECT * FROM photo WHERE resource_id = ? ORDER BY imgscale').all(photo.attach.hash);
  const restore = (() => {
    t.hub.db.exec("CREATE TEMP TRIGGER fail_update BEFORE UPDATE OF content ON photo BEGIN SELECT RAISE(ABORT, 'simulated database failure'); END");
    return () => t.hub.db.exec('DROP TRIGGER temp.fail_update');
  })();
  try {
    await assert.rejects(replacePhotoImage(t.hub, alice, photo.attach.hash, await tempUpload(await makeImage(100, 100, 'png'), 'new.png')), /simulated database failure/);
  } finally {
    restore();
  }
  assert.deepEqual(await snapshot(), before);
  assert.deepEqual(t.hub.db.prepare('SELECT * FROM photo WHERE resource_id = ? ORDER BY imgscale').all(photo.attach.hash), rowsBefore);
});
