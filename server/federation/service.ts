import type { Context, Next } from 'koa';
import type { Federation } from '@fedify/fedify';
import { FetchError } from '@fedify/vocab-runtime';
import type { Hub } from '../hub-context.js';
import type { FederationRuntime, FederationState } from './runtime.js';
import { buildFederation } from './federation.js';
import { toFetchRequest, sendFetchResponse } from './koa-adapter.js';
import type { SqliteMessageQueue, QueueLimits } from './message-queue.js';
import type { DeliveryPolicy } from './delivery-policy.js';
import type { DeliveryGuard, DeliveryNetwork } from './delivery-guard.js';
import type { ChannelRow, ItemRow, XchanRow } from '../store/rows.js';
import { actorByAddress, actorById } from './remote-actors.js';
import { findXchanByUrl } from '../store/xchan-lookup.js';
import { getLocalXchanByNick } from '../store/xchans.js';
import type { ItemEventKind } from '../services/item-events.js';
import type { SocialEvent, SocialOutcome } from '../services/social-events.js';
import { deliverItem, ITEM_JOB, itemJob, type ItemJob } from './outgoing/items.js';
import { onSocialEvent } from './outgoing/social.js';
import { ACTOR_JOB, actorUpdateJob, deliverActorUpdate, type ActorJob } from './outgoing/actor.js';
import { federationEnabled, federationInsecure, federationUrl, federationUrlProblem } from './settings.js';
import { InboxGuard, type InboxLimits } from './inbox-guard.js';
import { rfc9421Covers } from './signature-coverage.js';
import { HttpError } from '../http/errors.js';

/** Paths whose requests are the federation's to answer (when it runs). */
const CLAIMED = /^\/(\.well-known\/webfinger$|inbox$|channel\/[^/]+(\/(inbox|outbox|followers|following|featured))?\/?$|item\/[^/]+$)/;

/**
 * A query that names this hub (an address at its host, a URL at its origin): the local channel
 * it names, null for nobody; undefined for a query about someone elsewhere. The hub's own people
 * are never fetched as if they were elsewhere (that would make them a second, remote identity).
 */
function ownIdentity(db: Hub['db'], publicUrl: string, q: string): XchanRow | null | undefined {
  const own = new URL(publicUrl);
  if (/^https?:\/\//i.test(q)) {
    let url: URL;
    try {
      url = new URL(q);
    } catch {
      return null;
    }
    return url.origin === own.origin ? (findXchanByUrl(db, url.href) ?? null) : undefined;
  }
  const address = q.replace(/^acct:/i, '').replace(/^@/, '');
  const at = address.lastIndexOf('@');
  if (at < 1 || address.slice(at + 1).toLowerCase() !== own.host.toLowerCase()) return undefined;
  return getLocalXchanByNick(db, address.slice(0, at)) ?? null;
}

const INBOX = /^\/(inbox|channel\/[^/]+\/inbox)\/?$/;

/**
 * What Fedify throws while it reads an activity, before it knows who sent it, because of the
 * activity itself: JSON-LD it cannot process (a context that does not load), a document it could
 * not fetch. The sender's fault (400), not the hub's (500).
 */
function isSendersFault(err: unknown): boolean {
  return err instanceof FetchError || /^jsonld\./.test((err as { name?: string })?.name ?? '');
}

/**
 * Federation as part of a running hub: started when the hub starts with it on (and again when the
 * owner turns it on or off), answering its own paths, delivering from its queue in the background.
 */
export class FederationService implements FederationRuntime {
  private running: { federation: Federation<Hub>; queue: SqliteMessageQueue; guard: DeliveryGuard; url: string; stop: AbortController; listening: Promise<void> } | undefined;
  private problem: string | undefined;
  private readonly inboxGuard: InboxGuard;

  constructor(
    private readonly hub: Hub,
    private readonly o: { queue?: Partial<QueueLimits>; delivery?: Partial<DeliveryPolicy>; inbox?: Partial<InboxLimits>; busy?: () => boolean; handled?: () => void; network?: DeliveryNetwork } = {},
  ) {
    this.inboxGuard = new InboxGuard(o.inbox);
    // Follows of people elsewhere are recorded even while federation does not run (they wait).
    hub.events.on('social', (e: SocialEvent, outcome: SocialOutcome) => onSocialEvent(hub, e, outcome));
  }

  /** The public URL while federation runs: the hub's addresses are fixed to it. */
  get fixedUrl(): string | undefined {
    return this.running?.url;
  }

  get federation(): Federation<Hub> | undefined {
    return this.running?.federation;
  }

