/**
 * Run as a child process by fediverse.ts: `hosts` small ActivityPub servers on 127.0.0.1 (each a
 * port of its own, so each a host of its own for the hub's delivery lanes), each with
 * `actorsPerHost` actors named u0, u1, … sharing one public key, and a shared inbox that counts
 * what it is sent and answers 202. Prints one JSON line {ports} once they all listen.
 *
 * Every server also answers GET /_bench/stats (what all inboxes received since the last reset)
 * and POST /_bench/reset.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Config {
  hosts: number;
  actorsPerHost: number;
  publicKeyPem: string;
}

/** What the inboxes received since the last reset. */
interface Stats {
  /** POSTs to an inbox, all hosts together. */
  posts: number;
  /** Per activity id: POSTs, hosts that got it, when the first and the last arrived (Unix ms). */
  activities: Record<string, { posts: number; hosts: number; first: number; last: number }>;
}

const config = JSON.parse(process.argv[2]!) as Config;
let stats: Stats = { posts: 0, activities: {} };
const hostsOf = new Map<string, Set<number>>();

function actor(origin: string, name: string) {
  const id = `${origin}/users/${name}`;
  return {
    '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
    id,
    type: 'Person',
    preferredUsername: name,
    name: `Bench ${name}`,
    inbox: `${id}/inbox`,
    outbox: `${id}/outbox`,
    followers: `${id}/followers`,
    endpoints: { sharedInbox: `${origin}/inbox` },
    publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: config.publicKeyPem },
  };
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function answer(res: ServerResponse, status: number, json?: unknown, type = 'application/activity+json'): void {
  const text = json === undefined ? '' : JSON.stringify(json);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function handler(port: number) {
  const origin = `http://127.0.0.1:${port}`;
  return (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method === 'GET' && path === '/_bench/stats') return answer(res, 200, stats, 'application/json');
      if (req.method === 'POST' && path === '/_bench/reset') {
        stats = { posts: 0, activities: {} };
        hostsOf.clear();
        return answer(res, 204);
      }
      const user = /^\/users\/(u\d+)$/.exec(path);
      if (req.method === 'GET' && user && Number(user[1]!.slice(1)) < config.actorsPerHost) return answer(res, 200, actor(origin, user[1]!));
      if (req.method === 'POST' && (path === '/inbox' || /^\/users\/u\d+\/inbox$/.test(path))) {
        const text = await body(req);
        let id = '?';
        try {
          id = String((JSON.parse(text) as { id?: unknown }).id ?? '?');
        } catch {
          // counted under '?'
        }
        const now = Date.now();
        stats.posts++;
        const a = (stats.activities[id] ??= { posts: 0, hosts: 0, first: now, last: now });
        a.posts++;
        a.last = now;
        const hosts = hostsOf.get(id) ?? new Set<number>();
        hosts.add(port);
        hostsOf.set(id, hosts);
        a.hosts = hosts.size;
        return answer(res, 202);
      }
      answer(res, 404, { error: 'not found' }, 'application/json');
    })().catch(() => answer(res, 500));
  };
}

const ports: number[] = [];
for (let h = 0; h < config.hosts; h++) {
  const server = createServer({ keepAliveTimeout: 30_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  server.on('request', handler(port));
  ports.push(port);
}
process.stdout.write(JSON.stringify({ ports }) + '\n');
// The bench holds the other end of stdin: when it is gone, so are these servers.
process.stdin.on('end', () => process.exit(0)).resume();
