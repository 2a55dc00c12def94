import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket, connect } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * moto's S3 server (moto_server, from moto 5.2.1 in the machine's Python), which speaks S3 as the
 * AWS SDK v3 sends it. Found on PATH or in pyenv's shims; undefined when this machine has none.
 */
export function findMotoServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...(env.PATH ?? '').split(delimiter), '/root/.pyenv/shims', join(env.HOME ?? '/root', '.pyenv', 'shims'), join(env.HOME ?? '/root', '.local', 'bin')];
  return dirs.map((d) => join(d, 'moto_server')).find((p) => p.startsWith('/') && existsSync(p));
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export interface Moto {
  url: string;
  /** Creates a bucket (moto takes unsigned requests). */
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startMoto(bin: string): Promise<Moto> {
  const port = await freePort();
  const child: ChildProcess = spawn(bin, ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`moto_server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async createBucket(name) {
      const res = await fetch(`${url}/${name}`, { method: 'PUT' });
      if (!res.ok) throw new Error(`creating the bucket failed: ${res.status} ${await res.text()}`);
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** A TCP relay to a server on this machine whose connections can be dropped at will. */
export interface Relay {
  url: string;
  /** Drops every open connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startRelay(to: string): Promise<Relay> {
  const { hostname, port } = new URL(to);
  const sockets = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((client) => {
    if (cut) return client.destroy();
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
