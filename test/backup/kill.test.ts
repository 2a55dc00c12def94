import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHub } from '../helpers/hub.js';
import { form, makeImage } from '../helpers/media.js';
import { backupIdOf, hearth, startCli, storeFiles } from '../helpers/backup.js';

// `hearth backup` killed with SIGKILL at random points, ten times: each time the backup made
// before still restores, checksums and all, and the next backup completes and leaves nothing of
// the killed ones behind.

const ROUNDS = 10;

test('kill -9 at random points of a backup, 10 rounds: the earlier backup restores, the next one completes', { timeout: 900_000 }, async () => {
  const t = await startHub({ channels: ['alice'] });
  const work = await mkdtemp(join(tmpdir(), 'hearth-kill-'));
  const post = async (i: number) => {
    const res = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: `post ${i}` }, { media: { data: await makeImage(1200, 900, 'jpeg', `#${(i * 37 % 256).toString(16).padStart(2, '0')}8844`), name: 'p.jpg', type: 'image/jpeg' } }) });
    assert.equal(res.status, 200, await res.text());
  };
  try {
    for (let i = 0; i < 20; i++) await post(i);
    const target = join(work, 'target');
    const env = { HEARTH_BACKUP_PASSPHRASE: 'a passphrase for the kill test' };
    const started = Date.now();
    const first = await hearth(['backup', '--to', target, '--data', t.dataDir], env);
    const fullMs = Date.now() - started;
    assert.equal(first.code, 0, first.stderr);
    let lastComplete = backupIdOf(first);
    const outcomes: string[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      // New photos each round, so that every run has files to copy.
      for (let i = 0; i < 3; i++) await post(100 + round * 3 + i);
      const delay = Math.floor(Math.random() * fullMs * 1.1);
      const run = startCli(['backup', '--to', target, '--data', t.dataDir], env);
      const killed = new Promise<void>((resolve) => setTimeout(resolve, delay));
      await Promise.race([killed, once(run.child, 'exit')]);
      run.child.kill('SIGKILL');
      const result = await run.done;
      if (result.code === 0) {
        lastComplete = backupIdOf(result);
        outcomes.push(`round ${round + 1}: finished before the kill at ${delay} ms`);
      } else {
        assert.equal(result.signal, 'SIGKILL', result.stderr);
        const reached = result.stderr.trim().split('\n').pop() || 'starting';
        outcomes.push(`round ${round + 1}: killed at ${delay} ms (${reached.slice(0, 40)})`);
      }
      const into = join(work, `restored-${round}`);
      const restore = await hearth(['restore', '--from', target, '--backup', lastComplete, '--data', into], env);
      assert.equal(restore.code, 0, `round ${round + 1}: backup ${lastComplete} restores after a kill at ${delay} ms:\n${restore.stderr}`);
      await rm(into, { recursive: true, force: true });
    }

    const last = await hearth(['backup', '--to', target, '--data', t.dataDir], env);
    assert.equal(last.code, 0, last.stderr);
    const into = join(work, 'restored-last');
    const restore = await hearth(['restore', '--from', target, '--data', into], env);
    assert.equal(restore.code, 0, restore.stderr);
    assert.deepEqual([...(await storeFiles(into)).entries()].sort(), [...(await storeFiles(t.dataDir)).entries()].sort(), 'the last backup holds every file of the hub');
    assert.deepEqual(await readdir(join(target, '.partial')), [], 'no half-written object is left');
    assert.deepEqual(await readdir(join(target, 'backups')), [backupIdOf(last)], 'killed backups leave no folder behind');
    console.log(outcomes.join('\n'));
  } finally {
    await t.stop();
    await rm(work, { recursive: true, force: true });
  }
});
