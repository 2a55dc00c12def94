import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { createNoteJson, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

/** Small limits, so that a test reaches them (the hub's own are HubOptions.federationInbox). */
const PER_HOST = 30;
const PER_ADDRESS = 50;

/** Sends a request from another loopback address (127.0.0.2: an ordinary client, not the owner's machine). */
function sendFrom(localAddress: string, request: Request, body: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const u = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => (headers[k] = v));
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: request.method, headers, localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Floods of the inboxes: a remote server past its rate is told to come back later (429 with
 * Retry-After), unsigned junk is refused before the hub reads or fetches anything for it, a client
 * address past its rate is refused too, and the hub serves its own users all the while.
 */
describe('inbox floods', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let other: FedifyPeer;
  let n = 0;

  before(async () => {
    t = await startFederatingHub(['alice'], { options: { federationInbox: { perHostPerMinute: PER_HOST, perAddressPerMinute: PER_ADDRESS } } });
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2'] });
    other = await FedifyPeer.start({ actors: ['op1'] });
  });
  after(async () => {
    await other.close();
    await peer.close();
    await t.stop();
  });

  const create = (p: FedifyPeer, actor: string) => {
    const uri = p.actorUri(actor);
    return createNoteJson(uri, { id: p.freshId(actor, 'create'), noteId: `${uri}/notes/flood-${++n}`, content: `<p>flood ${n}</p>` });
  };
  const statuses = async (p: FedifyPeer, actor: string, count: number, concurrency = 6) => {
    const out: Response[] = [];
    let left = count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) out.push(await p.signedPost(`${t.url}/inbox`, create(p, actor), { as: actor }));
      }),
    );
    return out;
  };

  it('a server past its rate gets 429 with Retry-After, for every actor of it; another server is not held back', async () => {
    const answers = await statuses(peer, 'ap1', PER_HOST + 20);
    const taken = answers.filter((r) => r.status === 202).length;
    const refused = answers.filter((r) => r.status === 429);
    assert.ok(taken >= PER_HOST && taken <= PER_HOST + 6, `taken: ${taken}`);
    assert.ok(refused.length >= 14, `refused: ${refused.length}`);
    for (const r of refused) assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
    assert.ok(Number(refused[0]!.headers.get('retry-after')) >= 1 && Number(refused[0]!.headers.get('retry-after')) <= 60);
    // ap2 is on the same server: held back too.
    assert.equal((await peer.signedPost(`${t.url}/inbox`, create(peer, 'ap2'), { as: 'ap2' })).status, 429);
    // The other server is not.
    assert.equal((await other.signedPost(`${t.url}/inbox`, create(other, 'op1'), { as: 'op1' })).status, 202);
  });

  it("activities that name a server's key without its signature holding do not spend that server's share", async () => {
    // op1's key named, the body changed after signing: refused, and op1's server still has its share.
    for (let k = 0; k < PER_HOST + 5; k++) assert.equal((await other.signedPost(`${t.url}/inbox`, create(other, 'op1'), { as: 'op1', tamper: true })).status, 401);
    assert.equal((await other.signedPost(`${t.url}/inbox`, create(other, 'op1'), { as: 'op1' })).status, 202);
  });

  it('unsigned junk is refused at once: before its body is read, and without the hub fetching anything it names', { timeout: 30_000 }, async () => {
    const trap: string[] = [];
    const server = createServer((req, res) => {
      trap.push(`${req.method} ${req.url}`);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const trapUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      // JSON-LD with a remote context and a Linked Data signature whose key is on the trap.
      const junk = {
        '@context': ['https://www.w3.org/ns/activitystreams', `${trapUrl}/context.jsonld`],
        id: `${trapUrl}/activity/1`,
        type: 'Create',
        actor: `${trapUrl}/actor`,
        object: { id: `${trapUrl}/note/1`, type: 'Note', content: 'junk', attributedTo: `${trapUrl}/actor` },
        signature: { type: 'RsaSignature2017', creator: `${trapUrl}/actor#main-key`, created: new Date().toISOString(), signatureValue: 'AAAA' },
      };
      for (const inbox of ['/inbox', '/channel/alice/inbox']) {
        const r = await fetch(`${t.url}${inbox}`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: JSON.stringify(junk) });
        assert.equal(r.status, 401, inbox);
      }
      assert.deepEqual(trap, [], 'the hub fetched what unsigned junk named');
      // A body that never ends is not waited for.
      const status = await new Promise<number>((resolve, reject) => {
        const u = new URL(t.url);
        const req = httpRequest({ host: u.hostname, port: u.port, path: '/inbox', method: 'POST', headers: { 'content-type': 'application/activity+json', 'content-length': '900000' } }, (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          req.destroy();
        });
        req.on('error', (err) => ((err as { code?: string }).code === 'ECONNRESET' || err.message.includes('socket hang up') ? undefined : reject(err)));
        req.write('{"type":"Create",');
      });
      assert.equal(status, 401);
      // The same junk with a signature header that does not hold: refused, not an error of the hub's.
      for (const spec of ['draft-cavage-http-signatures-12', 'rfc9421'] as const) {
        const signed = await other.sign(new Request(`${t.url}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: '{}' }), 'op1', { spec });
        const forged = new Request(signed, { body: JSON.stringify(junk) });
        const r = await fetch(forged);
        assert.ok(r.status === 400 || r.status === 401, `${spec}: ${r.status} ${await r.text()}`);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a client address past its rate gets 429, whatever it sends', async () => {
    const answers: number[] = [];
    for (let k = 0; k < PER_ADDRESS + 5; k++) {
      answers.push((await sendFrom('127.0.0.2', new Request(`${t.url}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json' } }), '{"type":"Create"}')).status);
    }
    assert.equal(answers.filter((s) => s === 401).length, PER_ADDRESS);
    assert.deepEqual(answers.slice(PER_ADDRESS), [429, 429, 429, 429, 429]);
    // A signed activity from that address is held back as well.
    const signed = await other.sign(new Request(`${t.url}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body: JSON.stringify(create(other, 'op1')) }), 'op1');
    const r = await sendFrom('127.0.0.2', signed, await signed.clone().text());
    assert.equal(r.status, 429);
    assert.match(r.retryAfter ?? '', /^\d+$/);
  });

  it("the hub's own users are served during a flood", async () => {
    const alice = mastodonClient(t, 'alice');
    let flooding = true;
    const seen = { sent: 0, refused: 0 };
    const flood = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (flooding) {
          const r = await peer.signedPost(`${t.url}/inbox`, create(peer, 'ap1'), { as: 'ap1' });
          seen.sent++;
          if (r.status === 429) seen.refused++;
        }
      }),
    );
    try {
      while (seen.sent < 40) await new Promise((r) => setTimeout(r, 20));
      const home = await alice.raw('/api/v1/timelines/home');
      assert.equal(home.status, 200);
      const me = await alice.raw('/api/v1/accounts/verify_credentials');
      assert.equal(me.status, 200);
    } finally {
      flooding = false;
      await flood;
    }
    assert.ok(seen.refused > 0, 'the flood was held back');
  });
});
