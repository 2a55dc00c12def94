import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { HubOptions } from '../../server/hub.js';

const BIN = fileURLToPath(new URL('../../bin/hearth.js', import.meta.url));

export interface ChildHub {
  child: ChildProcess;
  url: string;
  output(): string;
}

/** Runs `hearth serve` as a separate process on an ephemeral port and waits until it listens. */
export async function spawnHub(dataDir: string): Promise<ChildHub> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data', dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /running at (http:\/\/[^\s/]+)\//.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`hub exited with ${code} before listening:\n${out}`)));
  });
  return { child, url, output: () => out };
}

/** kill -9, and wait until the process is gone. */
export async function killHard(hub: ChildHub): Promise<void> {
  if (hub.child.exitCode !== null || hub.child.signalCode !== null) return;
  const exited = once(hub.child, 'exit');
  hub.child.kill('SIGKILL');
  await exited;
}

/** What federating-child-hub.ts starts: the data directory, the port, the channels, hub options. */
export interface ChildHubConfig {
  dataDir: string;
  port: number;
  channels: string[];
  options?: Partial<HubOptions>;
}

const FEDERATING_CHILD = fileURLToPath(new URL('./federating-child-hub.ts', import.meta.url));

/**
 * Runs a federating hub (federating-child-hub.ts) as a separate process on a fixed port, so that
 * it can be killed and started again at the same address; waits until it listens.
 */
export async function spawnFederatingHub(config: ChildHubConfig, nodeArgs: string[] = []): Promise<ChildHub> {
  // Its stdin is a pipe from this process: it exits when that closes (this process is gone).
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', FEDERATING_CHILD, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`hub exited with ${code} before listening:\n${out}`)));
  });
  return { child, url, output: () => out };
}
