import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { openSqlite } from './db/native-binding.js';

const DATABASE = 'hearth.db';
/** What a hub writes into its data directory besides the attachments and the database. */
const HUB_LEFTOVERS = ['hearth.db-wal', 'hearth.db-shm', 'hearth.db-journal', 'hub.running', 'tmp', 'store'];

export type DataMove =
  | { outcome: 'nothing' }
  | { outcome: 'moved'; from: string; leftBehind: string[] }
  | { outcome: 'left'; from: string; reason: string };

/** The process id of a hub running on this data directory, if any (its marker names a live process). */
export function runningHub(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(dataDir, 'hub.running'), 'utf8'), 10);
    if (!pid || pid === process.pid) return undefined;
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/**
 * Moves the hub of the desktop app's older data folder (`older`) into `target`, once: when the
 * older folder has a database and target has no channels of its own. A hub without any channel
 * in target (what `hearth channel list` or `npm run hub` left there before) is replaced. The
 * database moves last, so a move that stops half-way goes on at the next start. Never throws:
 * what could not be done is the outcome's reason.
 */
export function moveOlderDesktopData(target: string, older: string): DataMove {
  if (resolve(target) === resolve(older) || !existsSync(join(older, DATABASE))) return { outcome: 'nothing' };
  const left = (reason: string): DataMove => ({ outcome: 'left', from: older, reason });
  try {
    const olderPid = runningHub(older);
    if (olderPid) return left(`a Hearth (process ${olderPid}) is running on it`);
    const targetPid = runningHub(target);
    if (targetPid) return left(`a Hearth (process ${targetPid}) is running on ${target}`);
    if (existsSync(join(target, DATABASE))) {
      const channels = channelCount(join(target, DATABASE));
      if (channels > 0) return left(`${target} has channels of its own (${channels})`);
      for (const name of [DATABASE, ...HUB_LEFTOVERS]) rmSync(join(target, name), { recursive: true, force: true });
    }
    mkdirSync(target, { recursive: true });
    const leftBehind: string[] = [];
    const names = readdirSync(older).filter((n) => n !== DATABASE);
    for (const name of [...names, DATABASE]) {
      if (!moveEntry(join(older, name), join(target, name))) leftBehind.push(name);
    }
    if (!leftBehind.length) rmdirSync(older);
    return { outcome: 'moved', from: older, leftBehind };
  } catch (err) {
    return left((err as Error).message);
  }
}

/** Moves a file or folder; false when target already has something of that name (then it stays). */
function moveEntry(from: string, to: string): boolean {
  if (existsSync(to)) {
    if (basename(from) === 'tmp') {
      rmSync(from, { recursive: true, force: true });
      return true;
    }
    return false;
  }
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    // Another file system: copy, then remove.
    cpSync(from, to, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
    rmSync(from, { recursive: true, force: true });
  }
  return true;
}

function channelCount(file: string): number {
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'channel'").get();
    return table ? (db.prepare('SELECT count(*) AS n FROM channel').get() as { n: number }).n : 0;
  } finally {
    db.close();
  }
}
