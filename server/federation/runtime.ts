import type { Federation } from '@fedify/fedify';
import type { Middleware } from 'koa';
import type { Hub } from '../hub-context.js';
import type { XchanRow } from '../store/rows.js';

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
   * Someone elsewhere by address (user@host, @user@host, acct:…) or actor URL, fetched and
   * remembered; undefined when federation does not run or nobody is found there.
   */
  resolve(query: string): Promise<XchanRow | undefined>;
}
