import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startHub } from '../helpers/hub.js';
import { createShutdown } from '../../electron/lib/shutdown.js';
import { openDatabase } from '../../server/db/open.js';
import { createHub } from '../../server/hub.js';
import { getConfig } from '../../server/store/config.js';

describe('clean shutdown', () => {
  it('lets a request in flight finish, then closes the database', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hearth-shutdown-'));
    const hub = await createHub({ dataDir, port: 0 });
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // A slow handler standing for a write that takes a while (it runs after the hub's own routes,
    // and must be added before listen() composes the middleware).
    hub.app.use(async (ctx) => {
      if (ctx.path !== '/slow-write') return;
      arrived();
      await gate;
      hub.db.prepare("INSERT INTO config (cat, k, v) VALUES ('test', 'slow', 'written')").run();
      ctx.body = 'done';
    });
    const url = await hub.listen();
    const response = fetch(`${url}/slow-write`).then(async (r) => ({ status: r.status, text: await r.text() }));
    await requestArrived;

    const stopped: string[] = [];
    const shutdown = createShutdown(hub, { before: [() => stopped.push('watcher')] });
    const first = shutdown.run();
    assert.equal(shutdown.run(), first, 'every exit path waits for the same shutdown');
    assert.equal(shutdown.started, true);
    assert.equal(shutdown.finished, false);
    assert.equal(hub.db.open, true, 'the database stays open while a request is in flight');
    release();
    assert.deepEqual(await response, { status: 200, text: 'done' });
    await first;
    assert.equal(shutdown.finished, true);
    assert.equal(hub.db.open, false);
    assert.deepEqual(stopped, ['watcher']);
    // A cleanly closed WAL database leaves no -wal file behind, and the slow write is in it.
    assert.equal(existsSync(join(dataDir, 'hearth.db-wal')), false);
    const db = openDatabase(join(dataDir, 'hearth.db'), { readonly: true });
    assert.equal(getConfig(db, 'test', 'slow'), 'written');
    db.close();
    await assert.rejects(fetch(`${url}/session`), 'the hub no longer listens');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('still closes the hub when a step before it fails', async () => {
    const t = await startHub();
    const shutdown = createShutdown(t.hub, {
      before: [
        () => {
          throw new Error('tray already gone');
        },
      ],
    });
    await shutdown.run();
    assert.equal(t.hub.db.open, false);
    await t.stop();
  });
});
