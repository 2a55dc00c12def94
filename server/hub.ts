// First: it keeps JSON.stringify as the runtime has it, whatever the modules below replace.
import { keepNativeJson } from './util/native-json.js';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { EventEmitter } from 'node:events';
import type { Hub, HubEvents, Logger } from './hub-context.js';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { openDatabase, type Db } from './db/open.js';
import { startCheckpointer } from './db/checkpointer.js';
import { AttachmentStore } from './files/store.js';
import { TmpSpace } from './files/tmp-space.js';
import { basicAuthenticator, sessionAuthenticator, type Authenticator } from './auth/identity.js';
import { oauthAuthenticator } from './auth/oauth1.js';
import { LoginThrottle, DEFAULT_THROTTLE, type ThrottleOptions } from './auth/throttle.js';
import { bodyParser, DEFAULT_BODY_LIMITS, type BodyLimits } from './http/body.js';
import { webBody } from './web/body-gate.js';
import { apiFallback, mountApis, type ApiDefinition } from './http/api.js';
import { hostGuard, webErrors } from './http/web.js';
import { forwardedClient, trustedProxyHeaders } from './http/proxy.js';
import { RateLimit } from './http/rate-limit.js';
import { ConnectionBudget } from './http/connection-budget.js';
import { StreamBudget } from './http/stream-budget.js';
import { bodyDeadline } from './http/body-deadline.js';
import { upgradeListener } from './http/upgrade.js';
import { malformedTargets } from './http/request-target.js';
import { securityHeaders } from './http/security-headers.js';
import { noBrowserChallenge } from './http/no-browser-challenge.js';
import { cors } from './http/cors.js';
import { mergeSlashes } from './http/merge-slashes.js';
import { nativeApi } from './api/native/api.js';
import { compatApi } from './api/compat/api.js';
import { mastodonApiV1, mastodonApiV2 } from './api/mastodon/api.js';
import { handleStreamingUpgrade } from './api/mastodon/streaming/websocket.js';
import { mountWeb } from './web/routes.js';
import { appNotFound } from './web/ui.js';
import { relocateLocalChannels } from './store/channels.js';
import { purgeExpiredSessions } from './store/sessions.js';
import { fullCheckPending, startIntegrityCheck, type IntegrityOptions, type IntegrityReport } from './services/integrity.js';
import { memoryTrimmer } from './http/memory-trim.js';
import { requestsInFlight } from './http/in-flight.js';
import { refreshRenderedHtml } from './services/rendered-html.js';
import { FederationService } from './federation/service.js';
import type { QueueLimits } from './federation/message-queue.js';
import type { DeliveryPolicy } from './federation/delivery-policy.js';
import type { InboxLimits } from './federation/inbox-guard.js';
import type { DeliveryNetwork } from './federation/delivery-guard.js';
import { DEFAULT_APP_REGISTRATION_LIMITS, startUnapprovedAppRemoval, type AppRegistrationLimits } from './services/oauth2.js';
import { startWebPush } from './services/web-push-sender.js';
import { LanSwitch, type LanSwitchOptions } from './services/lan-access.js';
import { getConfig, setConfig } from './store/config.js';
import { relocateRemoteAvatars } from './store/federation.js';
import { BackupService } from './backup/service.js';

keepNativeJson();

export interface HubOptions {
  /** Directory holding the database and the attachment store. */
  dataDir: string;
  /** Interface to bind; 127.0.0.1 unless LAN access is wanted. */
  host?: string;
  /** Port; 0 picks a free one. */
  port?: number;
  /** Public base URL used in every URL the hub hands out; derived from host and port when absent. */
  baseUrl?: string;
  /** Behind a reverse proxy on this machine: trust its X-Forwarded-For / X-Forwarded-Proto (proxy.ts). */
  trustProxy?: boolean;
  limits?: Partial<BodyLimits>;
  /** Timeouts and the caps on open connections and streams (tests shorten them). */
  connections?: Partial<ConnectionLimits>;
  throttle?: Partial<ThrottleOptions>;
  /** Mastodon apps anonymous clients may register, and how long unapproved ones stay (services/oauth2.ts). */
  appRegistrations?: Partial<AppRegistrationLimits>;
  /** Creates the attachment store over its directory (tests substitute a faulty disk here). */
  attachmentStore?: (root: string) => AttachmentStore;
  /** Deliveries at once, in all, per host and while requests are answered (tests and benchmarks change them). */
  federationQueue?: Partial<QueueLimits>;
  /** Waits between retries of a failed delivery and when to give up (tests shorten them). */
  federationDelivery?: Partial<DeliveryPolicy>;
  /** How many activities a remote server, and a client address, may deliver to the inboxes a minute (tests and benchmarks change them). */
  federationInbox?: Partial<InboxLimits>;
  /** How deliveries resolve names and reach other servers (tests stand in for the internet). */
  federationNetwork?: DeliveryNetwork;
  /** Where log lines go; silent when absent. */
  log?: Logger;
  /**
   * The owner may turn LAN access on and off while the hub runs (Settings → Network access, the
   * desktop app's menu); absent when whoever started the hub fixed its address (--host,
   * --base-url, a reverse proxy). Without remembered/remember the choice is kept in the database.
   */
  lanSwitch?: Partial<LanSwitchOptions>;
  /** When the background integrity check begins and how it spreads its slices (tests hurry it). */
  integrity?: Pick<IntegrityOptions, 'delayMs' | 'pauseMs' | 'beforeRepair'>;
}


