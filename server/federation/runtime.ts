import type { Federation } from '@fedify/fedify';
import type { Middleware } from 'koa';
import type { Hub } from '../hub-context.js';
import type { ChannelRow, ItemRow, XchanRow } from '../store/rows.js';
import type { ItemEventKind } from '../services/item-events.js';

export interface FederationState {
  /** The owner turned federation on. */
  on: boolean;
  /** It runs: on, and at an address other servers can use. */
  running: boolean;
  /** The fixed public address, once federation was turned on. */
  url?: string;
  /** Why it does not run although on. */
  problem?: string;
}

/** What the rest of the hub sees of its federation (federation/service.ts runs it). */
export interface FederationRuntime {
  /** The public URL while federation runs: the hub's addresses are fixed to it. */
  readonly fixedUrl: string | undefined;
  /** Fedify's federation while it runs. */
  readonly federation: Federation<Hub> | undefined;
  state(): FederationState;
  start(): void;
  stop(): Promise<void>;
  restart(): Promise<void>;
  middleware(): Middleware;
  /**
   * Queues the delivery of an item a channel here wrote, edited or deleted, while federation runs
   * (nothing otherwise). Call it inside the transaction that writes the item: the delivery is then
   * queued if and only if the item was written, and survives a crash right after.
   */
  queueItem(kind: ItemEventKind, item: ItemRow): void;
  /**
   * Queues the Update of a channel's actor for its followers elsewhere, while federation runs and
   * when what the actor shows changed. Call it inside the transaction that changes the profile.
   */
  queueActorUpdate(channel: ChannelRow): void;
  /**
   * Someone elsewhere by address (user@host, @user@host, acct:…) or actor URL, fetched and
   * remembered; undefined when federation does not run or nobody is found there.
   */
  resolve(query: string): Promise<XchanRow | undefined>;
}
