import http from 'node:http';
import https from 'node:https';
import { FetchRefused } from './fetch-documents.js';
import { pinnedTransport } from './pinned-transport.js';
import { dnsLookup, outboundUrlProblem, type HostLookup } from './public-address.js';
import { withFetch } from './scoped-fetch.js';

/** How deliveries reach other servers: the name lookup and the transport (tests stand in for them). */
export type DeliveryNetwork = Pick<DeliveryGuardOptions, 'lookup' | 'transport'>;

export interface DeliveryGuardOptions {
  /** Whether http and private addresses are allowed (read at each check). */
  insecure: () => boolean;
  /** How long a host's verdict is kept. */
  ttlMs?: number;
  lookup?: HostLookup;
  /** How a delivery's requests reach the network (tests stand in for it); by default pinnedTransport. */
  transport?: (insecure: boolean) => (request: Request) => Promise<Response>;
  /** How long one request of a delivery may take, until its answer's end. */
  timeoutMs?: number;
}

const DEFAULT_TTL_MS = 60_000;
const MAX_HOSTS = 1000;
const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_ANSWER_BYTES = 64 * 1024;
/** A few connections per host stay open between deliveries, for a few seconds (Fedify's fetch kept them 4 s). */
const KEEP_ALIVE: http.AgentOptions = { keepAlive: true, maxFreeSockets: 4, timeout: 5000 };

/** The start of an answer's body (Fedify reads only an error's first kilobyte), the rest let go. */
async function readUpTo(response: Response, max: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= max) {
      await reader.cancel();
      break;
    }
  }
  return new Uint8Array(Buffer.concat(chunks).subarray(0, max));
}

/** The inbox a queued message of Fedify's delivers to, when it is a delivery. */
export function deliveryInbox(message: unknown): string | undefined {
  const m = message as { type?: unknown; inbox?: unknown } | null;
  return m?.type === 'outbox' && typeof m.inbox === 'string' ? m.inbox : undefined;
}

/**
 * Judges each delivery's inbox just before it is sent: an inbox was checked when its actor was
 * remembered, but its name may point at this machine or the local network by now. A host's verdict
 * is kept for a minute, so that a burst of deliveries asks DNS once.
 *
 * While a delivery is sent (`sending`), every request it makes is judged the same way, each
 * redirect Fedify follows included, and connects only to addresses the rules allow (judged as the
 * socket connects, so DNS cannot answer one address to the check and another to the connection).
 */
export class DeliveryGuard {
  private readonly verdicts = new Map<string, { problem: string | undefined; until: number }>();
  /** Per setting (kept-alive connections made while insecure are never reused after it). */
  private readonly transports = new Map<boolean, { send: (request: Request) => Promise<Response>; agents: { http: http.Agent; https: https.Agent } }>();

  constructor(private readonly o: DeliveryGuardOptions) {}

  /** Runs a delivery's handler with its requests sent by `send`. */
  sending<T>(fn: () => T): T {
    return withFetch(this.send, fn);
  }

  /**
   * Sends one request of a delivery when its URL is allowed now: never following a redirect (the
   * answer goes back as it is), within the time limit, the answer read whole (at most 64 KiB) so
   * that its connection is free again.
   */
  readonly send = async (request: Request): Promise<Response> => {
    const problem = await this.problem(request.url);
    if (problem) throw new FetchRefused(request.url, `${request.url}: ${problem}`);
    const insecure = this.o.insecure();
    let t = this.transports.get(insecure);
    if (!t) {
      const agents = { http: new http.Agent(KEEP_ALIVE), https: new https.Agent(KEEP_ALIVE) };
      t = { agents, send: this.o.transport?.(insecure) ?? pinnedTransport(insecure, this.o.lookup ?? dnsLookup, agents) };
      this.transports.set(insecure, t);
    }
    // A timer of its own, cleared at the end (AbortSignal.timeout would keep each delivery's
    // request for the whole time limit: memory grew with every burst of deliveries).
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`no complete answer within ${this.o.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`)), this.o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const abort = () => timeout.abort(request.signal.reason);
    request.signal.addEventListener('abort', abort, { once: true });
    try {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      const response = await t.send(new Request(request.url, { method: request.method, headers: request.headers, body, redirect: 'manual', signal: timeout.signal }));
      const bytes = await readUpTo(response, MAX_ANSWER_BYTES);
      return new Response(response.status === 204 || response.status === 304 ? null : bytes, { status: response.status, headers: response.headers });
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', abort);
    }
  };

  /** Closes kept-alive connections. */
  close(): void {
    for (const t of this.transports.values()) {
      t.agents.http.destroy();
      t.agents.https.destroy();
    }
    this.transports.clear();
  }

  /** Why a delivery to this inbox may not be sent now, or undefined. */
  async problem(inbox: string): Promise<string | undefined> {
    let url: URL;
    try {
      url = new URL(inbox);
    } catch {
      return `${inbox} is not a URL`;
    }
    const insecure = this.o.insecure();
    const key = `${insecure ? 'insecure' : 'secure'} ${url.protocol}//${url.host}`;
    const now = Date.now();
    const known = this.verdicts.get(key);
    if (known && known.until > now) return known.problem;
    const problem = await outboundUrlProblem(url, insecure, this.o.lookup ?? dnsLookup);
    this.verdicts.delete(key);
    this.verdicts.set(key, { problem, until: now + (this.o.ttlMs ?? DEFAULT_TTL_MS) });
    if (this.verdicts.size > MAX_HOSTS) this.verdicts.delete(this.verdicts.keys().next().value!);
    return problem;
  }
}
