import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { multipart } from './endpoints.js';
import { loadEndpoint, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';

const BIN = fileURLToPath(new URL('../bin/hearth.js', import.meta.url));

/** What `npm run bench` measures of backups (bench/README.md, "Backups"). */
export interface BackupMeasure {
  /** What a backup holds: the database and every file it refers to. */
  backupMB: number;
  /** A full backup to an empty folder: the time `hearth backup` reports (its work) and the process's whole run. */
  full: { seconds: number; wallSeconds: number; MBps: number };
  /** `cp -r` of the whole data folder to the same disk: the floor. */
  cp: { seconds: number; MB: number; MBps: number };
  /** A backup after 100 new posts, 10 of them with a photo. */
  incremental: { seconds: number; wallSeconds: number; copiedFiles: number; copiedMB: number; databaseCopiedMB: number };
  /** statuses/update under load without a backup (before and after) and while a full backup runs. */
  posting: { withoutRps: number[]; duringRps: number; ratio: number; withoutP99Ms: number; duringP99Ms: number; backupRanThroughout: boolean };
}

interface BackupRun {
  id: string;
  seconds: number;
  wallSeconds: number;
  MB: number;
  copiedFiles: number;
  copiedMB: number;
  /** The database's chunks written: the ones that changed since the backups in the target. */
  databaseCopiedMB: number;
}

/** Runs `hearth backup` as its own process (as the owner or a cron job would); resolves with its summary. */
function backUp(dataDir: string, to: string, onStarted?: () => void): { done: Promise<BackupRun>; running: () => boolean } {
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, 'backup', '--to', to, '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let running = true;
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => {
    err += d;
    if (onStarted && err.includes('Copying the database')) {
      onStarted();
      onStarted = undefined;
    }
  });
  const done = new Promise<BackupRun>((resolve, reject) =>
    child.once('close', (code) => {
      running = false;
      const m = /^backup (\S+): ([\d.]+) MB \(the database and \d+ files\), (\d+) files copied \(([\d.]+) MB\), ([\d.]+) of [\d.]+ MB of the database copied, ([\d.]+) s$/m.exec(out);
      if (code !== 0 || !m) return reject(new Error(`hearth backup failed (${code}):\n${out}\n${err}`));
      resolve({ id: m[1]!, MB: Number(m[2]), copiedFiles: Number(m[3]), copiedMB: Number(m[4]), databaseCopiedMB: Number(m[5]), seconds: Number(m[6]), wallSeconds: (performance.now() - t0) / 1000 });
    }),
  );
  return { done, running: () => running };
}

function copyFloor(dataDir: string, to: string): { seconds: number; MB: number } {
  const t0 = performance.now();
  const cp = spawnSync('cp', ['-r', dataDir, to]);
  const seconds = (performance.now() - t0) / 1000;
  if (cp.status !== 0) throw new Error(`cp -r failed: ${cp.stderr}`);
  const du = spawnSync('du', ['-sb', to], { encoding: 'utf8' });
  return { seconds, MB: Number(du.stdout.split('\t')[0]) / 1048576 };
}

async function postNew(url: string, auth: string, photo: Buffer, count: number, photos: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const withPhoto = i % Math.floor(count / photos) === 0 && i / Math.floor(count / photos) < photos;
    const body = withPhoto ? multipart({ status: `New post ${i} with a photo, before the incremental backup` }, { field: 'media', filename: `IMG_${i}.jpg`, type: 'image/jpeg', data: photo }) : undefined;
    const res = await fetch(`${url}/api/statuses/update.json`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': body ? body.contentType : 'application/x-www-form-urlencoded' },
      body: body ? new Uint8Array(body.body) : new URLSearchParams({ status: `New post ${i}, before the incremental backup` }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`posting failed: ${res.status}`);
  }
}

/**
 * Backups of the seeded hub while it serves: a full backup to a folder against `cp -r` of the same
 * folder, an incremental one after 100 new posts with 10 photos, and the posting rate while a full
 * backup runs against the rate without one (measured before and after).
 */
