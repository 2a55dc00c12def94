import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { FetchError } from '@fedify/vocab-runtime';
import { FetchRefused, guardedDocumentLoader, guardedGet, type FetchLimits } from '../../server/federation/fetch-documents.js';
import { outboundUrlProblem, type HostLookup } from '../../server/federation/public-address.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '../../server/db/open.js';
import { DeliveryGuard } from '../../server/federation/delivery-guard.js';
import { SqliteMessageQueue } from '../../server/federation/message-queue.js';
import { pinnedTransport } from '../../server/federation/pinned-transport.js';
import { putFedFollow, upsertRemoteActor } from '../../server/store/federation.js';
import { DEFAULT_CONNECTION_PERMS, receiveFollow } from '../../server/services/connections.js';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { createNoteJson, eventually, mastodonClient, queueSettled, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

/**
 * Server-side request forgery: nothing another server sends or names makes the hub fetch from
 * this machine or the local network. Each test runs with HEARTH_FEDERATION_INSECURE unset (as a
 * real hub does) and restores it after; requests that must never be made are aimed at a server
 * the test started, which counts what reaches it.
 */

/** A server on 127.0.0.1 that records every request and answers with `handle`. */
async function recordingServer(handle: (req: IncomingMessage, res: ServerResponse) => void = (_q, s) => s.end('{}')) {
  const seen: string[] = [];
  const connections = { count: 0 };
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handle(req, res);
  });
  server.on('connection', () => connections.count++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    seen,
    connections,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs `fn` with the insecure setting unset, as on a real hub; restores it after. */
async function secure<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.HEARTH_FEDERATION_INSECURE;
  delete process.env.HEARTH_FEDERATION_INSECURE;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.HEARTH_FEDERATION_INSECURE;
    else process.env.HEARTH_FEDERATION_INSECURE = saved;
  }
}

/** The error a fetch fails with: a refusal of the hub's (FetchRefused), or any failed fetch (Fedify's FetchError) when `anyFailure`. */
const refusal = async (p: Promise<unknown>, anyFailure = false) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(anyFailure ? err instanceof FetchError : err instanceof FetchRefused, `expected a refusal, got ${err instanceof Error ? `${err.name}: ${err.message}` : 'an answer'}`);
  return err as Error;
};

/** A DNS of the test's own: names to addresses; anything else does not resolve. */
const fakeDns = (table: Record<string, string[]>): HostLookup & { asked: string[] } => {
  const asked: string[] = [];
  const f = async (host: string) => {
    asked.push(host);
    const a = table[host];
    if (!a) throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' });
    return a;
  };
  return Object.assign(f, { asked });
};