/** config system.<this>: '1' while the owner wants LAN access (for hubs whose switch keeps it in the database). */
const LAN_ACCESS_SETTING = 'lan_access';

const silent: Logger = { info() {}, warn() {}, error() {} };

/** Errors that only say the client went away before its answer was written. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * After an unclean stop: everything, in one go, once the start's first requests are answered (on
 * two cores the check's thread would otherwise take half the machine while the window opens).
 */
const FULL_CHECK_PACE = { delayMs: 2_000, pauseMs: 0 };
/** Otherwise: the store against the database, once the start's requests are served, spread over a minute. */
const ROUTINE_CHECK_PACE = { delayMs: 30_000, pauseMs: 2_000 };



export interface ConnectionLimits {
  /** A client must have sent a request's headers this long after it started; else the socket closes. */
  headersTimeoutMs: number;
  /** The whole request (headers and body) must arrive within this; uploads of the largest size included. */
  requestTimeoutMs: number;
  /**
   * The body of a request must arrive within this unless its caller was authenticated before it
   * was read (uploads); then 408 and the connection closes (body-deadline.ts).
   */
  unauthenticatedBodyTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are closed as soon as they are accepted. */
  maxConnections: number;
  /** Open connections at most from one client address (IPv6: one /64); the owner's loopback (127.0.0.1, ::1) has no such cap. */
  maxConnectionsPerAddress: number;
  /** Of maxConnections, how many only the owner's loopback may use (the desktop window, a reverse proxy). */
  loopbackReserve: number;
  /** SSE and WebSocket streams open at most from one client address; none for the owner's loopback. */
  maxStreamsPerAddress: number;
  /** SSE and WebSocket streams open at most with one access token. */
  maxStreamsPerToken: number;
  /** Streams without a token open at most, from all addresses but the owner's loopback together. */
  maxAnonymousStreams: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 15 * 60_000,
  unauthenticatedBodyTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 256,
  maxConnectionsPerAddress: 32,
  loopbackReserve: 64,
  maxStreamsPerAddress: 16,
  maxStreamsPerToken: 16,
  maxAnonymousStreams: 64,
};

function defaultBaseUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

function normaliseBaseUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`base URL must be http or https: ${url}`);
  return u.toString().replace(/\/+$/, '');
}

