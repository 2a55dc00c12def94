import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../server/db/open.js';
import { createChannel } from '../server/services/channels.js';
import { ProcessGroupCpu, processCpuMs } from './cpu.js';
import { basicAuth } from './endpoints.js';
import { startHubProcess } from './hub-process.js';
import type { PostText } from './side-by-side-text.js';

/** A hub the side-by-side loads: where it is, how to log in, and a clock of the CPU it uses. */
export interface Hub {
  name: string;
  url: string;
  authorization: string;
  version: string;
  /** Which processes cpuMs counts. */
  cpuOf: string;
  /** CPU time (user + system) of the hub's processes so far, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** Hubzilla's processes: php-fpm workers and the queue workers they start (php), the database and nginx. */
const HUBZILLA_PROCESS = /^(php|mariadbd|mysqld|nginx)/;

const HEARTH_NICK = 'alice';
const HEARTH_PASSWORD = 'side by side password';

async function versionOf(url: string, authorization: string): Promise<string> {
  const res = await fetch(`${url}/api/z/1.0/version`, { headers: { authorization } });
  const text = await res.text();
  try {
    return String(JSON.parse(text));
  } catch {
    return text.trim().slice(0, 40);
  }
}

/** A Hearth hub in its own process on a new data directory with one channel, removed when it stops. */
export async function startHearth(): Promise<Hub> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-side-by-side-'));
  const db = openDatabase(join(dataDir, 'hearth.db'));
  try {
    // The hub moves the channel's URLs to its own port when it starts listening.
    await createChannel(db, { baseUrl: 'http://127.0.0.1:8420' }, { nick: HEARTH_NICK, name: 'Alice Tester', password: HEARTH_PASSWORD });
  } finally {
    db.close();
  }
  const child = await startHubProcess(dataDir);
  const authorization = basicAuth(HEARTH_NICK, HEARTH_PASSWORD);
  return {
    name: 'Hearth',
    url: child.url,
    authorization,
    version: await versionOf(child.url, authorization),
    cpuOf: `the hub process (pid ${child.pid})`,
    cpuMs: () => processCpuMs(child.pid),
    async stop() {
      await child.stop();
      const errors = child.stderr().trim();
      if (errors) console.error(`Hearth logged:\n${errors.slice(-2000)}`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A running Hubzilla on this machine; its CPU is that of all php, MariaDB/MySQL and nginx processes. */
export async function hubzilla(url: string, login: string, password: string): Promise<Hub> {
  const base = url.replace(/\/+$/, '');
  const authorization = basicAuth(login, password);
  const res = await fetch(`${base}/api/z/1.0/channel/stream`, { headers: { authorization } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`Hubzilla at ${base} answers channel/stream for ${login} with ${res.status}`);
  const group = new ProcessGroupCpu((comm) => HUBZILLA_PROCESS.test(comm));
  return {
    name: 'Hubzilla',
    url: base,
    authorization,
    version: await versionOf(base, authorization),
    cpuOf: 'all php (php-fpm and queue workers), mariadbd/mysqld and nginx processes',
    cpuMs: () => group.ms(),
    async stop() {
      group.stop();
    },
  };
}

export function postForm(text: PostText): string {
  return new URLSearchParams({ body: text.body, title: text.title }).toString();
}

/** Whether an item/update answer reports a stored post (Hubzilla refuses with a 200 too). */
export function postStored(answer: string): boolean {
  return /"success"\s*:\s*true/.test(answer);
}

/** One post through item/update: its status and answer. */
export async function postItem(hub: Hub, text: PostText): Promise<{ status: number; answer: string }> {
  const res = await fetch(`${hub.url}/api/z/1.0/item/update`, {
    method: 'POST',
    headers: { authorization: hub.authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: postForm(text),
  });
  return { status: res.status, answer: await res.text() };
}

/** Posts the texts through item/update, a few at a time; fails on the first refusal. */
export async function seedPosts(hub: Hub, texts: PostText[], concurrency = 4): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < texts.length) {
      const i = next++;
      const { status, answer } = await postItem(hub, texts[i]!);
      if (status !== 200 || !postStored(answer)) {
        const hint = answer.includes('operation cancelled') ? ' (Hubzilla refuses a body it was sent in the last 2 minutes: wait and run again)' : '';
        throw new Error(`${hub.name} refused post ${i + 1}: ${status} ${answer.slice(0, 200)}${hint}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * Waits until the hub's processes are idle (under 2 % of a core for a second; at most `maxS`):
 * Hubzilla finishes a post's delivery in queue workers after answering. Returns the seconds waited.
 */
export async function settle(hub: Hub, maxS = 120): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const a = hub.cpuMs();
    await new Promise((r) => setTimeout(r, 1000));
    const waited = (performance.now() - t0) / 1000;
    if (hub.cpuMs() - a < 20 || waited >= maxS) return waited;
  }
}
