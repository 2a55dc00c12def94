import { createExponentialBackoffPolicy, createFederation, type Federation } from '@fedify/fedify';
import type { Hub } from '../hub-context.js';
import { getChannelByNick } from '../store/channels.js';
import { HEARTH_VERSION } from '../version.js';
import { channelActor } from './actor.js';
import { guardedDocumentLoader } from './fetch-documents.js';
import { channelKeyPair } from './keys.js';
import { SqliteKvStore } from './kv-store.js';
import { DeliveryGuard, type DeliveryNetwork } from './delivery-guard.js';
import { rememberParsedKeys } from './key-memo.js';
import { checkSignaturesInProcess } from './crypto-in-process.js';
import { parseActivitiesOnce } from './parse-once.js';
import { SqliteMessageQueue, type QueueLimits } from './message-queue.js';
import { DEFAULT_DELIVERY_POLICY, type DeliveryPolicy } from './delivery-policy.js';
import { mountCollections } from './collections.js';
import { mountObjects } from './objects.js';
import { mountInbox } from './inbox/listeners.js';
import { federationInsecure } from './settings.js';

export interface FederationOptions {
  /** The hub's fixed public base URL: actor and object ids are built from it. */
  publicUrl: string;
  queue?: Partial<QueueLimits>;
  delivery?: Partial<DeliveryPolicy>;
  /** Whether the hub is answering requests now (outgoing work then gives way). */
  busy?: () => boolean;
  network?: DeliveryNetwork;
  /** Told of every message the queue handled. */
  handled?: () => void;
}

/** Paths of the federation's own documents (the rest of a request's path space belongs to the hub). */
export const ACTOR_PATH = '/channel/{identifier}';
export const INBOX_PATH = '/channel/{identifier}/inbox';
export const SHARED_INBOX_PATH = '/inbox';

/**
 * The hub's ActivityPub side, on Fedify: one Person per channel (found by WebFinger), their
 * collections and objects, the inboxes, and deliveries through a queue in the hub's database.
 */
export function buildFederation(hub: Hub, o: FederationOptions): { federation: Federation<Hub>; queue: SqliteMessageQueue; guard: DeliveryGuard } {
  rememberParsedKeys();
  checkSignaturesInProcess();
  parseActivitiesOnce();
  const guard = new DeliveryGuard({ insecure: federationInsecure, ...o.network });
  const queue = new SqliteMessageQueue(hub.db, o.queue, (err) => hub.log.warn(`federation queue: ${(err as Error).message}`), { busy: o.busy, guard, handled: o.handled });
  const userAgent = `Hearth/${HEARTH_VERSION} (+${o.publicUrl})`;
  const delivery = { ...DEFAULT_DELIVERY_POLICY, ...o.delivery };
  const federation = createFederation<Hub>({
    kv: new SqliteKvStore(hub.db),
    queue,
    manuallyStartQueue: true,
    origin: o.publicUrl,
    // The loaders below apply the address rules (and size and time limits) to every fetch.
    firstKnock: 'draft-cavage-http-signatures-12',
    outboxRetryPolicy: createExponentialBackoffPolicy({
      initialDelay: { milliseconds: delivery.retryInitialMs },
      maxDelay: { milliseconds: delivery.retryMaxMs },
      factor: 2,
      maxAttempts: delivery.maxRetries,
    }),
    // While one delivery probes a host that failed, the others wait and look again every few
    // seconds (Fedify's default is every second, each time rewriting every waiting delivery).
    circuitBreaker: { recoveryDelay: { milliseconds: delivery.hostRecoveryMs }, releaseInterval: { milliseconds: Math.min(10_000, delivery.hostRecoveryMs) } },
    inboxRetryPolicy: createExponentialBackoffPolicy({ initialDelay: { seconds: 5 }, maxDelay: { minutes: 30 }, maxAttempts: 8 }),
    signatureTimeWindow: { hours: 1 },
    // Fedify asks for a loader for each request and task: the insecure setting is read then.
    documentLoaderFactory: () => guardedDocumentLoader({ insecure: federationInsecure(), userAgent }),
    contextLoaderFactory: () => guardedDocumentLoader({ insecure: federationInsecure(), userAgent }),
    authenticatedDocumentLoaderFactory: (identity) => guardedDocumentLoader({ insecure: federationInsecure(), userAgent, identity }),
  });

  federation
    .setActorDispatcher(ACTOR_PATH, (ctx, nick) => channelActor(ctx, ctx.data.db, nick))
    .setKeyPairsDispatcher(async (ctx, nick) => {
      const channel = getChannelByNick(ctx.data.db, nick);
      return channel?.channel_prvkey ? [await channelKeyPair(channel)] : [];
    });
  mountCollections(federation);
  mountObjects(federation);
  mountInbox(federation);
  return { federation, queue, guard };
}
