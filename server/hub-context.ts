import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { Db } from './db/open.js';
import type { AttachmentStore } from './files/store.js';
import type { TmpSpace } from './files/tmp-space.js';
import type { Authenticator } from './auth/identity.js';
import type { LoginThrottle } from './auth/throttle.js';
import type { BodyLimits } from './http/body.js';
import type { RateLimit } from './http/rate-limit.js';
import type { StreamBudget } from './http/stream-budget.js';
import type { IntegrityReport } from './services/integrity.js';
import type { FederationRuntime } from './federation/runtime.js';
import type { BackupService } from './backup/service.js';

/*
 * What a running hub offers the code that serves it: its database, stores, settings and events.
 * The composition root (hub.ts) builds it; everything else depends only on this description.
 */

export interface Logger {
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/**
 * Events the hub emits: 'notification' (channelId, notifyId) for the desktop shell and the streams,
 * 'item' (kind, item) for the streams, 'stopping' when the server stops listening, 'backup'
 * (LastBackup) when a backup ended.
 */
export type HubEvents = EventEmitter;

export interface Hub {
  readonly db: Db;
  readonly files: AttachmentStore;
  readonly dataDir: string;
  readonly app: Koa;
  readonly events: HubEvents;
  readonly log: Logger;
  readonly authenticators: Authenticator[];
  /** Failed logins per client address, shared by every way of logging in. */
  readonly throttle: LoginThrottle;
  /** Mastodon apps registered per client address (POST /api/v1/apps is open to anyone). */
  readonly appRegistrations: RateLimit;
  readonly limits: BodyLimits;
  /** Room in tmp/ for uploads and imported files in progress (limits.maxTmpBytes, shared). */
  readonly tmpSpace: TmpSpace;
  /** Reads the request's body (the APIs call it once the caller may send one, see api.ts). */
  readonly parseBody: Middleware;
  /** Places for streaming connections per client address and token. */
  readonly streamBudget: StreamBudget;
  /** The address of a request's client: its peer's, or the forwarding proxy's word with trustProxy. */
  clientAddress(req: IncomingMessage): string | undefined;
  /** Base URL without trailing slash, e.g. http://127.0.0.1:8420. */
  readonly baseUrl: string;
  /** Host name used in channel addresses (nick@host). */
  readonly hostname: string;
  readonly host: string;
  readonly port: number;
  /** What the startup check found and repaired; it runs in the background from createHub on. */
  readonly integrity: Promise<IntegrityReport>;
  /** ActivityPub: runs from listen() on while the owner has it on (federation/service.ts). */
  readonly federation: FederationRuntime;
  /** Backups: now, on the owner's word, and on a schedule once started (backup/service.ts). */
  readonly backups: BackupService;
  listen(): Promise<string>;
  /** Moves a running hub to another interface/port/base URL (LAN access on and off). */
  rebind(opts: { host: string; port?: number; baseUrl?: string }): Promise<string>;
  /** Work to finish (or interrupt) when the hub closes, before the database does (a running import). */
  onClose(task: () => Promise<void> | void): void;
  close(): Promise<void>;
}

declare module 'koa' {
  interface DefaultContext {
    hub: Hub;
  }
}
