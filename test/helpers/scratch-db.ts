import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../server/db/open.js';

/**
 * A migrated database of the test file's own, opened before its tests and removed after them, with
 * foreign keys off (rows need not have their parents). Call the returned function in a hook or a
 * test to get it.
 */
export function scratchDatabase(name: string): () => Db {
  let dir = '';
  let db: Db | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), `hearth-${name}-`));
    db = openDatabase(join(dir, 'hearth.db'));
    db.pragma('foreign_keys = OFF');
  });
  after(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => db!;
}

/** A small deterministic generator of integers below n: a random run that is the same every time. */
export function seededRandom(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return (s >>> 8) % n; // the low bits of this generator repeat quickly
  };
}
