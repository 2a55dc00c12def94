import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FedifyPeer } from '../helpers/fedify-peer.js';
import { eventually, mastodonClient, startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';
import { call } from '../helpers/compat.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateCryptoKeyPair } from '@fedify/fedify';
import { signRequest } from '@fedify/fedify/sig';
import { exportSpki } from '@fedify/vocab-runtime';

type Account = { id: string; acct: string };
type Status = { id: string; uri: string; visibility: string };

const AP = 'application/activity+json';
/** Every way of asking for an object that might get its JSON (or a page showing it). */
const ACCEPTS = [AP, 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"', 'application/json', 'text/html', '*/*', ''];

/**
 * Posts that are not public, fetched at their ActivityPub id by other servers: only a signed fetch
 * by an actor of their audience gets them. Nothing the federation lists (outbox, collections, the
 * actor) ever names them.
 */
describe("a channel's non-public posts, fetched by id by other servers", () => {
  let t: TestHub;
  let peer: FedifyPeer;
  let stranger: FedifyPeer;
  let alice: ReturnType<typeof mastodonClient>;
  const aliceId = () => `${t.url}/channel/alice`;
  const posts: Record<'public' | 'unlisted' | 'followers' | 'group' | 'direct' | 'comment', Status> = {} as never;
  /** The text of each post, unique enough to be looked for anywhere. */
  const text = (k: string) => `secret-${k}-text`;

  before(async () => {
    t = await startFederatingHub(['alice']);
    peer = await FedifyPeer.start({ actors: ['ap1', 'ap2'] });
    stranger = await FedifyPeer.start({ actors: ['sx1'] });
    alice = mastodonClient(t, 'alice');
    // ap1 and ap2 follow alice: both are her connections. sx1 is known to the hub, nothing more.
    for (const name of ['ap1', 'ap2']) {
      await peer.follow(name, aliceId());
      await peer.waitFor((r) => r.type === 'Accept' && r.actor === aliceId() && String((r.json.object as { actor?: string })?.actor) === peer.actorUri(name));
    }
    const account = async (p: FedifyPeer, name: string) => (await alice.get<{ accounts: Account[] }>(`/api/v2/search?q=${encodeURIComponent(p.address(name))}&resolve=true&type=accounts`)).accounts[0]!;
    const ap1 = await account(peer, 'ap1');
    assert.ok(await account(stranger, 'sx1'));
    // A list (privacy group) with ap1 only.
    const list = await alice.post<{ id: string }>('/api/v1/lists', { title: 'close friends' });
    await alice.post(`/api/v1/lists/${list.id}/accounts`, { account_ids: [ap1.id] });
    await eventually('alice sees ap1 as a connection', async () => (await alice.get<Account[]>(`/api/v1/lists/${list.id}/accounts`)).length === 1);

    posts.public = await alice.post<Status>('/api/v1/statuses', { status: text('public'), visibility: 'public' });
    posts.unlisted = await alice.post<Status>('/api/v1/statuses', { status: text('unlisted'), visibility: 'unlisted' });
    posts.followers = await alice.post<Status>('/api/v1/statuses', { status: text('followers'), visibility: 'private' });
    posts.direct = await alice.post<Status>('/api/v1/statuses', { status: `@${peer.address('ap1')} ${text('direct')}`, visibility: 'direct' });
    const group = await call(t, '/api/statuses/update.json', { as: 'alice', form: { status: text('group'), 'group_allow[]': list.id } });
    assert.equal(group.status, 200, group.text);
    posts.group = await alice.get<Status>(`/api/v1/statuses/${group.body.id}`);
    posts.comment = await alice.post<Status>('/api/v1/statuses', { status: text('comment'), in_reply_to_id: posts.group.id });
    for (const k of ['followers', 'group', 'direct', 'comment'] as const) assert.notEqual(posts[k].visibility, 'public', k);
  });
  after(async () => {
    await stranger.close();
    await peer.close();
    await t.stop();
  });

  const refused = async (r: Response, what: string, secret: string) => {
    const body = await r.text();
    assert.ok([401, 403, 404, 406].includes(r.status) || (r.status === 200 && !body.includes(secret)), `${what}: ${r.status}`);
    assert.ok(!body.includes(secret), `${what}: the content was served`);
    assert.doesNotMatch(r.headers.get('content-type') ?? '', /activity\+json|ld\+json/, `${what}: an ActivityPub document was served`);
  };

  it('public and unlisted posts are served to anyone, unsigned', async () => {
    for (const k of ['public', 'unlisted'] as const) {
      const r = await fetch(posts[k].uri, { headers: { accept: AP } });
      assert.equal(r.status, 200, k);
      assert.match(await r.text(), new RegExp(text(k)));
    }
  });

  it('followers-only, group, direct posts and a comment on one are never served to an unsigned fetch, whatever it accepts', async () => {
    for (const k of ['followers', 'group', 'direct', 'comment'] as const) {
      for (const accept of ACCEPTS) {
        const r = await fetch(posts[k].uri, { headers: accept ? { accept } : {} });
        await refused(r, `${k}, accept ${accept || 'none'}`, text(k));
      }
    }
  });

  it('nor to a signed fetch by an actor outside their audience (another server, or a connection not in the group or not mentioned)', async () => {
    const outside: [FedifyPeer, string, (keyof typeof posts)[]][] = [
      [stranger, 'sx1', ['followers', 'group', 'direct', 'comment']],
      [peer, 'ap2', ['group', 'direct', 'comment']],
    ];
    for (const [p, who, keys] of outside) {
      for (const k of keys) {
        for (const spec of ['draft-cavage-http-signatures-12', 'rfc9421'] as const) {
          const r = await p.signedGet(posts[k].uri, { as: who, spec });
          await refused(r, `${k} fetched by ${who} (${spec})`, text(k));
        }
      }
    }
  });

  it('but to a signed fetch by an actor of their audience', async () => {
    const inside: [string, (keyof typeof posts)[]][] = [
      ['ap1', ['followers', 'group', 'direct', 'comment']],
      ['ap2', ['followers']],
    ];
    for (const [who, keys] of inside) {
      for (const k of keys) {
        const r = await peer.signedGet(posts[k].uri, { as: who });
        assert.equal(r.status, 200, `${k} fetched by ${who}`);
        assert.match(await r.text(), new RegExp(text(k)));
      }
    }
  });

  it('a signed fetch by a key that no actor owns (its owner is missing) is refused, not an error', async () => {
    const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
    const pem = await exportSpki(keys.publicKey);
    const server = createServer((req, res) => {
      if (req.url !== '/keys/k1') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/activity+json' });
      res.end(JSON.stringify({ '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'], id: `${origin}/keys/k1`, type: 'CryptographicKey', owner: `${origin}/nobody`, publicKeyPem: pem }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const spec of ['draft-cavage-http-signatures-12', 'rfc9421'] as const) {
        const request = await signRequest(new Request(posts.followers.uri, { headers: { accept: AP } }), keys.privateKey, new URL(`${origin}/keys/k1`), { spec });
        await refused(await fetch(request), `signed by an ownerless key (${spec})`, text('followers'));
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('the outbox, the collections, the actor and WebFinger never name a non-public post, whoever asks', async () => {
    const hidden = (['followers', 'group', 'direct', 'comment'] as const).flatMap((k) => [text(k), new URL(posts[k].uri).pathname]);
    const seen: string[] = [];
    const read = async (url: string, signed: boolean) => {
      const r = signed ? await peer.signedGet(url, { as: 'ap1' }) : await fetch(url, { headers: { accept: AP } });
      assert.equal(r.status, 200, url);
      const body = await r.text();
      seen.push(body);
      return JSON.parse(body) as Record<string, unknown>;
    };
    for (const signed of [false, true]) {
      const outbox = await read(`${aliceId()}/outbox`, signed);
      assert.equal(outbox.totalItems, 2, 'the public and the unlisted post');
      let page = typeof outbox.first === 'string' ? outbox.first : (outbox.first as { id?: string } | undefined)?.id;
      const listed: string[] = [];
      while (page) {
        const p = await read(page, signed);
        for (const item of (p.orderedItems ?? []) as { object?: { content?: string } }[]) listed.push(String(item.object?.content));
        page = typeof p.next === 'string' ? p.next : undefined;
      }
      assert.equal(listed.length, 2);
      for (const url of [aliceId(), `${aliceId()}/followers`, `${aliceId()}/following`]) await read(url, signed);
    }
    seen.push(await (await fetch(`${t.url}/.well-known/webfinger?resource=acct:alice@${new URL(t.url).host}`)).text());
    const all = seen.join('\n');
    for (const h of hidden) assert.ok(!all.includes(h), `${h} is named in a federation document`);
    assert.ok(all.includes(text('public')) && all.includes(text('unlisted')));
  });
});
