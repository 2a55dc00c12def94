import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { startHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { storeFiles } from '../helpers/backup.js';
import { runBackup } from '../../server/backup/backup.js';
import { BackupError } from '../../server/backup/errors.js';
import { runRestore } from '../../server/backup/restore.js';
import { FolderTarget } from '../../server/backup/targets/folder.js';

// A target disk that fills up in the middle of a backup: the backup fails saying so, the backups
// made before are as they were, and once there is room again the next backup completes.

/** A folder on a disk with `room` bytes left: writing past that fails as a full disk does. */
class FullDisk extends FolderTarget {
  written = 0;
  constructor(
    dir: string,
    private readonly room: number,
  ) {
    super(dir);
  }

  override write(name: string, body: Readable): Promise<void> {
    const meter = new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.written += chunk.length;
        if (this.written > this.room) done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write', path: join(this.root, '.partial', 'x') }));
        else done(null, chunk);
      },
    });
    return super.write(name, body.pipe(meter));
  }
}

test('a target disk that fills up during a backup leaves the earlier backups intact, and the next backup completes', { timeout: 180_000 }, async () => {
  const t = await startHub({ channels: ['alice'] });
  const work = await mkdtemp(join(tmpdir(), 'hearth-full-'));
  const post = async (i: number) => {
    const res = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: `post ${i}` }, { media: { data: await makeImage(900, 700, 'jpeg', `#${((i * 40) % 256).toString(16).padStart(2, '0')}3322`), name: 'p.jpg', type: 'image/jpeg' } }) });
    assert.equal(res.status, 200);
  };
  try {
    for (let i = 0; i < 3; i++) await post(i);
    const dir = join(work, 'disk');
    const first = await runBackup({ dataDir: t.dataDir, target: new FolderTarget(dir) });
    for (let i = 3; i < 8; i++) await post(i);

    const full = new FullDisk(dir, 60_000);
    await assert.rejects(runBackup({ dataDir: t.dataDir, target: full }), (err: Error) => err instanceof BackupError && /the disk is full/.test(err.message));
    assert.ok(full.written > 60_000, 'the disk filled up in the middle of the backup');
    assert.deepEqual(await readdir(join(dir, '.partial')), [], 'the object being written when the disk filled up is gone');

    const earlier = await runRestore({ target: new FolderTarget(dir), dataDir: join(work, 'earlier'), backupId: first.id });
    assert.equal(earlier.id, first.id);
    assert.equal(earlier.files, first.files);

    const next = await runBackup({ dataDir: t.dataDir, target: new FolderTarget(dir) });
    assert.ok(next.copiedFiles > 0);
    const restored = join(work, 'latest');
    await runRestore({ target: new FolderTarget(dir), dataDir: restored });
    assert.deepEqual([...(await storeFiles(restored)).entries()].sort(), [...(await storeFiles(t.dataDir)).entries()].sort());
  } finally {
    await t.stop();
    await rm(work, { recursive: true, force: true });
  }
});

/** A folder target that, at its first attachment file, lets the hub delete photos the backup is copying. */
class DeletingMidway extends FolderTarget {
  private fired = false;
  constructor(
    dir: string,
    private readonly midway: () => Promise<void>,
  ) {
    super(dir);
  }

  override async write(name: string, body: Readable): Promise<void> {
    if (name.startsWith('files/') && !this.fired) {
      this.fired = true;
      await this.midway();
    }
    return super.write(name, body);
  }
}

test('photos deleted while a backup copies their files: the backup takes a new copy of the database and completes, consistent', { timeout: 180_000 }, async () => {
  const t = await startHub({ channels: ['alice'] });
  const work = await mkdtemp(join(tmpdir(), 'hearth-deleted-'));
  try {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.request('/api/ext/photo/create.json', { method: 'POST', as: 'alice', body: form({ album: 'Going' }, { media: { data: await makeImage(500 + i, 400), name: 'p.jpg', type: 'image/jpeg' } }) });
      assert.equal(res.status, 200);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const dir = join(work, 'disk');
    const target = new DeletingMidway(dir, async () => {
      for (const id of ids.slice(0, 3)) {
        const res = await t.request(`/api/ext/photo/delete.json?photo_id=${id}`, { method: 'DELETE', as: 'alice' });
        assert.equal(res.status, 200);
      }
    });
    const result = await runBackup({ dataDir: t.dataDir, target });
    const restored = join(work, 'restored');
    await runRestore({ target: new FolderTarget(dir), dataDir: restored, backupId: result.id });
    assert.deepEqual([...(await storeFiles(restored)).entries()].sort(), [...(await storeFiles(t.dataDir)).entries()].sort(), 'the backup is the hub after the deletions');
    const hub = await startHub({ dataDir: restored });
    try {
      assert.deepEqual(await hub.hub.integrity, { orphanFiles: 0, rowsWithoutFile: 0, repaired: [] });
    } finally {
      await hub.stop();
    }
  } finally {
    await t.stop();
    await rm(work, { recursive: true, force: true });
  }
});
