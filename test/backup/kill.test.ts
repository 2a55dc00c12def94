import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
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

/** Resolves when `hearth backup` has begun its work (it says so on stderr), or has ended. */
function begun(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    child.stderr!.on('data', (d: Buffer) => d.toString().includes('Copying the database') && resolve());
    child.once('exit', () => resolve());
  });
}

test('kill -9 at random points of a backup, 10 rounds: the earlier backup restores, the next one completes', { timeout: 900_000 }, async () => {
  const t = await startHub({ channels: ['alice'] });
  const work = await mkdtemp(join(tmpdir(), 'hearth-kill-'));
  const post = async (i: number) => {
    const res = await t.request('/api/statuses/update.json', { method: 'POST', as: 'alice', body: form({ status: `post ${i}` }, { media: { data: await makeImage(1200, 900, 'jpeg', `#${(i * 37 % 256).toString(16).padStart(2, '0')}8844`), name: 'p.jpg', type: 'image/jpeg' } }) });
    assert.equal(res.status, 200, await res.text());
  };
  try {
    for (let i = 0; i < 20; i++) await post(i);
    // Two targets, taking turns: a plain folder (the database copy is made in the target itself)
    // and an encrypted one (every object goes through age).
    const targets = [
      { dir: join(work, 'plain'), env: {} as NodeJS.ProcessEnv, last: '', fullMs: 0 },
      { dir: join(work, 'encrypted'), env: { HEARTH_BACKUP_PASSPHRASE: 'a passphrase for the kill test' }, last: '', fullMs: 0 },
    ];
    // A first backup of each, then a second one like those of the rounds (three new photos), timed
    // from the start of its work (the process's start and the loading of the code come before).
    for (const target of targets) {
      for (const pass of [1, 2]) {
        if (pass === 2) for (let i = 0; i < 3; i++) await post(50 + i);
        const run = startCli(['backup', '--to', target.dir, '--data', t.dataDir], target.env);
        await begun(run.child);
        const started = Date.now();
        const done = await run.done;
        target.fullMs = Date.now() - started;
        assert.equal(done.code, 0, done.stderr);
        target.last = backupIdOf(done);
      }
    }
    const outcomes: string[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      const target = targets[round % 2]!;
      // New photos each round, so that every run has files to copy.
      for (let i = 0; i < 3; i++) await post(100 + round * 3 + i);
      const delay = Math.floor(Math.random() * target.fullMs);
      const run = startCli(['backup', '--to', target.dir, '--data', t.dataDir], target.env);
      await begun(run.child);
      const killed = new Promise<void>((resolve) => setTimeout(resolve, delay));
      await Promise.race([killed, once(run.child, 'exit')]);
      run.child.kill('SIGKILL');
      const result = await run.done;
      const where = round % 2 ? 'encrypted' : 'plain';
      if (result.code === 0) {
        target.last = backupIdOf(result);
        outcomes.push(`round ${round + 1} (${where}): finished before the kill ${delay} ms into its work`);
      } else {
        assert.equal(result.signal, 'SIGKILL', result.stderr);
        const reached = result.stderr.trim().split('\n').pop() || 'starting';
        outcomes.push(`round ${round + 1} (${where}): killed ${delay} ms into its work (${reached.slice(0, 40)})`);
      }
      // The backup made before is there, unless the killed run got as far as finishing its own
      // (its manifest written) and the retention of one backup a day had removed the older one.
      const complete = (await readdir(join(target.dir, 'backups'))).filter((id) => existsSync(join(target.dir, 'backups', id, 'manifest.json'))).sort();
      const newest = complete[complete.length - 1]!;
      assert.ok(complete.includes(target.last) || newest > target.last, `round ${round + 1}: backup ${target.last} or a newer complete one is there (${complete.join(', ')})`);
      if (!complete.includes(target.last)) outcomes[outcomes.length - 1] += `; the killed run had finished ${newest}`;
      for (const id of complete.includes(target.last) ? [target.last] : [newest]) {
        const into = join(work, `restored-${round}`);
        const restore = await hearth(['restore', '--from', target.dir, '--backup', id, '--data', into], target.env);
        assert.equal(restore.code, 0, `round ${round + 1}: backup ${id} restores after a kill ${delay} ms into the work:\n${restore.stderr}`);
        await rm(into, { recursive: true, force: true });
      }
      target.last = newest;
    }

    for (const target of targets) {
      const last = await hearth(['backup', '--to', target.dir, '--data', t.dataDir], target.env);
      assert.equal(last.code, 0, last.stderr);
      const into = join(work, 'restored-last');
      const restore = await hearth(['restore', '--from', target.dir, '--data', into], target.env);
      assert.equal(restore.code, 0, restore.stderr);
      assert.deepEqual([...(await storeFiles(into)).entries()].sort(), [...(await storeFiles(t.dataDir)).entries()].sort(), 'the last backup holds every file of the hub');
      assert.deepEqual(await readdir(join(target.dir, '.partial')), [], 'no half-written object is left');
      assert.deepEqual(await readdir(join(target.dir, 'backups')), [backupIdOf(last)], 'killed backups leave no folder behind');
      await rm(into, { recursive: true, force: true });
    }
    console.log(outcomes.join('\n'));
  } finally {
    await t.stop();
    await rm(work, { recursive: true, force: true });
  }
});
