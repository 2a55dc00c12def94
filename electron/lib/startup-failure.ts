import { NativeModuleError, prepareCommand } from '../../server/db/native-binding.js';
import type { LogFile } from './log-file.js';

/** Why the hub could not start, as the owner needs to hear it. */
export type FailureKind = 'native-module' | 'port-in-use' | 'damaged-database' | 'data-folder' | 'unknown';

export interface StartupFailure {
  kind: FailureKind;
  /** One sentence: what went wrong. */
  reason: string;
  /** What to do about it. */
  advice: string;
}

export interface FailureContext {
  dataDir: string;
  /** An installed app (the owner cannot run build commands in it) rather than `npm start` in a checkout. */
  packaged: boolean;
}

type ErrorLike = { code?: unknown; syscall?: unknown; port?: unknown; address?: unknown; path?: unknown; message?: unknown; cause?: unknown };

const FOLDER_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR', 'EEXIST', 'SQLITE_CANTOPEN', 'SQLITE_PERM', 'SQLITE_FULL']);

function codeOf(err: ErrorLike): string {
  return typeof err.code === 'string' ? err.code : '';
}

function messageOf(err: unknown): string {
  const m = (err as ErrorLike | null)?.message;
  return (typeof m === 'string' ? m : String(err)).split('\n')[0]!.trim();
}

/** Sorts an error from starting the hub into what the owner can act on. */
export function classifyStartupFailure(err: unknown, ctx: FailureContext): StartupFailure {
  const e = (err ?? {}) as ErrorLike;
  const code = codeOf(e);
  if (err instanceof NativeModuleError) {
    return {
      kind: 'native-module',
      reason: `Hearth's database engine (better-sqlite3) could not be loaded: ${err.problem}.`,
      advice: ctx.packaged
        ? 'This installation is incomplete or damaged. Reinstall Hearth; your data stays where it is.'
        : `In the Hearth folder, run \`${prepareCommand(err.target)}\` (or \`npm start\` again, which does the same). Where no prebuilt binary exists it compiles, which needs a C++ toolchain and Python.`,
    };
  }
  if (e.syscall === 'listen' && (code === 'EADDRINUSE' || code === 'EACCES')) {
    const where = `${typeof e.address === 'string' ? e.address : '127.0.0.1'}:${String(e.port ?? '?')}`;
    return {
      kind: 'port-in-use',
      reason: code === 'EADDRINUSE' ? `Another program is already using ${where}.` : `Hearth may not listen on ${where}.`,
      advice: 'Close the other program (it may be another Hearth, such as `hearth serve`) and start Hearth again.',
    };
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return {
      kind: 'damaged-database',
      reason: `The database in the data folder is damaged (${messageOf(err)}).`,
      advice: 'Hearth changed nothing. Restore hearth.db (with hearth.db-wal, if there is one) from a backup, or move the data folder aside to start with an empty one, then start Hearth again.',
    };
  }
  if (FOLDER_CODES.has(code) || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_IOERR')) {
    const full = code === 'ENOSPC' || code === 'SQLITE_FULL';
    return {
      kind: 'data-folder',
      reason: full ? `The disk holding the data folder is full (${messageOf(err)}).` : `Hearth cannot write to its data folder (${messageOf(err)}).`,
      advice: full
        ? 'Free some space on that disk and start Hearth again.'
        : 'Make sure the folder exists, your user account may write to it and the disk is not read-only, or set HEARTH_DATA to another folder; then start Hearth again.',
    };
  }
  if (e.cause !== undefined && e.cause !== err) {
    const inner = classifyStartupFailure(e.cause, ctx);
    if (inner.kind !== 'unknown') return inner;
  }
  return {
    kind: 'unknown',
    reason: `The hub could not start: ${messageOf(err)}.`,
    advice: 'The log file has the details. If starting again does not help, please report it with the log.',
  };
}

export const FAILURE_TITLE = 'Hearth could not start';

/** The error dialog: the reason, what to do, the data folder and the log file. */
export function failureDialog(f: StartupFailure, ctx: FailureContext, logFile: string, logProblem?: string) {
  const log = logProblem ? `The log file ${logFile} could not be written either (${logProblem}).` : `Details are in ${logFile}.`;
  return {
    type: 'error' as const,
    title: FAILURE_TITLE,
    message: f.reason,
    detail: `${f.advice}\n\nData folder: ${ctx.dataDir}\n${log}`,
    buttons: ['Quit', 'Open the log file'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
}

/** The same for the log: with the error's stack and what caused it. */
export function failureLogText(f: StartupFailure, err: unknown, ctx: FailureContext): string {
  const lines = [`${FAILURE_TITLE} (${f.kind}): ${f.reason}`, `What to do: ${f.advice}`, `Data folder: ${ctx.dataDir}`];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && depth < 4; depth++) {
    const stack = (e as { stack?: unknown } | null)?.stack;
    lines.push(`${depth ? 'Caused by: ' : ''}${typeof stack === 'string' ? stack : String(e)}`);
    e = (e as ErrorLike | null)?.cause;
  }
  return lines.join('\n');
}

/** The parts of Electron a failed start uses; main.ts passes the real ones, tests fakes. */
export interface FailureUi {
  /** dialog.showMessageBoxSync: resolves to the index of the button clicked. */
  showMessageBox(options: ReturnType<typeof failureDialog>): number;
  /** shell.openPath */
  openPath(path: string): void;
  writeStderr(text: string): void;
}

/**
 * Reports a start that failed: to the log file always; then in a dialog, or on stderr in smoke
 * mode (nobody is there to click). Returns the exit code.
 */
export function reportStartupFailure(err: unknown, ctx: FailureContext & { smoke: boolean }, log: LogFile, ui: FailureUi): number {
  const f = classifyStartupFailure(err, ctx);
  const logProblem = log.write('error', failureLogText(f, err, ctx));
  if (ctx.smoke) {
    ui.writeStderr(`Hearth smoke test failed: ${f.reason} ${f.advice} (data folder: ${ctx.dataDir}; log: ${log.path})\n`);
    return 1;
  }
  const choice = ui.showMessageBox(failureDialog(f, ctx, log.path, logProblem));
  if (choice === 1 && !logProblem) ui.openPath(log.path);
  return 1;
}
