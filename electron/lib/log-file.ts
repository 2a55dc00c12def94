import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { format } from 'node:util';
import type { Logger } from '../../server/hub.js';

/** Past this size the log starts over, keeping the previous one as `<file>.1`. */
const MAX_BYTES = 1024 * 1024;

export interface LogFile {
  readonly path: string;
  /** Appends lines with a timestamp. Never throws: returns why the file could not be written, if it could not. */
  write(level: string, text: string): string | undefined;
}

/**
 * The desktop app's log, in its user-data folder: where a packaged app's messages can be found
 * (Windows and macOS show no console), and where a failed start leaves its details.
 */
export function openLogFile(path: string, maxBytes = MAX_BYTES): LogFile {
  try {
    if (statSync(path).size > maxBytes) renameSync(path, `${path}.1`);
  } catch {
    // no log yet
  }
  return {
    path,
    write(level, text) {
      const stamp = new Date().toISOString();
      const lines = text.split('\n').map((line) => `${stamp} ${level.padEnd(5)} ${line}`);
      try {
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, lines.join('\n') + '\n');
        return undefined;
      } catch (err) {
        return (err as Error).message;
      }
    },
  };
}

/** A logger writing to the console and to the log file. */
export function teeLogger(file: LogFile, console: Logger): Logger {
  const both = (level: 'info' | 'warn' | 'error') => (...args: unknown[]) => {
    console[level](...args);
    file.write(level, format(...args));
  };
  return { info: both('info'), warn: both('warn'), error: both('error') };
}
