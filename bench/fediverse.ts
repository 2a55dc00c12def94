import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('./fediverse-process.ts', import.meta.url));

export interface FediverseStats {
  posts: number;
  activities: Record<string, { posts: number; hosts: number; first: number; last: number }>;
}

/** The bench's remote servers (fediverse-process.ts) in their own process, and what they received. */
export interface Fediverse {
  /** One origin (http://127.0.0.1:port) per host. */
  origins: string[];
  actorsPerHost: number;
  /** The actors' shared key pair (PEM): the load generator signs as them with it. */
  keys: { publicKeyPem: string; privateKeyPem: string };
  pid: number;
  actorId(host: number, n: number): string;
  stats(): Promise<FediverseStats>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export async function startFediverse(hosts: number, actorsPerHost: number): Promise<Fediverse> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys = { publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ENTRY, JSON.stringify({ hosts, actorsPerHost, publicKeyPem: keys.publicKeyPem })], { stdio: ['pipe', 'pipe', 'inherit'] });
  const ports = await new Promise<number[]>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve((JSON.parse(line!) as { ports: number[] }).ports);
    });
    child.once('exit', (code) => reject(new Error(`the bench's fediverse exited with ${code}`)));
  });
  const origins = ports.map((p) => `http://127.0.0.1:${p}`);
  return {
    origins,
    actorsPerHost,
    keys,
    pid: child.pid!,
    actorId: (host, n) => `${origins[host]}/users/u${n}`,
    async stats() {
      return (await (await fetch(`${origins[0]}/_bench/stats`)).json()) as FediverseStats;
    },
    async reset() {
      await (await fetch(`${origins[0]}/_bench/reset`, { method: 'POST' })).arrayBuffer();
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
    },
  };
}
