import type { Context, Next } from 'koa';
import type { Federation } from '@fedify/fedify';
import type { Hub } from '../hub-context.js';
import type { FederationRuntime, FederationState } from './runtime.js';
import { buildFederation } from './federation.js';
import { toFetchRequest, sendFetchResponse } from './koa-adapter.js';
import type { SqliteMessageQueue, QueueLimits } from './message-queue.js';
import type { DeliveryPolicy } from './delivery-policy.js';
import type { ItemRow, XchanRow } from '../store/rows.js';
import { actorByAddress, actorById } from './remote-actors.js';
import type { ItemEventKind } from '../services/item-events.js';
import type { SocialEvent, SocialOutcome } from '../services/social-events.js';
import { deliverItem, ITEM_JOB, itemJob, type ItemJob } from './outgoing/items.js';
import { onSocialEvent } from './outgoing/social.js';
import { federationEnabled, federationInsecure, federationUrl, federationUrlProblem } from './settings.js';

/** Paths whose requests are the federation's to answer (when it runs). */
const CLAIMED = /^\/(\.well-known\/webfinger$|inbox$|channel\/[^/]+(\/(inbox|outbox|followers|following))?\/?$|item\/[^/]+$)/;

/**
 * Federation as part of a running hub: started when the hub starts with it on (and again when the
 * owner turns it on or off), answering its own paths, delivering from its queue in the background.
 */
export class FederationService implements FederationRuntime {
  private running: { federation: Federation<Hub>; queue: SqliteMessageQueue; url: string; stop: AbortController; listening: Promise<void> } | undefined;
  private problem: string | undefined;

  constructor(
    private readonly hub: Hub,
    private readonly queueLimits?: Partial<QueueLimits>,
    private readonly delivery?: Partial<DeliveryPolicy>,
    private readonly busy?: () => boolean,
  ) {
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
    const { federation, queue } = buildFederation(this.hub, { publicUrl: url!, insecure: federationInsecure(), queue: this.queueLimits, delivery: this.delivery, busy: this.busy });
    queue.handle(ITEM_JOB, (job) => deliverItem(this.hub, job as ItemJob));
    const stop = new AbortController();
    // Running before the queue starts: its first messages are handled at once, and need it.
    const running = { federation, queue, url: url!, stop, listening: Promise.resolve() };
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
    if (this.running === r) this.running = undefined;
  }

  queueItem(kind: ItemEventKind, item: ItemRow): void {
    const r = this.running;
    const job = r && itemJob(this.hub, kind, item);
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
      const wantsActivity = /application\/(activity|ld)\+json/.test(ctx.get('accept'));
      const response = await r.federation.fetch(await toFetchRequest(ctx, r.url), {
        contextData: this.hub,
        onNotFound: () => (wantsActivity ? new Response(JSON.stringify({ error: 'Not found' }), { status: 404, headers: { 'content-type': 'application/json' } }) : notOurs),
        onNotAcceptable: () => notOurs,
      });
      if (response === notOurs) return next();
      await sendFetchResponse(ctx, response);
    };
  }
}
