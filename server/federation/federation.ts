import { createExponentialBackoffPolicy, createFederation, type Federation } from '@fedify/fedify';
import type { Hub } from '../hub-context.js';
import { getChannelByNick } from '../store/channels.js';
import { HEARTH_VERSION } from '../version.js';
import { channelActor } from './actor.js';
import { guardedDocumentLoader } from './fetch-documents.js';
import { channelKeyPair } from './keys.js';
import { SqliteKvStore } from './kv-store.js';
import { DeliveryGuard } from './delivery-guard.js';
import { SqliteMessageQueue, type QueueLimits } from './message-queue.js';
import { mountCollections } from './collections.js';
import { mountObjects } from './objects.js';
import { mountInbox } from './inbox/listeners.js';
import { federationInsecure } from './settings.js';

export interface FederationOptions {
  /** The hub's fixed public base URL: actor and object ids are built from it. */
  publicUrl: string;
  queue?: QueueLimits;
}

/** Paths of the federation's own documents (the rest of a request's path space belongs to the hub). */
export const ACTOR_PATH = '/channel/{identifier}';
export const INBOX_PATH = '/channel/{identifier}/inbox';
export const SHARED_INBOX_PATH = '/inbox';

/**
 * The hub's ActivityPub side, on Fedify: one Person per channel (found by WebFinger), their
 * collections and objects, the inboxes, and deliveries through a queue in the hub's database.
 */
export function buildFederation(hub: Hub, o: FederationOptions): { federation: Federation<Hub>; queue: SqliteMessageQueue } {
  const guard = new DeliveryGuard({ insecure: federationInsecure });
  const queue = new SqliteMessageQueue(hub.db, o.queue, (err) => hub.log.warn(`federation queue: ${(err as Error).message}`), guard);
  const userAgent = `Hearth/${HEARTH_VERSION} (+${o.publicUrl})`;
  const federation = createFederation<Hub>({
    kv: new SqliteKvStore(hub.db),
    queue,
    manuallyStartQueue: true,
    origin: o.publicUrl,
    // The loaders below apply the address rules (and size and time limits) to every fetch.
    firstKnock: 'draft-cavage-http-signatures-12',
    // Remote servers are down for hours or days (a desktop asleep, a server moving): try for about
    // six days, the waits doubling from 30 seconds up to 12 hours.
    outboxRetryPolicy: createExponentialBackoffPolicy({ initialDelay: { seconds: 30 }, maxDelay: { hours: 12 }, factor: 2, maxAttempts: 20 }),
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
  return { federation, queue };
}
