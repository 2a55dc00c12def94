import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite } from '../../server/db/native-binding.js';

export const BIN = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts `hearth ARGS` as its own process (as the owner would run it). */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliRun>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export const hearth = (args: string[], env: NodeJS.ProcessEnv = {}) => startCli(args, env).done;

/** The backup id in `hearth backup`'s summary line. */
export function backupIdOf(run: CliRun): string {
  const m = /^backup (\d{8}-\d{6}(?:-\d+)?): /m.exec(run.stdout);
  if (!m) throw new Error(`no summary line from hearth backup (exit ${run.code ?? run.signal}):\n${run.stdout}\n${run.stderr}`);
  return m[1]!;
}

export type Rows = Map<string, string>;

/** Every row of a table, by its primary key (or rowid), as canonical text (blobs in hex): for byte-for-byte comparisons. */
export function tableRows(dataDir: string, table: string, where = '1'): Rows {
  const db = openSqlite(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  try {
    const pk = (db.prepare(`SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`).pluck().all(table) as string[]).map((c) => `"${c}"`);
    const key = pk.length ? pk.join(" || '/' || ") : 'rowid';
    const rows = db.prepare(`SELECT ${key} AS _key_, * FROM ${table} WHERE ${where}`).all() as Record<string, unknown>[];
    const text = (r: Record<string, unknown>) => JSON.stringify({ ...r, _key_: undefined }, (_k, v) => (Buffer.isBuffer(v) ? `hex:${v.toString('hex')}` : typeof v === 'bigint' ? String(v) : v));
    return new Map(rows.map((r) => [String(r._key_), text(r)]));
  } finally {
    db.close();
  }
}

/** The store files the database refers to, with the SHA-256 of each. */
export async function storeFiles(dataDir: string): Promise<Map<string, string>> {
  const db = openSqlite(join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
  let contents: string[];
  try {
    contents = db.prepare('SELECT content FROM attach WHERE is_dir = 0 AND os_storage = 1 UNION SELECT content FROM photo WHERE os_storage = 1').pluck().all() as string[];
  } finally {
    db.close();
  }
  const out = new Map<string, string>();
  for (const c of contents) out.set(c, createHash('sha256').update(await readFile(join(dataDir, c))).digest('hex'));
  return out;
}
