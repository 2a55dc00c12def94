import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rssMB } from './memory.js';

const BIN = fileURLToPath(new URL('../bin/hearth.js', import.meta.url));

export interface HubProcess {
  pid: number;
  /** Base URL without trailing slash. */
  url: string;
  /** Process start to the first 200 from api/help/test, in ms. */
  coldStartMs: number;
  rss(): number;
  /** What the hub wrote to stderr (errors it logged). */
  stderr(): string;
  /** Whether the hub writes a line matching `pattern` to stdout within `timeoutMs` (or has already). */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

export interface HubProcessOptions {
  /** Directory for a V8 CPU profile of the hub (written when it stops). */
  cpuProfDir?: string;
  /**
   * The hub's entry script: bin/hearth.js (TypeScript through tsx, as `hearth serve` runs) by
   * default, or a compiled build (as the desktop app runs it; build.ts).
   */
  entry?: string;
  /** A fixed port (a federating hub's addresses are fixed to it); a free one by default. */
  port?: number;
  /** More environment for the hub (HEARTH_FEDERATION_INSECURE=1 for the federation benchmarks). */
  env?: Record<string, string>;
}

async function firstOk(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no 200 from ${url}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts `hearth serve` on the data directory in its own process (so its memory can be read and
 * it does not share the load generator's event loop), on a free loopback port.
 */
export async function startHubProcess(dataDir: string, opts: HubProcessOptions = {}): Promise<HubProcess> {
  const nodeArgs: string[] = [];
  if (opts.cpuProfDir) {
    mkdirSync(opts.cpuProfDir, { recursive: true });
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', opts.cpuProfDir);
  }
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, opts.entry ?? BIN, 'serve', '--data', dataDir, '--host', '127.0.0.1', '--port', String(opts.port ?? 0)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...withoutBaseUrl(process.env), ...opts.env },
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-20_000);
  });
  let stdout = '';
  const outputWaiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout = (stdout + d).slice(-20_000);
    for (const wake of outputWaiters) wake();
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const onData = (d: string) => {
      out += d;
      const m = /running at (http:\/\/\S+?)\/? /.exec(out);
      if (m) {
        child.stdout!.off('data', onData);
        resolve(m[1]!.replace(/\/$/, ''));
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`hub exited with ${code} before listening:\n${stderr}`)));
  });
  await firstOk(`${url}/api/help/test`, Date.now() + 30_000);
  const coldStartMs = performance.now() - t0;
  return {
    pid: child.pid!,
    url,
    coldStartMs,
    rss: () => rssMB(child.pid!),
    stderr: () => stderr,
    waitForOutput(pattern, timeoutMs) {
      return new Promise<boolean>((resolve) => {
        const done = (found: boolean) => {
          outputWaiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const check = () => void (pattern.test(stdout) && done(true));
        const timer = setTimeout(() => done(false), timeoutMs);
        outputWaiters.add(check);
        check();
      });
    },
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited(child);
      clearTimeout(timer);
    },
  };
}

/** The hub under test builds its URLs from its own port, whatever the caller's environment says. */
function withoutBaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { HEARTH_BASE_URL: _ignored, ...rest } = env;
  return rest;
}
