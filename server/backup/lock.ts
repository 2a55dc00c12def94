import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackupError } from './errors.js';

/** Whether a process with this id is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One backup of a data folder at a time, whichever process runs it (the hub's schedule, the
 * command): a file naming the process that backs up. A killed backup's file names a process that
 * is gone, and the next backup takes its place.
 */
export function lockBackups(dataDir: string): { release(): void } {
  const file = join(dataDir, 'backup.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return { release: () => rmSync(file, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    if (pid && alive(pid)) throw new BackupError(`a backup of this hub is running already (process ${pid})`);
    rmSync(file, { force: true });
  }
  throw new BackupError('another backup of this hub is starting at the same time');
}
