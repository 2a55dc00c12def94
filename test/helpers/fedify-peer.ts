import { createServer, type Server } from 'node:http';
import { Temporal } from '@js-temporal/polyfill';
import type { AddressInfo } from 'node:net';
import { createFederation, generateCryptoKeyPair, getDocumentLoader, MemoryKvStore, type Context, type Federation, type KeyCache } from '@fedify/fedify';
import { signRequest, verifyRequest, type HttpMessageSignaturesSpec } from '@fedify/fedify/sig';
import {
  Accept, Activity, Announce, Collection, Create, Delete, Endpoints, Follow, Image, Like, Mention, Note, Person, PUBLIC_COLLECTION, Reject, Tombstone, Undo, Update,
  type CryptographicKey, type Multikey, type Recipient,
} from '@fedify/vocab';

/**
 * An independent ActivityPub server for the federation tests: a small Fedify app on 127.0.0.1 with
 * actors of its own. It accepts follows, keeps what its inboxes receive, and sends what a test
 * tells its actors to send. Nothing of Hearth's code is used here.
 */

export interface Received {
  /** Which inbox took it: an actor's name, or '' for the shared inbox. */
  inbox: string;
  type: string;
  id: string | undefined;
  actor: string | undefined;
  /** The activity as JSON-LD (compacted). */
  json: Record<string, unknown>;
}

export type Audience = 'public' | 'unlisted' | 'followers' | 'direct';

/** A POST as it reached the peer's HTTP server, before Fedify saw it (so repeats are all here). */
export interface RawPost {
  path: string;
  /** The activity's id and type, read from the body. */
  id: string | undefined;
  type: string | undefined;
  /** How it was signed (Fedify knocks again with the other kind when refused). */
  signature: 'rfc9421' | 'draft-cavage' | 'none';
  /** What the peer answered. */
  status: number;
  at: number;
}

/**
 * Decides about a POST before Fedify sees it: a status to answer with instead (503, 410…), or
 * undefined to let Fedify handle it; it may wait first (a slow server).
 */
export type PostInterceptor = (post: { path: string; id: string | undefined; type: string | undefined; request: Request }) => Promise<number | undefined> | number | undefined;

/** A request the peer's HTTP server received (before Fedify saw it), with what the peer answered. */
export interface SeenRequest {
  method: string;
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  status: number;
}

export interface PeerOptions {
  actors?: string[];
  firstKnock?: HttpMessageSignaturesSpec;
  /** Verifies RFC 9421 signatures only: a request signed the draft-cavage way gets 401 (as a strict server would). */
  rfc9421Only?: boolean;
  /** Answers GETs of its actors only when they are signed by a key that verifies (as GoToSocial in secure mode). */
  requireSignedGets?: boolean;
  /**
   * false gives the actors no shared inbox, so that every delivery goes to the inbox of the actor
   * it is for and the tests see exactly who got what.
   */
  sharedInbox?: boolean;
  /** A fixed port (to come back at the same address); a free one by default. */
  port?: number;
}

/** Which kind of HTTP signature a request carries. */
export function signatureSpecOf(headers: Record<string, string>): HttpMessageSignaturesSpec | 'none' {
  if (headers['signature-input']) return 'rfc9421';
  return headers.signature ? 'draft-cavage-http-signatures-12' : 'none';
}

export interface PostOptions {
  content: string;
  audience?: Audience;
  /** Actor URIs to mention (and, for 'direct', the only recipients). */
  mentions?: string[];
  inReplyTo?: string;
  /** Recipients' actor URIs, besides the followers; looked up through their actor documents. */
  to?: string[];
  summary?: string;
}

interface PeerActor {
  name: string;
  keys: CryptoKeyPair;
  followers: Map<string, Recipient>;
  outbox: Note[];
  profile: PeerProfile;
  /** Deleted (its account gone): its document answers 410 Gone. */
  deleted: boolean;
}

/** What an actor of the peer shows of itself (setProfile changes it). */
export interface PeerProfile {
  displayName: string;
  summary: string;
  /** Its avatar: an absolute URL (serveFile gives one of the peer) and the type it claims. */
  icon?: { url: string; mediaType: string };
}

interface PeerFile {
  bytes: Uint8Array;
  type: string;
  hits: number;
}

