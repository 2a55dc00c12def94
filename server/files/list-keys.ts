import { Worker } from 'node:worker_threads';

/**
 * The store's layout for workers written as plain CommonJS (with readdirSync in scope): SHARD and KEY
 * name its directories and files, list(dir, isRoot) reads a directory.
 */
export const STORE_LAYOUT_SOURCE = `
const SHARD = /^[0-9a-f]{2}$/;
const KEY = /^[0-9a-f]{64}$/;
// A shard that vanished or is not a directory holds no keys; any other failure (permissions, I/O)
// must not pass for an empty store, or every row would look as if its file were missing.
const list = (dir, isRoot) => {
  try {
    return readdirSync(dir);
  } catch (err) {
    if (err.code === 'ENOENT' || (!isRoot && err.code === 'ENOTDIR')) return [];
    throw err;
  }
};
`;

// Plain CommonJS evaluated as the worker, so that it runs the same under tsx and compiled. The walk
// is synchronous: thousands of one-file directories list several times faster without a
// thread-pool round trip each, and in a worker that costs the event loop nothing.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
${STORE_LAYOUT_SOURCE}
const keys = [];
for (const a of list(workerData.root, true)) {
  if (!SHARD.test(a)) continue;
  for (const b of list(join(workerData.root, a))) {
    if (!SHARD.test(b)) continue;
    for (const name of list(join(workerData.root, a, b))) if (KEY.test(name)) keys.push(name);
  }
}
parentPort.postMessage(keys);
`;

/**
 * Every key that has a file under the store's root (<root>/ab/cd/<key>), listed in a worker thread:
 * the hub serves requests while a large store is being listed.
 */
export function listStoreKeys(root: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { root } });
    let keys: string[] | undefined;
    worker.once('message', (message: string[]) => {
      keys = message;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (keys) resolve(keys);
      else reject(new Error(`listing the attachment store failed (worker exited with ${code})`));
    });
  });
}