  state(): FederationState {
    const db = this.hub.db;
    return { on: federationEnabled(db), running: Boolean(this.running), url: federationUrl(db), problem: this.problem };
  }

  /** Starts federation if the owner turned it on and its address allows; says why not in the log otherwise. */
  start(): void {
    if (this.running) return;
    const db = this.hub.db;
    this.problem = undefined;
    if (!federationEnabled(db)) return;
    const url = federationUrl(db);
    this.problem = federationUrlProblem(url, federationInsecure());
    if (this.problem) {
      this.hub.log.warn(`Federation is on but does not run: ${this.problem}.`);
      return;
    }
    const { federation, queue, guard } = buildFederation(this.hub, { publicUrl: url!, queue: this.o.queue, delivery: this.o.delivery, busy: this.o.busy, handled: this.o.handled, network: this.o.network });
    queue.handle(ITEM_JOB, (job) => deliverItem(this.hub, job as ItemJob));
    queue.handle(ACTOR_JOB, (job) => deliverActorUpdate(this.hub, job as ActorJob));
    const stop = new AbortController();
    // Running before the queue starts: its first messages are handled at once, and need it.
    const running = { federation, queue, guard, url: url!, stop, listening: Promise.resolve() };
    this.running = running;
    running.listening = federation.startQueue(this.hub, { signal: stop.signal }).catch((err: Error) => this.hub.log.error(`federation queue stopped: ${err.message}`));
  }

  /**
   * Stops delivering; what is queued stays queued for the next start. Messages in hand are
   * finished first, with the federation they started with.
   */
  async stop(): Promise<void> {
    const r = this.running;
    if (!r) return;
    r.stop.abort();
    await r.listening;
    r.guard.close();
    if (this.running === r) this.running = undefined;
  }

  queueItem(kind: ItemEventKind, item: ItemRow): void {
    const r = this.running;
    const job = r && itemJob(this.hub, kind, item);
    if (job) r.queue.push(job);
  }

  queueActorUpdate(channel: ChannelRow): void {
    const r = this.running;
    const job = r && actorUpdateJob(this.hub, channel);
    if (job) r.queue.push(job);
  }

  async restart(): Promise<void> {
    await this.stop();
    this.start();
  }

  async resolve(query: string): Promise<XchanRow | undefined> {
    const r = this.running;
    const q = query.trim();
    if (!r || !q) return undefined;
    const own = ownIdentity(this.hub.db, r.url, q);
    if (own !== undefined) return own ?? undefined;
    const ctx = r.federation.createContext(new URL(r.url), this.hub);
    try {
      if (/^https?:\/\//i.test(q)) return await actorById(ctx, q);
      if (/^(acct:)?@?[^@\s/]+@[^@\s/]+$/i.test(q)) return await actorByAddress(ctx, q);
    } catch (err) {
      this.hub.log.info(`federation: ${q} could not be resolved: ${(err as Error).message}`);
    }
    return undefined;
  }

  /** Koa middleware: the federation's paths while it runs; everything else (and HTML) goes on. */
  middleware() {
    return async (ctx: Context, next: Next) => {
      const r = this.running;
      if (!r || !CLAIMED.test(ctx.path)) return next();
      // A browser asking for HTML, or a path with no document of the federation's (unless an
      // ActivityPub client asked for it), goes on to the app's pages.
      const notOurs = new Response(null, { status: 404 });
      const input = ctx.get('signature-input');
      if (input && !rfc9421Covers(input, ctx.method)) throw new HttpError(401, 'An RFC 9421 signature must cover @method, @target-uri and, with a body, content-digest');
      // A POST to an inbox is looked at before its body is read: unsigned or over its rate, it goes no further.
      const signer = ctx.method === 'POST' && INBOX.test(ctx.path) ? this.inboxGuard.admit(ctx) : undefined;
      const wantsActivity = /application\/(activity|ld)\+json/.test(ctx.get('accept'));
      const response = await r.federation
        .fetch(await toFetchRequest(ctx, r.url), {
          contextData: this.hub,
          onNotFound: () => (wantsActivity ? new Response(JSON.stringify({ error: 'Not found' }), { status: 404, headers: { 'content-type': 'application/json' } }) : notOurs),
          onNotAcceptable: () => notOurs,
        })
        .catch((err: unknown) => {
          if (!signer || !isSendersFault(err)) throw err;
          return new Response(`The activity could not be read: ${(err as Error).message}`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
        });
      if (signer) this.inboxGuard.answered(signer, response.status);
      if (response === notOurs) return next();
      await sendFetchResponse(ctx, response);
    };
  }
}