export async function createHub(options: HubOptions): Promise<Hub> {
  const dataDir = options.dataDir;
  const tmpDir = join(dataDir, 'tmp');
  await mkdir(dataDir, { recursive: true });
  await rm(tmpDir, { recursive: true, force: true });
  await mkdir(tmpDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'hearth.db'));
  const files = (options.attachmentStore ?? ((root: string) => new AttachmentStore(root)))(join(dataDir, 'store'));
  await files.init();
  const log = options.log ?? silent;
  // A run that never reached close() leaves its marker behind. After such an unclean stop the whole
  // check runs at once (SQLite's own checks read the whole database: seconds for years of posts);
  // otherwise only the store is compared with the database, a slice at a time, well after the start.
  // Either way in a worker thread with a connection of its own: the hub serves meanwhile.
  const runningMarker = join(dataDir, 'hub.running');
  const full = existsSync(runningMarker) || fullCheckPending(db);
  writeFileSync(runningMarker, `${process.pid}\n`);
  const integrityCheck = startIntegrityCheck(db, files, { sqlite: full, resume: !full, ...(full ? FULL_CHECK_PACE : ROUTINE_CHECK_PACE), ...options.integrity });
  const integrity = integrityCheck.done;
  integrity.then(
    (report) => {
      if (report.repaired.length) log.warn(`integrity check repaired: ${report.repaired.join('; ')}`);
      else if (integrityCheck.status().state === 'done') log.info(full ? 'integrity check after an unclean stop: nothing to repair' : 'integrity check: nothing to repair');
    },
    (err: Error) => log.error(`integrity check failed: ${err.message}`),
  );
  purgeExpiredSessions(db);
  const htmlRefresh = refreshRenderedHtml(db);
  htmlRefresh.done.then(
    (changed) => {
      if (changed) log.info(`rendered ${changed} posts again with the current renderer`);
    },
    (err: Error) => log.error(`rendering posts again failed: ${err.message}`),
  );
  const checkpointer = startCheckpointer(db, (message) => log.warn(message));

  let host = options.host ?? '127.0.0.1';
  let port = options.port ?? 8420;
  let baseUrl = options.baseUrl ? normaliseBaseUrl(options.baseUrl) : '';
  let server: Server | undefined;
  const throttle = new LoginThrottle({ ...DEFAULT_THROTTLE, ...options.throttle });
  const appLimits = { ...DEFAULT_APP_REGISTRATION_LIMITS, ...options.appRegistrations };
  const appRegistrations = new RateLimit({ max: appLimits.perAddress, windowMs: appLimits.windowMs }, 'Too many apps registered from this address; try again later');
  const appRemoval = startUnapprovedAppRemoval(db, appLimits, (err) => log.error(`removing unapproved apps failed: ${err.message}`));
  const limits = { ...DEFAULT_BODY_LIMITS, ...options.limits };
  const connectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  let lastDropWarning = 0;
  let lastRefusalWarning = 0;
  const connectionBudget = new ConnectionBudget(connectionLimits, (address, reason) => {
    const now = Date.now();
    if (now - lastRefusalWarning > 60_000) log.warn(`refused connections from ${address}: ${reason}`);
    lastRefusalWarning = now;
  });
  const tmpSpace = new TmpSpace(limits.maxTmpBytes);
  const parseBody = bodyParser(tmpDir, limits, tmpSpace);
  const app = new Koa({ proxy: false });
  // A client that leaves in the middle of a streamed answer is not the hub's error; the rest are
  // reported as Koa reports them.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (!CLIENT_GONE.has(err.code ?? '')) app.onerror(err);
  });
  const events: HubEvents = new EventEmitter();
  const closeTasks: (() => Promise<void> | void)[] = [];

  // eslint-disable-next-line prefer-const -- made once the hub object exists, which it needs
  let federation: FederationService;
  let lan: LanSwitch | undefined;
  const hub: Hub = {
    db,
    files,
    dataDir,
    app,
    events,
    log,
    limits,
    tmpSpace,
    parseBody,
    integrity,
    throttle,
    appRegistrations,
    streamBudget: new StreamBudget(connectionLimits),
    backups: new BackupService({ db, dataDir, events, log }),
    get federation() {
      return federation;
    },
    get lan() {
      return lan;
    },
    clientAddress: (req) => (options.trustProxy ? forwardedClient(req.socket.remoteAddress, String(req.headers['x-forwarded-for'] ?? '')) : undefined) ?? req.socket.remoteAddress,
    authenticators: [],
    get baseUrl() {
      // While it federates, the hub's address is the one its actor ids were made with, for good.
      return federation.fixedUrl ?? (baseUrl || defaultBaseUrl(host, port));
    },
    get hostname() {
      return new URL(hub.baseUrl).hostname;
    },
    get host() {
      return host;
    },
    get port() {
      return port;
    },
    async listen() {
      if (server) return hub.baseUrl;
      const c = connectionLimits;
      // Expired requests are looked for every so often; often enough that the timeouts hold.
      const s = createServer({ headersTimeout: c.headersTimeoutMs, requestTimeout: c.requestTimeoutMs, keepAliveTimeout: c.keepAliveTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(c.headersTimeoutMs / 4, 5000)) }, app.callback());
      s.maxConnections = c.maxConnections;
      s.on('drop', () => {
        const now = Date.now();
        if (now - lastDropWarning > 60_000) log.warn(`refused connections: ${c.maxConnections} are open already`);
        lastDropWarning = now;
      });
      s.on('connection', (socket) => connectionBudget.admit(socket));
      s.on('upgrade', upgradeListener({ baseUrl: () => hub.baseUrl, log, handle: (req, socket, head, url) => handleStreamingUpgrade(hub, req, socket, head, url) }));
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, host, () => {
          s.off('error', reject);
          resolve();
        });
      });
      server = s;
      port = (s.address() as AddressInfo).port;
      federation.start();
      if (federation.fixedUrl && baseUrl && baseUrl !== federation.fixedUrl) log.warn(`The hub federates as ${federation.fixedUrl}; its addresses stay there, not at ${baseUrl}.`);
      relocateLocalChannels(db, hub.baseUrl);
      // Every remote person's row is read only when the address changed since the last start.
      if (getConfig(db, 'system', 'base_url') !== hub.baseUrl) relocateRemoteAvatars(db, hub.baseUrl);
      // For `hearth channel create` while the hub runs: new channels get the URLs in use.
      setConfig(db, 'system', 'base_url', hub.baseUrl);
      return hub.baseUrl;
    },
    async rebind(opts) {
      await stopServer();
      host = opts.host;
      if (opts.port !== undefined) port = opts.port;
      baseUrl = opts.baseUrl ? normaliseBaseUrl(opts.baseUrl) : '';
      return hub.listen();
    },
    onClose(task) {
      closeTasks.push(task);
    },
    async close() {
      await stopServer();
      await federation.stop();
      await hub.backups.close();
      await Promise.all(closeTasks.map((task) => task()));
      trimmer.stop();
      appRemoval.stop();
      await htmlRefresh.stop();
      await integrityCheck.stop();
      await checkpointer.stop();
      if (db.open) db.close();
      rmSync(runningMarker, { force: true });
    },
  };

  /** Stops accepting connections and waits for requests in flight to finish. */
  async function stopServer(): Promise<void> {
    const s = server;
    if (!s) return;
    server = undefined;
    // Streams stay open until told: they would hold the server open.
    events.emit('stopping');
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeIdleConnections();
    });
  }

  hub.authenticators.push(
    basicAuthenticator(db, throttle),
    oauthAuthenticator(db, () => hub.baseUrl),
    sessionAuthenticator(db, { requireCsrfHeader: true }),
  );
  app.context.hub = hub;
  const inFlight = requestsInFlight();
  federation = new FederationService(hub, { queue: options.federationQueue, delivery: options.federationDelivery, inbox: options.federationInbox, busy: () => inFlight.count() > 0, handled: () => trimmer.note(), network: options.federationNetwork });
  if (options.lanSwitch) {
    lan = new LanSwitch(hub, {
      remembered: () => getConfig(db, 'system', LAN_ACCESS_SETTING) === '1',
      remember: (on) => setConfig(db, 'system', LAN_ACCESS_SETTING, on ? '1' : '0'),
      ...options.lanSwitch,
    });
  }
  startWebPush(hub);

  const apis: ApiDefinition[] = [nativeApi, compatApi, mastodonApiV1, mastodonApiV2];
  // Two routers, because a router tests every one of its patterns on every request: pages and
  // photos need not go past the API's two hundred.
  const apiRouter = new Router();
  const apiRoutes = mountApis(apiRouter, apis);
  const apiLayers = apiRouter.routes();
  const webRouter = new Router();
  mountWeb(webRouter, hub);

  const trimmer = memoryTrimmer();
  app.use(inFlight.middleware);
  app.use(malformedTargets());
  app.use(mergeSlashes());
  app.use(trimmer.middleware);
  app.use(securityHeaders());
  app.use(noBrowserChallenge());
  if (options.trustProxy) app.use(trustedProxyHeaders());
  app.use(bodyDeadline(connectionLimits.unauthenticatedBodyTimeoutMs));
  app.use(webErrors());
  app.use(hostGuard(() => hub.baseUrl));
  app.use(cors());
  app.use(federation.middleware());
  app.use(appNotFound(hub));
  app.use(apiFallback(apis));
  app.use(webBody(parseBody));
  app.use(apiRoutes);
  app.use((ctx, next) => (ctx.path.startsWith('/api/') ? apiLayers(ctx as Parameters<typeof apiLayers>[0], next) : next()));
  app.use(webRouter.routes());
  return hub;
}

export type { Hub, HubEvents, Logger };