const inboxUri = (r: Recipient) => r.inboxId?.href;

/** Every actor's avatar (a 1×1 PNG), served at /avatars/<name>.png. */

export class FedifyPeer {
  readonly received: Received[] = [];
  /** Every POST the HTTP server took, in the order answered. */
  readonly posts: RawPost[] = [];
  /** POSTs being answered now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  intercept: PostInterceptor | undefined;
  /** Every HTTP request the peer's server took, in order. */
  readonly requests: SeenRequest[] = [];
  private waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  private readonly actors = new Map<string, PeerActor>();
  private counter = 0;
  /** Follows to answer with Reject instead of Accept, by actor name. */
  readonly rejectFollowsFor = new Set<string>();
  /** Follows left unanswered (they wait), by actor name. */
  readonly ignoreFollowsFor = new Set<string>();
  /** Files the peer's web server serves besides ActivityPub (avatars), by path. */
  private readonly files = new Map<string, PeerFile>();

  private constructor(
    readonly federation: Federation<void>,
    private readonly server: Server,
    readonly origin: string,
    private readonly withSharedInbox: boolean,
  ) {}

  static async start(opts: PeerOptions = {}): Promise<FedifyPeer> {
    const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true, firstKnock: opts.firstKnock, signatureTimeWindow: { minutes: 5 } });
    let peer!: FedifyPeer;
    const answer = async (request: Request, headers: Record<string, string>): Promise<Response> => {
      const spec = signatureSpecOf(headers);
      if (opts.rfc9421Only && spec === 'draft-cavage-http-signatures-12') return new Response('RFC 9421 signatures only', { status: 401 });
      if (opts.requireSignedGets && request.method === 'GET' && new URL(request.url).pathname.startsWith('/users/')) {
        const loader = peer.context().documentLoader;
        const key = spec === 'none' ? null : await verifyRequest(request.clone(), { documentLoader: loader, contextLoader: loader }).catch(() => null);
        if (!key) return new Response('signed requests only', { status: 401 });
      }
      return federation.fetch(request, { contextData: undefined, onNotFound: () => new Response('not found', { status: 404 }), onNotAcceptable: () => new Response('not acceptable', { status: 406 }) });
    };
    const server = createServer((req, res) => {
      const file = peer.files.get(new URL(req.url ?? '/', peer.origin).pathname);
      if (file && req.method === 'GET') {
        file.hits++;
        res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length });
        res.end(file.bytes);
        return;
      }
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const body = Buffer.concat(chunks);
        const headers = new Headers();
        const seen: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') (headers.set(k, v), (seen[k] = v));
        const raw = req.method === 'POST' ? rawActivity(req.url ?? '/', body) : undefined;
        if (raw) {
          peer.inFlight++;
          peer.maxInFlight = Math.max(peer.maxInFlight, peer.inFlight);
        }
        try {
          const request = new Request(new URL(req.url ?? '/', peer.origin), { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body });
          const instead = raw && (await peer.intercept?.({ ...raw, request: request.clone() }));
          const response = instead ? new Response(null, { status: instead }) : await answer(request, seen);
          peer.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: seen, body: body.toString('utf8'), status: response.status });
          if (raw) peer.posts.push({ ...raw, signature: headers.has('signature-input') ? 'rfc9421' : headers.has('signature') ? 'draft-cavage' : 'none', status: response.status, at: Date.now() });
          res.writeHead(response.status, Object.fromEntries(response.headers));
          res.end(Buffer.from(await response.arrayBuffer()));
        } finally {
          if (raw) peer.inFlight--;
        }
      })().catch((err: Error) => {
        res.writeHead(500);
        res.end(err.message);
      });
    });
    await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    peer = new FedifyPeer(federation, server, origin, opts.sharedInbox ?? true);
    for (const name of opts.actors ?? ['ap1', 'ap2']) {
      const profile = { displayName: `Peer ${name}`, summary: `An actor of the test's own ActivityPub server` };
      peer.actors.set(name, { name, keys: await generateCryptoKeyPair('RSASSA-PKCS1-v1_5'), followers: new Map(), outbox: [], profile, deleted: false });
    }
    peer.setUp();
    return peer;
  }

  private setUp(): void {
    const f = this.federation;
    f.setActorDispatcher('/users/{identifier}', async (ctx, identifier) => {
      const a = this.actors.get(identifier);
      if (!a) return null;
      if (a.deleted) return new Tombstone({ id: ctx.getActorUri(identifier) });
      return this.person(ctx, a);
    }).setKeyPairsDispatcher((_ctx, identifier) => {
      const a = this.actors.get(identifier);
      return a ? [a.keys] : [];
    });
    f.setOutboxDispatcher('/users/{identifier}/outbox', (_ctx, identifier) => ({ items: [...(this.actors.get(identifier)?.outbox ?? [])].reverse().map((n) => new Create({ id: new URL(`${n.id!.href}#create`), actor: n.attributionId, object: n })) }));
    f.setFollowersDispatcher('/users/{identifier}/followers', (_ctx, identifier) => ({ items: [...(this.actors.get(identifier)?.followers.values() ?? [])] }));
    f.setObjectDispatcher(Note, '/users/{identifier}/notes/{n}', (ctx, values) => {
      const a = this.actors.get(values.identifier);
      return a?.outbox.find((n) => n.id?.href === ctx.getObjectUri(Note, values).href) ?? null;
    });
    f.setInboxListeners('/users/{identifier}/inbox', '/inbox')
      .on(Follow, async (ctx, follow) => {
        this.record(ctx, follow);
        const target = follow.objectId && ctx.parseUri(follow.objectId);
        if (target?.type !== 'actor') return;
        const follower = await follow.getActor();
        if (!follower?.id) return;
        const actor = this.actors.get(target.identifier);
        if (!actor || this.ignoreFollowsFor.has(actor.name)) return;
        if (this.rejectFollowsFor.has(actor.name)) {
          await ctx.sendActivity({ identifier: actor.name }, follower, new Reject({ id: this.newId(actor.name, 'reject'), actor: ctx.getActorUri(actor.name), object: follow }));
          return;
        }
        actor.followers.set(follower.id.href, follower);
        await ctx.sendActivity({ identifier: actor.name }, follower, new Accept({ id: this.newId(actor.name, 'accept'), actor: ctx.getActorUri(actor.name), object: follow }));
      })
      .on(Undo, async (ctx, undo) => {
        this.record(ctx, undo);
        const inner = await undo.getObject();
        if (inner instanceof Follow && inner.objectId && undo.actorId) {
          const target = ctx.parseUri(inner.objectId);
          if (target?.type === 'actor') this.actors.get(target.identifier)?.followers.delete(undo.actorId.href);
        }
      })
      .on(Activity, (ctx, activity) => {
        this.record(ctx, activity);
      });
  }

  private async person(ctx: Context<void>, a: PeerActor): Promise<Person> {
    const keys = await ctx.getActorKeyPairs(a.name);
    const icon = a.profile.icon;
    return new Person({
      id: ctx.getActorUri(a.name),
      preferredUsername: a.name,
      name: a.profile.displayName,
      summary: a.profile.summary,
      url: ctx.getActorUri(a.name),
      icon: icon ? new Image({ url: new URL(icon.url), mediaType: icon.mediaType }) : null,
      inbox: ctx.getInboxUri(a.name),
      outbox: ctx.getOutboxUri(a.name),
      followers: ctx.getFollowersUri(a.name),
      endpoints: this.withSharedInbox ? new Endpoints({ sharedInbox: ctx.getInboxUri() }) : null,
      publicKey: keys[0]?.cryptographicKey,
      assertionMethods: keys.map((k) => k.multikey),
    });
  }

  private record(ctx: Context<void> & { recipient?: string | null }, activity: Activity): void {
    void activity.toJsonLd({ format: 'compact' }).then((json) => {
      const r: Received = { inbox: ctx.recipient ?? '', type: (json as { type?: string }).type ?? '', id: activity.id?.href, actor: activity.actorId?.href, json: json as Record<string, unknown> };
      this.received.push(r);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(r)) return true;
        w.resolve(r);
        return false;
      });
    });
  }

  private newId(actor: string, kind: string): URL {
    return new URL(`${this.origin}/users/${actor}/activities/${kind}-${++this.counter}-${Date.now()}`);
  }

  private context(): Context<void> {
    return this.federation.createContext(new URL(this.origin), undefined);
  }

  actorUri(name: string): string {
    return `${this.origin}/users/${name}`;
  }

  /** The address other servers find the actor by (acct:name@host:port). */
  address(name: string): string {
    return `${name}@${new URL(this.origin).host}`;
  }

  /** Waits until an inbox received an activity that matches, including one received before. */
  waitFor(match: (r: Received) => boolean, timeoutMs = 10_000): Promise<Received> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the peer received no matching activity in ${timeoutMs} ms; it received: ${this.received.map((r) => `${r.type} ${r.id}`).join(', ') || 'nothing'}`)), timeoutMs);
      this.waiters.push({ match, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }

  /** Fetches a remote actor through its URI (a signed fetch as `as`, when given). */
  async lookupActor(uri: string, as = [...this.actors.keys()][0]!): Promise<Person> {
    const ctx = this.context();
    const loader = await ctx.getDocumentLoader({ identifier: as });
    const obj = await ctx.lookupObject(uri, { documentLoader: loader });
    if (!(obj instanceof Person)) throw new Error(`${uri} is not a Person`);
    return obj;
  }

  followersOf(name: string): string[] {
    return [...(this.actors.get(name)?.followers.keys() ?? [])];
  }

  private async send(from: string, to: Recipient | Recipient[], activity: Activity): Promise<void> {
    await this.context().sendActivity({ identifier: from }, to, activity, { immediate: true });
  }

  async follow(from: string, target: string): Promise<string> {
    const actor = await this.lookupActor(target, from);
    const follow = new Follow({ id: this.newId(from, 'follow'), actor: new URL(this.actorUri(from)), object: actor.id });
    await this.send(from, actor, follow);
    return follow.id!.href;
  }

  async unfollow(from: string, target: string, followId: string): Promise<void> {
    const actor = await this.lookupActor(target, from);
    await this.send(from, actor, new Undo({ id: this.newId(from, 'undo'), actor: new URL(this.actorUri(from)), object: new Follow({ id: new URL(followId), actor: new URL(this.actorUri(from)), object: actor.id }) }));
  }

  /** Posts a note; delivered to the followers (unless direct) and to `to` and the mentioned. Returns the note's id. */
  async post(from: string, o: PostOptions): Promise<string> {
    const a = this.actors.get(from)!;
    const ctx = this.context();
    const id = ctx.getObjectUri(Note, { identifier: from, n: String(++this.counter) });
    const audience = o.audience ?? 'public';
    const followers = ctx.getFollowersUri(from);
    const mentioned = o.mentions ?? [];
    const toList = audience === 'public' ? [PUBLIC_COLLECTION] : audience === 'unlisted' ? [followers] : audience === 'followers' ? [followers] : [];
    const ccList = audience === 'public' ? [followers] : audience === 'unlisted' ? [PUBLIC_COLLECTION] : [];
    const direct = [...mentioned, ...(o.to ?? [])].map((u) => new URL(u));
    const note = new Note({
      id,
      attribution: new URL(this.actorUri(from)),
      content: o.content,
      summary: o.summary,
      published: Temporal.Now.instant(),
      replyTarget: o.inReplyTo ? new URL(o.inReplyTo) : undefined,
      tos: [...toList, ...direct],
      ccs: ccList,
      tags: mentioned.map((m) => new Mention({ href: new URL(m), name: m })),
    });
    a.outbox.push(note);
    await this.sendTo(from, audience, [...mentioned, ...(o.to ?? [])], new Create({ id: new URL(`${id.href}#create`), actor: new URL(this.actorUri(from)), object: note, tos: note.toIds, ccs: note.ccIds }));
    return id.href;
  }

  async update(from: string, noteId: string, content: string): Promise<void> {
    const a = this.actors.get(from)!;
    const k = a.outbox.findIndex((n) => n.id?.href === noteId);
    const old = a.outbox[k]!;
    const note = old.clone({ content, updated: Temporal.Now.instant() });
    a.outbox[k] = note;
    await this.sendTo(from, 'public', [], new Update({ id: this.newId(from, 'update'), actor: new URL(this.actorUri(from)), object: note, tos: note.toIds, ccs: note.ccIds }));
  }

  async remove(from: string, noteId: string): Promise<void> {
    const a = this.actors.get(from)!;
    a.outbox = a.outbox.filter((n) => n.id?.href !== noteId);
    await this.sendTo(from, 'public', [], new Delete({ id: this.newId(from, 'delete'), actor: new URL(this.actorUri(from)), object: new Tombstone({ id: new URL(noteId) }), tos: [PUBLIC_COLLECTION] }));
  }

  async like(from: string, objectId: string, authorUri: string): Promise<string> {
    const like = new Like({ id: this.newId(from, 'like'), actor: new URL(this.actorUri(from)), object: new URL(objectId) });
    await this.send(from, await this.lookupActor(authorUri, from), like);
    return like.id!.href;
  }

  async announce(from: string, objectId: string, authorUri: string): Promise<string> {
    const announce = new Announce({ id: this.newId(from, 'announce'), actor: new URL(this.actorUri(from)), object: new URL(objectId), tos: [PUBLIC_COLLECTION], ccs: [new URL(authorUri)] });
    await this.sendTo(from, 'public', [authorUri], announce);
    return announce.id!.href;
  }

  /** Undoes a Like or an Announce sent before. */
  async undo(from: string, kind: 'Like' | 'Announce', activityId: string, objectId: string, authorUri: string): Promise<void> {
    const inner = kind === 'Like' ? new Like({ id: new URL(activityId), actor: new URL(this.actorUri(from)), object: new URL(objectId) }) : new Announce({ id: new URL(activityId), actor: new URL(this.actorUri(from)), object: new URL(objectId) });
    await this.sendTo(from, kind === 'Like' ? 'direct' : 'public', [authorUri], new Undo({ id: this.newId(from, 'undo'), actor: new URL(this.actorUri(from)), object: inner }));
  }

  private async sendTo(from: string, audience: Audience, others: string[], activity: Activity): Promise<void> {
    const a = this.actors.get(from)!;
    const recipients = new Map<string, Recipient>();
    if (audience !== 'direct') for (const [id, r] of a.followers) recipients.set(id, r);
    for (const uri of others) if (!recipients.has(uri)) recipients.set(uri, await this.lookupActor(uri, from));
    if (recipients.size) await this.send(from, [...recipients.values()], activity);
  }

  /**
   * POSTs an activity to an inbox signed by `as` (or unsigned), for the signature tests: `keyOf`
   * signs with another actor's key, `date` signs as of another time, `tamper` changes the body
   * after signing.
   */
  async signedPost(inbox: string, activity: Record<string, unknown>, o: { as?: string; spec?: HttpMessageSignaturesSpec; tamper?: boolean; keyOf?: string; date?: Date } = {}): Promise<Response> {
    const body = JSON.stringify(activity);
    let request = new Request(inbox, { method: 'POST', headers: { 'content-type': 'application/activity+json', accept: 'application/activity+json' }, body });
    if (o.as) request = await this.sign(request, o.keyOf ?? o.as, o);
    if (o.tamper) request = new Request(request, { body: body.replace(/"content":"/, '"content":"tampered ') });
    return fetch(request);
  }

  /** GETs a URL, signed by `as` when given. */
  async signedGet(url: string, o: { as?: string; spec?: HttpMessageSignaturesSpec; date?: Date; accept?: string } = {}): Promise<Response> {
    let request = new Request(url, { headers: { accept: o.accept ?? 'application/activity+json' } });
    if (o.as) request = await this.sign(request, o.as, o);
    return fetch(request);
  }

  /** Changes what an actor shows of itself; nobody is told (see sendProfileUpdate). */
  setProfile(name: string, changes: Partial<PeerProfile>): void {
    const a = this.actors.get(name)!;
    a.profile = { ...a.profile, ...changes };
  }

  /** Serves bytes at a path of the peer's web server (an avatar); returns its URL. */
  serveFile(path: string, bytes: Uint8Array, type: string): string {
    this.files.set(path, { bytes, type, hits: 0 });
    return `${this.origin}${path}`;
  }

  /** How often a file served by serveFile was fetched. */
  fileHits(path: string): number {
    return this.files.get(path)?.hits ?? 0;
  }

  /** Sends Update(Person) with the actor's document as it is now, to its followers and `others`. */
  async sendProfileUpdate(name: string, others: string[] = []): Promise<void> {
    const person = await this.person(this.context(), this.actors.get(name)!);
    await this.sendTo(name, 'public', others, new Update({ id: this.newId(name, 'update-person'), actor: person.id, object: person, tos: [PUBLIC_COLLECTION] }));
  }

  /** Deletes the actor's account: Delete(Person) to its followers and `others`; its document answers 410 Gone from then on. */
  async deleteActor(name: string, others: string[] = []): Promise<void> {
    const a = this.actors.get(name)!;
    const recipients = new Map<string, Recipient>(a.followers);
    for (const uri of others) if (!recipients.has(uri)) recipients.set(uri, await this.lookupActor(uri, name));
    a.deleted = true;
    const id = new URL(this.actorUri(name));
    await this.send(name, [...recipients.values()], new Delete({ id: this.newId(name, 'delete-person'), actor: id, object: id, tos: [PUBLIC_COLLECTION] }));
  }

  /** Signs a request with an actor's key (draft-cavage unless `spec` says otherwise), as of `date`. */
  sign(request: Request, keyOf: string, o: { spec?: HttpMessageSignaturesSpec; date?: Date } = {}): Promise<Request> {
    const currentTime = o.date ? Temporal.Instant.fromEpochMilliseconds(o.date.getTime()) : undefined;
    return signRequest(request, this.actors.get(keyOf)!.keys.privateKey, new URL(this.keyId(keyOf)), { spec: o.spec ?? 'draft-cavage-http-signatures-12', currentTime });
  }

  /**
   * Signs a request the RFC 9421 way over only these derived components (no headers, no body),
   * as a careless signer might: for tests of what a verifier must insist on.
   */
  async signRfc9421Over(request: Request, keyOf: string, components: ('@method' | '@target-uri' | '@authority' | '@path')[]): Promise<Request> {
    const url = new URL(request.url);
    const values: Record<string, string> = { '@method': request.method.toUpperCase(), '@target-uri': url.href, '@authority': url.host, '@path': url.pathname };
    const params = `(${components.map((c) => `"${c}"`).join(' ')});alg="rsa-v1_5-sha256";keyid="${this.keyId(keyOf)}";created=${Math.floor(Date.now() / 1000)}`;
    const base = [...components.map((c) => `"${c}": ${values[c]}`), `"@signature-params": ${params}`].join('\n');
    const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', this.actors.get(keyOf)!.keys.privateKey, new TextEncoder().encode(base));
    const headers = new Headers(request.headers);
    headers.set('signature-input', `sig1=${params}`);
    headers.set('signature', `sig1=:${Buffer.from(signature).toString('base64')}:`);
    return new Request(request, { headers });
  }

  /** A fresh id under an actor, for activities and notes a test writes by hand. */
  freshId(actor: string, kind: string): string {
    return this.newId(actor, kind).href;
  }

  keyId(name: string): string {
    return `${this.actorUri(name)}#main-key`;
  }

  /**
   * An interceptor that answers POSTs of these activity types itself: 202 when their HTTP
   * signature holds (checked as Fedify checks it, the key fetched from its owner once), 401 when
   * not, and nothing more; for tests that count many deliveries and need no more of them.
   */
  acceptSigned(types: string[]): PostInterceptor {
    const keys = new Map<string, CryptographicKey | Multikey | null>();
    const keyCache: KeyCache = { get: async (id) => keys.get(id.href), set: async (id, key) => void keys.set(id.href, key) };
    const documentLoader = getDocumentLoader({ allowPrivateAddress: true });
    return async ({ type, request }) => {
      if (!type || !types.includes(type)) return undefined;
      return (await verifyRequest(request, { documentLoader, contextLoader: documentLoader, keyCache })) ? 202 : 401;
    };
  }

  /** Stops listening (connections are refused) until comeBack(). */
  async goDown(): Promise<void> {
    await this.close();
  }

  /** Listens again on the same port. */
  async comeBack(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(Number(new URL(this.origin).port), '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function rawActivity(path: string, body: Buffer): { path: string; id: string | undefined; type: string | undefined } {
  try {
    const json = JSON.parse(body.toString('utf8')) as { id?: unknown; type?: unknown };
    return { path, id: typeof json.id === 'string' ? json.id : undefined, type: typeof json.type === 'string' ? json.type : undefined };
  } catch {
    return { path, id: undefined, type: undefined };
  }
}

export { Collection, PUBLIC_COLLECTION };
