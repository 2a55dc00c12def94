import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer, signatureSpecOf, type SeenRequest } from '../helpers/fedify-peer.js';
import { createNoteJson, eventually, mastodonClient, queueSettled, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

type Account = { id: string; acct: string };
type Status = { id: string; content: string; uri: string };

/**
 * HTTP Signatures, from the side of a server that talks to Hearth: what its inboxes and its signed
 * fetches accept (draft-cavage-12 with Digest, RFC 9421 with Content-Digest) and refuse (unsigned,
 * tampered, stale, someone else's key, someone else's post), and how Hearth itself signs.
 */
describe('HTTP Signatures on what other servers send to Hearth', () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let other: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  let n = 0;

  before(async () => {
    t = await startFederatingHub(['alice']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2'] });
    other = await FedifyPeer.start({ actors: ['op1'] });
    alice = mastodonClient(t, 'alice');
    // alice follows ap1 and ap2: what they post publicly is kept for her.
    for (const name of ['ap1', 'ap2']) {
      const found = await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(peer.address(name))}&resolve=true&type=accounts`);
      await alice.post(`/api/v1/accounts/${found.accounts[0]!.id}/follow`);
      await eventually(`alice follows ${name}`, () => peer.followersOf(name).includes(aliceId()));
    }
  });
  after(async () => {
    await other.close();
    await peer.close();
    await t.stop();
  });

  const home = () => alice.get<Status[]>('/api/v1/timelines/home?limit=40');
  const inHome = (text: string) => eventually(`"${text}" in alice's home`, async () => (await home()).find((s) => s.content.includes(text)));
  /** A Create of a new public note of `actor` (a name of `peer`), with a unique text. */
  const create = (actor: string, text: string, o: { attributedTo?: string; noteId?: string } = {}) => {
    const uri = peer.actorUri(actor);
    return createNoteJson(uri, { id: peer.freshId(actor, 'create'), noteId: o.noteId ?? `${uri}/notes/sig-${++n}-${Date.now()}`, content: `<p>${text}</p>`, attributedTo: o.attributedTo });
  };
  /** Checks that none of these texts was stored, once the hub handled everything it took (a post sent after them arrived). */
  const noneStored = async (texts: string[]) => {
    const marker = `marker ${++n}`;
    assert.equal((await peer.signedPost(`${t.url}/inbox`, create('ap1', marker), { as: 'ap1' })).status, 202);
    await inHome(marker);
    await queueSettled(t);
    const contents = (await home()).map((s) => s.content).join('\n');
    for (const text of texts) assert.doesNotMatch(contents, new RegExp(text), `${text} was stored`);
  };

  it('a Create signed the draft-cavage way (with Digest) is taken and stored, at the shared and the personal inbox', async () => {
    for (const inbox of [`${t.url}/inbox`, `${aliceId()}/inbox`]) {
      const text = `cavage-signed ${++n}`;
      const r = await peer.signedPost(inbox, create('ap1', text), { as: 'ap1', spec: 'draft-cavage-http-signatures-12' });
      assert.equal(r.status, 202, await r.text());
      await inHome(text);
    }
  });

  it('a Create signed the RFC 9421 way (with Content-Digest) is taken and stored', async () => {
    for (const inbox of [`${t.url}/inbox`, `${aliceId()}/inbox`]) {
      const text = `rfc9421-signed ${++n}`;
      const r = await peer.signedPost(inbox, create('ap2', text), { as: 'ap2', spec: 'rfc9421' });
      assert.equal(r.status, 202, await r.text());
      await inHome(text);
    }
  });

  it('an unsigned Create is refused with 401 and not stored', async () => {
    const r = await peer.signedPost(`${t.url}/inbox`, create('ap1', 'unsigned forgery'));
    assert.equal(r.status, 401);
    const r2 = await peer.signedPost(`${aliceId()}/inbox`, create('ap1', 'unsigned forgery'));
    assert.equal(r2.status, 401);
    await noneStored(['unsigned forgery']);
  });

  it('a body changed after signing is refused with 401 (both kinds of signature) and not stored', async () => {
    for (const spec of ['draft-cavage-http-signatures-12', 'rfc9421'] as const) {
      const r = await peer.signedPost(`${t.url}/inbox`, create('ap1', `tamper ${spec}`), { as: 'ap1', spec, tamper: true });
      assert.equal(r.status, 401, spec);
    }
    await noneStored(['tamper ']);
  });

  it('an RFC 9421 signature that does not cover the body (no content-digest) is refused, whatever body comes with it', async () => {
    // ap1's signature covers the method, the URL and the host, not the body: the body is anyone's.
    const body = JSON.stringify(create('ap1', 'unbound body'));
    for (const components of [['@method', '@target-uri', '@authority'], ['@method', '@path']] as const) {
      const signed = await peer.signRfc9421Over(new Request(`${t.url}/inbox`, { method: 'POST', headers: { 'content-type': 'application/activity+json' }, body }), 'ap1', [...components]);
      const r = await fetch(signed);
      assert.equal(r.status, 401, components.join(' '));
    }
    await noneStored(['unbound body']);
  });

  it('a signature older (or newer) than the hub allows (an hour) is refused with 401 and not stored', async () => {
    const hours = (h: number) => new Date(Date.now() + h * 3600_000);
    for (const spec of ['draft-cavage-http-signatures-12', 'rfc9421'] as const) {
      for (const [when, date] of [['stale', hours(-2)], ['future', hours(2)]] as const) {
        const r = await peer.signedPost(`${t.url}/inbox`, create('ap1', `${when} signature ${spec}`), { as: 'ap1', spec, date });
        assert.equal(r.status, 401, `${when} ${spec}`);
      }
    }
    await noneStored(['stale signature', 'future signature']);
  });

  it("one actor's key signing an activity of another actor is refused, and nothing is stored", async () => {
    for (const spec of ['draft-cavage-http-signatures-12', 'rfc9421'] as const) {
      const r = await peer.signedPost(`${t.url}/inbox`, create('ap1', `impersonated ${spec}`), { as: 'ap1', keyOf: 'ap2', spec });
      assert.ok(r.status === 401 || r.status === 403, `${spec}: ${r.status}`);
    }
    await noneStored(['impersonated']);
  });

  it("a post whose id is on another server than its author's, or that names another author, is not stored", async () => {
    // ap1 claims a note that lives on the other server (its id there).
    const foreign = create('ap1', 'foreign note id', { noteId: `${other.origin}/users/op1/notes/999` });
    assert.equal((await peer.signedPost(`${t.url}/inbox`, foreign, { as: 'ap1' })).status, 202);
    // ap1 sends a note of its own server written as ap2's.
    const misattributed = create('ap1', 'misattributed note', { attributedTo: peer.actorUri('ap2') });
    assert.equal((await peer.signedPost(`${t.url}/inbox`, misattributed, { as: 'ap1' })).status, 202);
    await noneStored(['foreign note id', 'misattributed note']);
  });

  it('signed fetches of a followers-only post: both kinds of signature are accepted; stale ones and ones not bound to the request are not', async () => {
    const mine = await alice.post<Status>('/api/v1/statuses', { status: 'for my connections only', visibility: 'private' });
    for (const spec of ['draft-cavage-http-signatures-12', 'rfc9421'] as const) {
      const ok = await peer.signedGet(mine.uri, { as: 'ap1', spec });
      assert.equal(ok.status, 200, spec);
      assert.match(await ok.text(), /for my connections only/);
      const stale = await peer.signedGet(mine.uri, { as: 'ap1', spec, date: new Date(Date.now() - 2 * 3600_000) });
      assert.notEqual(stale.status, 200, `stale ${spec}`);
      assert.doesNotMatch(await stale.text(), /for my connections only/);
    }
    // An RFC 9421 signature that does not name the request's method and target vouches for any
    // request to the hub: whoever holds one must not read with it.
    for (const components of [['@authority'], ['@method', '@authority']] as const) {
      const loose = await peer.signRfc9421Over(new Request(mine.uri, { headers: { accept: 'application/activity+json' } }), 'ap1', [...components]);
      const r = await fetch(loose);
      assert.notEqual(r.status, 200, components.join(' '));
      assert.doesNotMatch(await r.text(), /for my connections only/);
    }
  });
});

describe("Hearth's own requests are signed: deliveries with a Digest, the draft-cavage way first and RFC 9421 when refused; fetches of actors", () => {
  let t: TestHub;
  let alice: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  const peers: FedifyPeer[] = [];
  const startPeer = async (o: Parameters<typeof FedifyPeer.start>[0]) => {
    const p = await FedifyPeer.start(o);
    peers.push(p);
    return p;
  };

  before(async () => {
    t = await startFederatingHub(['alice']);
    alice = mastodonClient(t, 'alice');
  });
  after(async () => {
    for (const p of peers) await p.close();
    await t.stop();
  });

  const find = async (p: FedifyPeer, name: string) => {
    const found = await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(p.address(name))}&resolve=true&type=accounts`);
    return found.accounts.find((a) => a.acct === p.address(name));
  };
  const toInbox = (p: FedifyPeer) => p.requests.filter((r) => r.method === 'POST' && /\/inbox$/.test(r.path));
  const actorGets = (p: FedifyPeer) => p.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/users/'));

  /** The parameters of a draft-cavage Signature header. */
  const cavageParams = (r: SeenRequest) => Object.fromEntries([...r.headers.signature!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));

  it('a delivery is signed the draft-cavage way, over a Digest of the body that matches it', async () => {
    const p = await startPeer({ actors: ['dp1'] });
    await p.follow('dp1', aliceId());
    await p.waitFor((r) => r.type === 'Accept' && r.actor === aliceId());
    const post = await eventually('the Accept recorded', () => toInbox(p).find((r) => r.body.includes('"Accept"')));
    assert.equal(signatureSpecOf(post.headers), 'draft-cavage-http-signatures-12');
    const sig = cavageParams(post);
    assert.match(sig.keyId!, new RegExp(`^${aliceId()}#`));
    assert.match(sig.algorithm ?? 'rsa-sha256', /rsa-sha256|hs2019/);
    const covered = sig.headers!.split(' ');
    for (const h of ['(request-target)', 'host', 'date', 'digest']) assert.ok(covered.includes(h), `${h} is signed: ${sig.headers}`);
    const digest = createHash('sha256').update(post.body).digest('base64');
    assert.equal(post.headers.digest, `SHA-256=${digest}`);
    assert.equal(post.status, 202);
  });

  it('a server that verifies only RFC 9421 gets the delivery again, signed that way (double knock), and takes it', async () => {
    const p = await startPeer({ actors: ['sp1'], rfc9421Only: true });
    const sp1 = await find(p, 'sp1');
    assert.ok(sp1, 'found, although the server refuses draft-cavage signatures on fetches too');
    await alice.post(`/api/v1/accounts/${sp1.id}/follow`);
    await p.waitFor((r) => r.type === 'Follow' && r.actor === aliceId());
    const knocks = await eventually('both knocks recorded', () => {
      const list = toInbox(p).filter((r) => r.body.includes('"Follow"'));
      return list.length >= 2 ? list : undefined;
    });
    assert.deepEqual(knocks.map((r) => [signatureSpecOf(r.headers), r.status]), [['draft-cavage-http-signatures-12', 401], ['rfc9421', 202]]);
    const second = knocks[1]!;
    assert.match(second.headers['signature-input']!, /"content-digest"/);
    assert.equal(second.headers['content-digest'], `sha-256=:${createHash('sha256').update(second.body).digest('base64')}:`);
    // Fetches of the actor knocked twice as well.
    assert.deepEqual([...new Set(actorGets(p).map((r) => `${signatureSpecOf(r.headers)} ${r.status}`))].sort(), ['draft-cavage-http-signatures-12 401', 'rfc9421 200']);
  });

  it('a server that answers only signed fetches of its actors still gets its actors found: every fetch of them is signed', async () => {
    const p = await startPeer({ actors: ['gp1'], requireSignedGets: true });
    // The peer itself refuses an unsigned fetch.
    assert.equal((await fetch(p.actorUri('gp1'), { headers: { accept: 'application/activity+json' } })).status, 401);
    const gp1 = await find(p, 'gp1');
    assert.ok(gp1, 'found by its address');
    const gets = actorGets(p).filter((r) => r.headers['user-agent']?.startsWith('Hearth/'));
    assert.ok(gets.length > 0);
    for (const g of gets) assert.notEqual(signatureSpecOf(g.headers), 'none', `${g.path} was fetched unsigned`);
    assert.ok(gets.some((g) => g.status === 200));
  });
});