export async function measureBackups(hub: { url: string; pid: number }, dataDir: string, auth: string, photo: Buffer, load: LoadOptions, log: (m: string) => void): Promise<BackupMeasure> {
  const work = await mkdtemp(join(dirname(dataDir), 'hearth-bench-backup-'));
  try {
    log('Backups: cp -r of the data folder (the floor)…');
    copyFloor(dataDir, join(work, 'warm-up'));
    await rm(join(work, 'warm-up'), { recursive: true, force: true });
    const cp = copyFloor(dataDir, join(work, 'cp'));
    await rm(join(work, 'cp'), { recursive: true, force: true });
    log(`  cp -r: ${cp.MB.toFixed(0)} MB in ${cp.seconds.toFixed(1)} s`);

    log('Backups: a full backup while the hub serves…');
    const full = await backUp(dataDir, join(work, 'target')).done;
    log(`  full backup ${full.id}: ${full.MB.toFixed(0)} MB in ${full.seconds.toFixed(1)} s (${full.wallSeconds.toFixed(1)} s with the process's start)`);

    log('Backups: 100 new posts with 10 photos, then an incremental backup…');
    await postNew(hub.url, auth, photo, 100, 10);
    const incremental = await backUp(dataDir, join(work, 'target')).done;
    log(`  incremental backup: ${incremental.copiedFiles} files (${incremental.copiedMB} MB) and ${incremental.databaseCopiedMB} MB of the database in ${incremental.seconds.toFixed(2)} s (${incremental.wallSeconds.toFixed(1)} s with the process's start)`);

    log('Backups: posting rate without a backup, during a full one, and without again…');
    const spec: RequestSpec = {
      method: 'POST',
      path: '/api/statuses/update.json',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      next: (n) => ({ body: new URLSearchParams({ status: `Status ${n} posted while backups run #bench`, source: 'hearth-bench' }).toString() }),
    };
    const opts: LoadOptions = { ...load, warmupSeconds: 0 };
    const before = await loadEndpoint(hub.url, spec, opts);
    let started!: () => void;
    const copying = new Promise<void>((resolve) => (started = resolve));
    const during = backUp(dataDir, join(work, 'target-2'), () => started());
    await copying;
    const withBackup: LoadResult = await loadEndpoint(hub.url, spec, opts);
    const ranThroughout = during.running();
    await during.done;
    const afterwards = await loadEndpoint(hub.url, spec, opts);
    const withoutRps = [before.rps, afterwards.rps];
    const ratio = withBackup.rps / ((before.rps + afterwards.rps) / 2);
    log(`  statuses/update: ${before.rps.toFixed(0)} and ${afterwards.rps.toFixed(0)} req/s without a backup, ${withBackup.rps.toFixed(0)} req/s during one (${Math.round(ratio * 100)}%)${ranThroughout ? '' : ' — the backup ended before the load did'}`);
    return {
      backupMB: full.MB,
      full: { seconds: full.seconds, wallSeconds: full.wallSeconds, MBps: full.MB / full.seconds },
      cp: { seconds: cp.seconds, MB: cp.MB, MBps: cp.MB / cp.seconds },
      incremental: { seconds: incremental.seconds, wallSeconds: incremental.wallSeconds, copiedFiles: incremental.copiedFiles, copiedMB: incremental.copiedMB, databaseCopiedMB: incremental.databaseCopiedMB },
      posting: { withoutRps, duringRps: withBackup.rps, ratio, withoutP99Ms: Math.max(before.p99Ms, afterwards.p99Ms), duringP99Ms: withBackup.p99Ms, backupRanThroughout: ranThroughout },
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The bench table's lines about backups. */
export function backupLines(b: BackupMeasure): string[] {
  const f = (n: number, d = 1) => n.toFixed(d);
  return [
    `Backups (hearth backup to a folder on the same disk, while the hub serves): full ${f(b.backupMB, 0)} MB in ${f(b.full.seconds)} s = ${f(b.full.MBps, 0)} MB/s (${f(b.full.wallSeconds)} s with the process's start);`,
    `  floor: cp -r of the data folder, ${f(b.cp.MB, 0)} MB in ${f(b.cp.seconds)} s = ${f(b.cp.MBps, 0)} MB/s: the backup runs at ${Math.round((b.full.MBps / b.cp.MBps) * 100)}% of it;`,
    `  incremental after 100 posts with 10 photos: ${f(b.incremental.seconds, 2)} s (${b.incremental.copiedFiles} files, ${b.incremental.copiedMB} MB, and ${b.incremental.databaseCopiedMB} MB of the database's chunks; ${f(b.incremental.wallSeconds)} s with the process's start);`,
    `  statuses/update: ${b.posting.withoutRps.map((r) => f(r, 0)).join(' and ')} req/s without a backup, ${f(b.posting.duringRps, 0)} during a full one = ${Math.round(b.posting.ratio * 100)}% (p99 ${f(b.posting.withoutP99Ms, 0)} → ${f(b.posting.duringP99Ms, 0)} ms)${b.posting.backupRanThroughout ? '' : '; the backup ended before the load'}`,
  ];
}
