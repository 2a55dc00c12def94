import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createHub } from '../../server/hub.js';
import { openDatabase } from '../../server/db/open.js';
import { createChannel } from '../../server/services/channels.js';
import { checkIntegrity } from '../../server/services/integrity.js';
import { getItem } from '../../server/store/items.js';
import { getPhotoScales, listPhotoRows } from '../../server/store/photos.js';
import { getAttachByHash } from '../../server/store/attachments.js';
import { compatRoutes } from '../../server/api/compat/routes.js';
import { basic, PASSWORD } from '../helpers/hub.js';
import { spawnHub, killHard } from '../helpers/child-hub.js';
import { tinyPng } from '../helpers/hostile.js';

// kill -9 during a burst of posts and uploads, several times over; after each restart every
// acknowledged write must be there, whole, and nothing may be left half-written.

const ROUNDS = 3;
const WORKERS = 10;
/** The hub is killed once this many writes of the round were acknowledged (requests are still in flight then). */
const KILL_AFTER = 40;

interface Ack {
  kind: 'post' | 'image' | 'file' | 'photo';
  marker: string;
  id: string;
}

const hasPhotoCreate = compatRoutes.some((r) => r.path === 'ext/photo/create');
const KINDS: Ack['kind'][] = ['post', 'image', 'file', ...(hasPhotoCreate ? (['photo'] as const) : [])];

async function write(url: string, kind: Ack['kind'], marker: string): Promise<Ack | undefined> {
  const headers = { authorization: basic('alice') };
  if (kind !== 'photo') {
    const form = new FormData();
    form.append('body', marker);
    form.append('title', marker);
    if (kind === 'image') form.append('media', new Blob([tinyPng()], { type: 'image/png' }), `${marker}.png`);
    if (kind === 'file') form.append('media', new Blob([new Uint8Array(randomBytes(64 * 1024))], { type: 'application/octet-stream' }), `${marker}.bin`);
    const res = await fetch(`${url}/api/z/1.0/item/update`, { method: 'POST', headers, body: form });
    if (!res.ok) throw new Error(`item/update answered ${res.status}: ${await res.text()}`);
    return { kind, marker, id: (await res.json()).item_id };
  }
  const form = new FormData();
  form.append('album', 'crash');
  form.append('desc', marker);
  form.append('media', new Blob([tinyPng()], { type: 'image/png' }), `${marker}.png`);
  const res = await fetch(`${url}/api/ext/photo/create.json`, { method: 'POST', headers, body: form });
  if (!res.ok) throw new Error(`ext/photo/create answered ${res.status}: ${await res.text()}`);
  return { kind, marker, id: String((await res.json()).id) };
}

test('kill -9 during bursts of posts and uploads loses no acknowledged write and leaves nothing half-written', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-crash-'));
  const counts = { sent: 0, acknowledged: 0, inFlightAtKill: 0, kills: 0, repairedOrphans: 0, repairedRows: 0 };
  try {
    const db = openDatabase(join(dataDir, 'hearth.db'));
    await createChannel(db, { baseUrl: 'http://127.0.0.1:8420' }, { nick: 'alice', password: PASSWORD, email: 'alice@example.com' });
    db.close();

    const acked: Ack[] = [];
    const errors: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const hub = await spawnHub(dataDir);
      let roundAcks = 0;
      let inFlight = 0;
      let killed: Promise<void> | undefined;
      const worker = async (w: number) => {
        for (let i = 0; !killed; i++) {
          const kind = KINDS[(w + i) % KINDS.length]!;
          const marker = `crash r${round} w${w} n${i}`;
          counts.sent++;
          inFlight++;
          try {
            const ack = await write(hub.url, kind, marker);
            // An answer that arrives after the kill was still sent by the hub before it died.
            if (ack) acked.push(ack);
            if (++roundAcks >= KILL_AFTER && !killed) {
              counts.inFlightAtKill += inFlight - 1;
              killed = killHard(hub);
            }
          } catch (e) {
            if (!killed) errors.push((e as Error).message);
            return;
          } finally {
            inFlight--;
          }
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      await killed;
      counts.kills++;
      assert.deepEqual(errors, [], hub.output());

      // Restart (in-process: the same startup path, with the database at hand for checking).
      const restarted = await createHub({ dataDir, port: 0 });
      try {
        const integrity = await restarted.integrity;
        counts.repairedOrphans += integrity.orphanFiles;
        counts.repairedRows += integrity.rowsWithoutFile;
        assert.ok(!integrity.repaired.some((r) => r.startsWith('database')), integrity.repaired.join('; '));
        assert.equal(integrity.rowsWithoutFile, 0, 'a committed row lost its file');
        const rdb = restarted.db;
        for (const ack of acked) {
          if (ack.kind !== 'photo') {
            const item = getItem(rdb, Number(ack.id));
            assert.ok(item?.body.includes(ack.marker), `acknowledged post ${ack.marker} is missing`);
            if (ack.kind === 'post') continue;
            const attach = JSON.parse(item!.attach) as { href: string; length: number }[];
            assert.equal(attach.length, 1, `post ${ack.marker} lost its media`);
            const hash = attach[0]!.href.split('/').pop()!;
            const row = getAttachByHash(rdb, hash);
            assert.ok(row, `the media of ${ack.marker} has no file record`);
            assert.equal(await restarted.files.size(restarted.files.keyOf(row.content)!), attach[0]!.length, `the media of ${ack.marker} is not whole`);
            if (ack.kind === 'image') assert.ok(getPhotoScales(rdb, hash).length > 0, `the image of ${ack.marker} is not a photo`);
          } else {
            const scales = getPhotoScales(rdb, ack.id).map((p) => p.imgscale).sort();
            assert.deepEqual(scales, [0, 1, 2], `acknowledged photo ${ack.marker} is not whole`);
            assert.ok(getAttachByHash(rdb, ack.id), `acknowledged photo ${ack.marker} lost its file record`);
          }
        }
        // Writes that were not acknowledged may or may not be there, but never in part.
        const byResource = new Map<string, number[]>();
        for (const p of listPhotoRows(rdb, 1, undefined, { limit: -1 })) byResource.set(p.resource_id, [...(byResource.get(p.resource_id) ?? []), p.imgscale]);
        for (const [resource, scales] of byResource) {
          const expected = scales.length === 4 ? [0, 1, 2, 3] : [0, 1, 2];
          assert.deepEqual(scales.sort(), expected, `photo ${resource} is half-written`);
          for (const p of getPhotoScales(rdb, resource)) assert.ok(((await restarted.files.size(restarted.files.keyOf(p.content)!)) ?? 0) > 0, `a file of photo ${resource} is empty or gone`);
        }
        const again = await checkIntegrity(rdb, restarted.files);
        assert.deepEqual([again.orphanFiles, again.rowsWithoutFile], [0, 0], 'the startup check left inconsistencies');
        assert.deepEqual(await readdir(join(dataDir, 'tmp')), []);
        assert.deepEqual(await readdir(join(dataDir, 'store', '.tmp')), []);
      } finally {
        await restarted.close();
      }
    }
    counts.acknowledged = acked.length;
    console.log(`crash: ${counts.kills} kill -9 faults during ${counts.sent} writes (${WORKERS} clients; ${KINDS.join(', ')}); ${counts.acknowledged} acknowledged, all present and whole; ${counts.inFlightAtKill} in flight at the kills; startup check removed ${counts.repairedOrphans} orphan files and ${counts.repairedRows} rows`);
    assert.ok(acked.length >= ROUNDS * KILL_AFTER);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
