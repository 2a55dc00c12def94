import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { AttachmentStore } from '../../server/files/store.js';
import { compatRoutes } from '../../server/api/compat/routes.js';
import { nativeRoutes } from '../../server/api/native/routes.js';
import { rowCounts } from '../../server/store/stats.js';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { tinyPng } from '../helpers/hostile.js';

// The attachment store unwritable or full: every upload endpoint answers a clear 5xx storage error
// (503 not writable, 507 full), writes no row, and leaves no file behind. Tests run as root, so
// permissions cannot be used; the faults are real file-system errors instead: store directories
// replaced by plain files (ENOTDIR), and a store whose file handles refuse to write (ENOSPC).

/** Upload endpoints (those routed so far) with the fields each needs besides the file. */
const UPLOADS = [
  { api: 'native', path: 'item/update', fields: { body: 'with media' }, file: 'media', imagesOnly: false },
  { api: 'compat', path: 'statuses/update', fields: { status: 'with media' }, file: 'media', imagesOnly: false },
  { api: 'compat', path: 'statuses/update_with_media', fields: { status: 'with media' }, file: 'media', imagesOnly: true },
  { api: 'compat', path: 'media/upload', fields: {}, file: 'media', imagesOnly: true },
  { api: 'compat', path: 'ext/photo/create', fields: { album: 'faults' }, file: 'media', imagesOnly: true },
  { api: 'compat', path: 'account/update_profile_image', fields: {}, file: 'image', imagesOnly: true },
].filter((u) => (u.api === 'native' ? nativeRoutes : compatRoutes).some((r) => r.path === u.path));

const PAYLOADS = [
  { name: 'image', blob: () => new Blob([tinyPng()], { type: 'image/png' }), filename: 'fault.png' },
  { name: 'file', blob: () => new Blob([new Uint8Array(50_000).fill(7)], { type: 'application/octet-stream' }), filename: 'fault.bin' },
];

const counts = { faults: 0, requests: 0 };

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

/** A store on a disk that is full: every write or flush of file contents fails with ENOSPC. */
class FullDiskStore extends AttachmentStore {
  protected override async openForWrite(path: string, flags: string): Promise<FileHandle> {
    const fh = await super.openForWrite(path, flags);
    const fail = async () => {
      throw enospc();
    };
    return new Proxy(fh, {
      get(target, prop, receiver) {
        if (prop === 'write' || prop === 'writeFile' || prop === 'writev' || prop === 'sync' || prop === 'datasync' || prop === 'appendFile') return fail;
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  }
}

async function uploadAll(t: TestHub, expectStatus: number, fault: string): Promise<string[]> {
  const failures: string[] = [];
  for (const u of UPLOADS) {
    for (const p of PAYLOADS) {
      if (u.imagesOnly && p.name !== 'image') continue;
      const form = new FormData();
      for (const [k, v] of Object.entries(u.fields)) form.append(k, v);
      form.append(u.file, p.blob(), p.filename);
      const before = rowCounts(t.hub.db);
      const prefix = u.api === 'native' ? '/api/z/1.0/' : '/api/';
      const res = await fetch(`${t.url}${prefix}${u.path}${u.api === 'compat' ? '.json' : ''}`, { method: 'POST', headers: { authorization: basic('alice') }, body: form });
      counts.requests++;
      counts.faults++;
      const body = await res.text();
      const what = `${fault}: ${u.path} with an ${p.name}`;
      if (res.status !== expectStatus) failures.push(`${what}: ${res.status} ${body.slice(0, 200)}`);
      else if (!/attachment store/i.test(body)) failures.push(`${what}: unclear message ${body.slice(0, 200)}`);
      const after = rowCounts(t.hub.db);
      const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
      if (changed.length) failures.push(`${what}: rows written to ${changed.join(', ')}`);
    }
  }
  return failures;
}

async function storedFiles(t: TestHub): Promise<number> {
  return (await t.hub.files.listKeys()).length;
}

let full: TestHub;
let broken: TestHub;
before(async () => {
  full = await startHub({ channels: ['alice'], options: { attachmentStore: (root) => new FullDiskStore(root) } });
  broken = await startHub({ channels: ['alice'] });
});
after(async () => {
  console.log(`disk faults: ${counts.faults} faults injected into ${counts.requests} uploads on ${UPLOADS.length} endpoints (${UPLOADS.map((u) => u.path).join(', ')})`);
  await full.stop();
  await broken.stop();
});

test('a full disk gives 507 with a clear message on every upload endpoint, and no row or file', async () => {
  assert.ok(UPLOADS.length >= 1);
  const filesBefore = await storedFiles(full);
  assert.deepEqual(await uploadAll(full, 507, 'disk full'), []);
  assert.equal(await storedFiles(full), filesBefore);
  assert.deepEqual(await readdir(join(full.hub.files.root, '.tmp')), []);
  assert.deepEqual(await readdir(join(full.dataDir, 'tmp')), []);
});

test('store directories replaced by files give 503 on every upload endpoint, and no row or file', async () => {
  const root = broken.hub.files.root;
  // Every possible first-level shard is a plain file: installing any key fails with ENOTDIR.
  for (let i = 0; i < 256; i++) await writeFile(join(root, i.toString(16).padStart(2, '0')), 'not a directory');
  assert.deepEqual(await uploadAll(broken, 503, 'shards are files'), []);
  assert.deepEqual(await readdir(join(root, '.tmp')), []);
  for (let i = 0; i < 256; i++) await rm(join(root, i.toString(16).padStart(2, '0')));

  // The store's own temporary directory is a file: nothing can even be staged.
  await rm(join(root, '.tmp'), { recursive: true });
  await writeFile(join(root, '.tmp'), 'not a directory');
  assert.deepEqual(await uploadAll(broken, 503, '.tmp is a file'), []);
  await rm(join(root, '.tmp'));
  await mkdir(join(root, '.tmp'));
  assert.equal(await storedFiles(broken), 0);

  // Once the store is repaired, uploads work again.
  const form = new FormData();
  form.append('body', 'after repair');
  form.append('media', new Blob([tinyPng()], { type: 'image/png' }), 'ok.png');
  const res = await broken.request('/api/z/1.0/item/update', { as: 'alice', method: 'POST', body: form });
  assert.equal(res.status, 200, await res.text());
});