describe('the address rules of every fetch (insecure off)', () => {
  const NOT_PUBLIC_URLS = [
    'https://127.0.0.1/', 'https://127.1/', 'https://2130706433/', 'https://0x7f000001/', 'https://0.0.0.0/', 'https://10.1.2.3/',
    'https://172.16.0.1/', 'https://172.31.255.255/', 'https://192.168.1.1/', 'https://169.254.169.254/latest/meta-data/', 'https://100.64.0.1/',
    'https://[::1]/', 'https://[::]/', 'https://[::ffff:127.0.0.1]/', 'https://[::ffff:10.0.0.1]/', 'https://[::ffff:192.168.0.1]/',
    'https://[::127.0.0.1]/', 'https://[64:ff9b::127.0.0.1]/', 'https://[2002:7f00:1::1]/', 'https://[fe80::1]/', 'https://[fc00::1]/', 'https://[fd12:3456::1]/',
    'https://localhost/', 'https://LOCALHOST./', 'https://app.localhost/', 'https://printer.local/', 'https://intranet/', 'https://nas.home.arpa/',
    'http://social.example.net/', 'ftp://social.example.net/', 'file:///etc/passwd',
  ];

  it('refuses loopback, private, link-local, CGNAT, mapped and embedded IPv4, local names, and anything not https', async () => {
    const dns = fakeDns({ 'social.example.net': ['93.184.215.14'] });
    for (const u of NOT_PUBLIC_URLS) assert.ok(await outboundUrlProblem(new URL(u), false, dns), `${u} is allowed`);
    assert.equal(await outboundUrlProblem(new URL('https://social.example.net/users/a'), false, dns), undefined);
    assert.equal(await outboundUrlProblem(new URL('https://93.184.215.14/users/a'), false, dns), undefined);
    assert.equal(await outboundUrlProblem(new URL('https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/'), false, dns), undefined);
  });

  it('refuses a public-looking name whose DNS answers include a private address, and one that does not resolve', async () => {
    const dns = fakeDns({
      'ten.example.net': ['10.0.0.7'],
      'loop6.example.net': ['::1'],
      'mixed.example.net': ['93.184.215.14', '192.168.1.20'],
      'mapped.example.net': ['::ffff:127.0.0.1'],
      'meta.example.net': ['169.254.169.254'],
      'fine.example.net': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    for (const host of ['ten', 'loop6', 'mixed', 'mapped', 'meta', 'nowhere']) {
      assert.ok(await outboundUrlProblem(new URL(`https://${host}.example.net/actor`), false, dns), `${host} is allowed`);
    }
    assert.equal(await outboundUrlProblem(new URL('https://fine.example.net/actor'), false, dns), undefined);
  });

  it('guardedGet and the document loader never send a request to this machine', async () => {
    const s = await recordingServer();
    try {
      await secure(async () => {
        for (const u of [`${s.url}/actor`, `https://127.0.0.1:${s.port}/actor`, `https://localhost:${s.port}/actor`, `https://[::ffff:127.0.0.1]:${s.port}/actor`, `https://[::1]:${s.port}/actor`]) {
          await refusal(guardedGet(u, { insecure: false }));
          await refusal(guardedDocumentLoader({ insecure: false })(u));
        }
        // A public-looking name that resolves here.
        const dns = fakeDns({ 'evil.example.net': ['127.0.0.1'] });
        await refusal(guardedGet(`https://evil.example.net:${s.port}/actor`, { insecure: false, lookup: dns }));
        assert.deepEqual(dns.asked, ['evil.example.net']);
      });
      assert.deepEqual(s.seen, []);
    } finally {
      await s.close();
    }
  });

  it('a name that resolves to a public address when checked and to this machine when connected to reaches nothing here (DNS rebinding)', async () => {
    const s = await recordingServer();
    let asked = 0;
    // The first answer (the check's) is public, every later one (the connection's) is this machine.
    const rebinding: HostLookup = async () => (asked++ === 0 ? ['93.184.215.14'] : ['127.0.0.1']);
    try {
      await secure(async () => {
        const err = await refusal(guardedGet(`https://rebind.example.net:${s.port}/actor`, { insecure: false, lookup: rebinding }), true);
        assert.match(err.message, /127\.0\.0\.1, which is not a public address/);
        assert.equal(asked, 2, 'asked once for the check, once for the connection');
      });
      assert.equal(s.connections.count, 0, 'a connection reached this machine');
      assert.deepEqual(s.seen, []);
    } finally {
      await s.close();
    }
  });

  it('a redirect from an allowed URL to a private address, a name resolving to one, or another scheme is refused before any request is made there', async () => {
    // The "internet" of this test: every allowed name is served by `front`, which redirects to the
    // target named in its path; `inside` stands for a service on the local network.
    const inside = await recordingServer();
    const targets = [
      `http://127.0.0.1:${inside.port}/admin`,
      `https://127.0.0.1:${inside.port}/admin`,
      `https://[::ffff:7f00:1]:${inside.port}/admin`,
      `https://internal.example.net:${inside.port}/admin`,
      `https://loop6.example.net:${inside.port}/admin`,
      `https://localhost:${inside.port}/admin`,
      'file:///etc/passwd',
    ];
    const front = await recordingServer((req, res) => {
      res.writeHead(302, { location: targets[Number(req.url!.split('/').pop())]! });
      res.end();
    });
    const dns = fakeDns({ 'social.example.net': ['93.184.215.14'], 'internal.example.net': ['10.0.0.7'], 'loop6.example.net': ['::1'] });
    // Requests to an allowed (public) host go to `front` instead of the internet; anything else would go where it says.
    const transport = (request: Request) => {
      const u = new URL(request.url);
      if (u.hostname !== 'social.example.net') return fetch(request);
      return fetch(new Request(`${front.url}${u.pathname}`, request));
    };
    try {
      await secure(async () => {
        for (const k of targets.keys()) {
          const err = await refusal(guardedGet(`https://social.example.net/go/${k}`, { insecure: false, lookup: dns, transport }));
          assert.doesNotMatch(err.message, /HTTP \d/, 'refused, not failed');
        }
      });
      assert.equal(front.seen.length, targets.length, 'the allowed URL was fetched each time');
      assert.deepEqual(inside.seen, [], 'no redirect reached the local network');
    } finally {
      await front.close();
      await inside.close();
    }
  });
});

describe('the size and time caps of every fetch (even with insecure on)', () => {
  const limits: FetchLimits = { maxBytes: 64 * 1024, timeoutMs: 1500, maxRedirects: 2 };
  let s: Awaited<ReturnType<typeof recordingServer>>;
  before(async () => {
    s = await recordingServer((req, res) => {
      const json = { 'content-type': 'application/activity+json' };
      // The large documents are valid JSON: only their size is wrong.
      if (req.url === '/huge-declared') {
        const body = JSON.stringify({ id: 'huge', pad: 'x'.repeat(2 * 1024 * 1024) });
        res.writeHead(200, { ...json, 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
      } else if (req.url === '/huge-chunked') {
        res.writeHead(200, json);
        res.write('{"id":"huge","pad":"');
        const chunk = Buffer.alloc(16 * 1024, 0x78);
        let sent = 0;
        const more = () => {
          if (res.destroyed) return;
          if (sent >= 4 * 1024 * 1024) return void res.end('"}');
          sent += chunk.length;
          if (res.write(chunk)) setImmediate(more);
          else res.once('drain', more);
        };
        more();
      } else if (req.url === '/slow-body') {
        res.writeHead(200, json);
        res.write('{"id":');
        // …and the rest never comes.
      } else if (req.url === '/slow-headers') {
        // No answer at all.
      } else if (req.url?.startsWith('/loop')) {
        res.writeHead(302, { location: `/loop${Number(req.url.slice(5) || 0) + 1}` });
        res.end();
      } else {
        res.writeHead(200, json);
        res.end('{"id":"ok"}');
      }
    });
  });
  after(() => s.close());

  for (const path of ['/huge-declared', '/huge-chunked', '/slow-body', '/slow-headers', '/loop']) {
    // A fetch without its time cap would wait for ever: the test's own limit ends it as a failure.
    it(`refuses ${path.slice(1)}`, { timeout: 20_000 }, async () => {
      await refusal(guardedDocumentLoader({ insecure: true, limits })(`${s.url}${path}`), path.startsWith('/slow'));
    });
  }

  it('takes a small, prompt document', async () => {
    const doc = await guardedDocumentLoader({ insecure: true, limits })(`${s.url}/fine`);
    assert.deepEqual(doc.document, { id: 'ok' });
  });
});

describe('a federating hub whose insecure setting is turned off fetches nothing from this machine', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  before(async () => {
    t = await startFederatingHub(['alice']);
    peer = await FedifyPeer.start({ actors: ['ap1'] });
  });
  after(async () => {
    await peer.close();
    await t.stop();
  });

  it('resolve() of an actor URL or an address on 127.0.0.1 finds nobody and sends nothing there', async () => {
    const before = peer.requests.length;
    await secure(async () => {
      for (const q of [peer.actorUri('ap1'), peer.address('ap1'), peer.actorUri('ap1').replace('127.0.0.1', 'localhost'), `https://127.0.0.1:${new URL(peer.origin).port}/users/ap1`]) {
        assert.equal(await t.hub.federation.resolve(q), undefined, q);
      }
    });
    assert.deepEqual(peer.requests.slice(before).map((r) => `${r.method} ${r.path}`), []);
    // With the setting back, the same actor is found (the refusal above was the rule, not a failure).
    assert.ok(await t.hub.federation.resolve(peer.actorUri('ap1')));
  });

  it('an activity signed with a key on this machine is refused without the key being fetched', async () => {
    const before = peer.requests.length;
    const uri = peer.actorUri('ap1');
    const status = await secure(async () => {
      const r = await peer.signedPost(`${t.url}/inbox`, createNoteJson(uri, { id: peer.freshId('ap1', 'create'), noteId: `${uri}/notes/ssrf-1`, content: 'x' }), { as: 'ap1' });
      return r.status;
    });
    assert.equal(status, 401);
    assert.deepEqual(peer.requests.slice(before).map((r) => `${r.method} ${r.path}`), []);
  });
});

describe('deliveries are checked again when they are sent', () => {
  it('a follower whose inbox was allowed when it followed gets nothing once its address is not (the setting turned off)', async () => {
    const lines: string[] = [];
    const log = { info() {}, warn: (...a: unknown[]) => lines.push(a.join(' ')), error: (...a: unknown[]) => lines.push(a.join(' ')) };
    const t = await startFederatingHub(['alice'], { options: { log } });
    const peer = await FedifyPeer.start({ actors: ['ap1'] });
    try {
      const alice = mastodonClient(t, 'alice');
      await peer.follow('ap1', `${t.url}/channel/alice`);
      await peer.waitFor((r) => r.type === 'Accept');
      await secure(async () => {
        await alice.post('/api/v1/statuses', { status: 'not for the local network' });
        await eventually('the delivery dropped', () => lines.some((l) => l.includes('dropped a delivery') && l.includes(peer.origin)));
        await queueSettled(t);
      });
      assert.ok(!peer.requests.some((r) => r.body.includes('not for the local network')), 'the post was delivered');
      // With the setting back, the next post is delivered: the drop was the rule at work.
      await alice.post('/api/v1/statuses', { status: 'delivered again' });
      await peer.waitFor((r) => r.type === 'Create' && JSON.stringify(r.json).includes('delivered again'));
    } finally {
      await peer.close();
      await t.stop();
    }
  });

  it('the queue drops a delivery whose host now resolves to a private address, asking DNS once a minute per host', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-queue-'));
    const db = openDatabase(join(dir, 'q.db'));
    migrate(db);
    const table: Record<string, string[]> = { 'inbox.example.net': ['93.184.215.14'], 'moved.example.net': ['93.184.215.15'] };
    const dns = fakeDns(table);
    const errors: string[] = [];
    const queue = new SqliteMessageQueue(db, { workers: 1, perLane: 1 }, (e) => errors.push((e as Error).message), { guard: new DeliveryGuard({ insecure: () => false, lookup: dns, ttlMs: 300 }) });
    const handled: string[] = [];
    const stop = new AbortController();
    const listening = queue.listen((m) => void handled.push((m as { id: string }).id), { signal: stop.signal });
    const deliver = async (id: string, inbox: string) => queue.enqueue({ type: 'outbox', id, inbox, activity: {} });
    const settle = (n: number) => eventually(`${n} messages taken`, () => handled.length + errors.length >= n && (db.prepare('SELECT count(*) FROM fed_queue').pluck().get() as number) === 0);
    try {
      await secure(async () => {
        await deliver('a1', 'https://inbox.example.net/inbox');
        await deliver('a2', 'https://inbox.example.net/users/x/inbox');
        await deliver('b1', 'https://moved.example.net/inbox');
        await deliver('c1', 'https://127.0.0.1:8443/inbox');
        await deliver('c2', 'http://social.example.net/inbox');
        await queue.enqueue({ type: 'inbox', id: 'i1', activity: {} });
        await settle(6);
        assert.deepEqual(handled.sort(), ['a1', 'a2', 'b1', 'i1']);
        assert.equal(errors.length, 2);
        assert.match(errors.join('\n'), /dropped a delivery to https:\/\/127\.0\.0\.1:8443\/inbox/);
        assert.equal(dns.asked.filter((h) => h === 'inbox.example.net').length, 1, 'one lookup for two deliveries to the host');
        // The name now points at the local network: within the minute the verdict stands, after it the delivery is dropped.
        table['moved.example.net'] = ['10.0.0.9'];
        await new Promise((r) => setTimeout(r, 400));
        await deliver('b2', 'https://moved.example.net/inbox');
        await settle(7);
        assert.ok(!handled.includes('b2'), 'delivered to a host that resolves to 10.0.0.9');
        assert.match(errors.at(-1)!, /moved\.example\.net resolves to 10\.0\.0\.9/);
      });
    } finally {
      stop.abort();
      await listening;
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a delivery is not redirected to this machine or the local network', () => {
  it('an inbox answering 307, 308 or 302 towards loopback or a name resolving to a private address makes no request there', async () => {
    // The hostile servers' inboxes answer every POST with a redirect; `inside` stands for a
    // service on this machine or the local network, and counts every connection it gets.
    const inside = await recordingServer();
    const redirects: Record<string, [number, string]> = {
      'hostile-a.example.net': [307, `http://127.0.0.1:${inside.port}/admin`],
      'hostile-b.example.net': [308, `https://127.0.0.1:${inside.port}/admin`],
      'hostile-c.example.net': [302, `https://internal.example.net:${inside.port}/admin`],
    };
    const front = await recordingServer((req, res) => {
      const [status, location] = redirects[req.url!.split('/')[1]!]!;
      res.writeHead(status, { location });
      res.end();
    });
    const hosts = Object.keys(redirects);
    // The test's internet: the hostile names are public addresses served by `front`; a name of the
    // local network resolves to one (and reaches `inside` if anything connects to it).
    const dns = fakeDns({ ...Object.fromEntries(hosts.map((h) => [h, ['93.184.215.14']])), 'internal.example.net': ['10.0.0.7'] });
    const toFront = pinnedTransport(true);
    const hostile = (url: string) => hosts.includes(new URL(url).hostname);
    const viaFront = async (request: Request) => {
      const u = new URL(request.url);
      const body = request.method === 'POST' ? await request.arrayBuffer() : undefined;
      return toFront(new Request(`${front.url}/${u.hostname}${u.pathname}`, { method: request.method, headers: request.headers, body }));
    };
    const network = { lookup: dns, transport: (insecure: boolean) => (request: Request) => (hostile(request.url) ? viaFront(request) : pinnedTransport(insecure, dns)(request)) };
    // Whatever sends with the global fetch meets the same internet (Fedify does, unless the hub
    // gives its deliveries their own).
    const globalFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const request = new Request(input, init);
      return hostile(request.url) ? viaFront(request) : globalFetch(request);
    };
    const t = await startFederatingHub(['alice'], { options: { federationNetwork: network } });
    try {
      const alice = t.channels.alice!;
      const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
      for (const host of hosts) {
        const id = `https://${host}/users/victim`;
        upsertRemoteActor(t.hub.db, {
          id, address: `victim@${host}`, name: 'Victim', url: id, icon: '', publicKeyPem: '', inbox: `${id}/inbox`, sharedInbox: `https://${host}/inbox`,
          followers: `${id}/followers`, keyId: `${id}#main-key`, manuallyApproves: false,
        }, now);
        receiveFollow(t.hub, alice, { hash: id, name: 'Victim' }, { theirPerms: DEFAULT_CONNECTION_PERMS, followedBefore: false });
        putFedFollow(t.hub.db, { channelId: alice.channel_id, actor: id, direction: 'in', activityId: `${id}/follows/alice`, accepted: true });
      }
      await secure(async () => {
        await mastodonClient(t, 'alice').post('/api/v1/statuses', { status: 'a public post for the followers elsewhere' });
        await eventually('each hostile inbox sent the post', () => hosts.every((h) => front.seen.includes(`POST /${h}/inbox`)));
        await queueSettled(t);
        await new Promise((r) => setTimeout(r, 300));
      });
      assert.deepEqual(inside.seen, [], 'a redirect made the hub send a request to this machine');
      assert.equal(inside.connections.count, 0, 'a redirect made the hub connect to this machine');
    } finally {
      globalThis.fetch = globalFetch;
      await t.stop();
      await front.close();
      await inside.close();
    }
  });
});

describe("the inbox's own body cap", () => {
  let t: TestHub;
  before(async () => {
    t = await startFederatingHub(['alice']);
  });
  after(() => t.stop());

  /** Sends a POST whose body never ends; resolves with the status as soon as the hub answers. */
  const unfinishedPost = (path: string, headers: Record<string, string>, send: number) =>
    new Promise<number>((resolve, reject) => {
      const u = new URL(path, t.url);
      // Signed, as far as a look at its headers tells (an unsigned POST is refused before its size matters).
      const signature = 'keyId="https://big.example.net/actor#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"';
      const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/activity+json', signature, ...headers } }, (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      });
      req.on('error', (err) => (err.message.includes('socket hang up') || (err as { code?: string }).code === 'EPIPE' ? undefined : reject(err)));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < send) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', more);
        }
      };
      more();
    });

  it('a POST that declares more than 1 MB is answered 413 before its body is sent', async () => {
    for (const path of ['/inbox', '/channel/alice/inbox']) assert.equal(await unfinishedPost(path, { 'content-length': String(50 * 1024 * 1024) }, 64 * 1024), 413, path);
  });

  it('a chunked POST is answered 413 once it passes 1 MB, without waiting for its end', async () => {
    for (const path of ['/inbox', '/channel/alice/inbox']) assert.equal(await unfinishedPost(path, { 'transfer-encoding': 'chunked' }, 1100 * 1024), 413, path);
  });
});
