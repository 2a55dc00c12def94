import autocannon from 'autocannon';

/** One request as the load generator sends it; `next` can vary it per request. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Called before every request with a running counter, to vary path or body. */
  next?: (n: number) => { path?: string; body?: string | Buffer };
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  /** Responses with a 2xx status per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Response bytes per second (headers and body). */
  bytesPerSec: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** A number of requests instead of a duration. */
  requests?: number;
  /** Seconds before an unanswered request counts as a timeout. */
  timeout?: number;
}

function run(url: string, spec: RequestSpec, connections: number, seconds: number, timeout: number, amount?: number): Promise<autocannon.Result> {
  let n = 0;
  const request: autocannon.Request = { method: spec.method, path: spec.path, headers: spec.headers, body: spec.body };
  if (spec.next) {
    const next = spec.next;
    request.setupRequest = (req) => {
      const v = next(n++);
      return { ...req, ...(v.path !== undefined ? { path: v.path } : {}), ...(v.body !== undefined ? { body: v.body } : {}) };
    };
  }
  // Runs end on a sampling tick; ticks of 100 ms (not 1 s) let short runs end when they should.
  return autocannon({ url, connections, ...(amount ? { amount } : { duration: seconds }), timeout, requests: [request], sampleInt: 100 } as autocannon.Options);
}

/** Loads one endpoint: an unrecorded warm-up, then the measured run. */
export async function loadEndpoint(url: string, spec: RequestSpec, opts: LoadOptions): Promise<LoadResult> {
  const timeout = opts.timeout ?? 30;
  if (opts.warmupSeconds > 0) await run(url, spec, opts.connections, opts.warmupSeconds, timeout);
  const r = await run(url, spec, opts.connections, opts.seconds, timeout, opts.requests);
  const ok = r['2xx'];
  const statusCodes: Record<string, number> = {};
  for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = Number((v as { count: number | string }).count);
  return {
    connections: opts.connections,
    seconds: r.duration,
    requests: r.requests.total,
    rps: ok / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    meanMs: r.latency.mean,
    maxMs: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    bytesPerSec: r.throughput.total / r.duration,
  };
}
