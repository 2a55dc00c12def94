import autocannon from 'autocannon';
import { processCpuMs } from './cpu.js';

/** One request as the load generator sends it; `next` can vary it per request. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Called before every request with a running counter, to vary path or body. */
  next?: (n: number) => { path?: string; body?: string | Buffer };
  /**
   * Whether a 2xx answer did what was asked; those it refuses are not counted as answers. Hubzilla
   * refuses a post with a 200 and `{"success": false}`. Makes the load generator read every body.
   */
  accept?: (body: string) => boolean;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  /** Responses with a 2xx status (that RequestSpec.accept accepted) per second. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** 2xx answers that RequestSpec.accept refused. */
  refused: number;
  /** Response bytes per second (headers and body). */
  bytesPerSec: number;
  /** CPU time the server process (LoadOptions.cpuPid) used per 2xx answer during the measured run. */
  cpuMsPerAnswer?: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** A number of requests instead of a duration. */
  requests?: number;
  /** Seconds before an unanswered request counts as a timeout. */
  timeout?: number;
  /** Process whose CPU time to measure per answer (the hub). */
  cpuPid?: number;
}

function run(url: string, spec: RequestSpec, connections: number, seconds: number, timeout: number, amount?: number): Promise<autocannon.Result & { refused: number }> {
  let n = 0;
  let refused = 0;
  const request: autocannon.Request = { method: spec.method, path: spec.path, headers: spec.headers, body: spec.body };
  if (spec.accept) {
    const accept = spec.accept;
    request.onResponse = (status, body) => {
      if (status >= 200 && status < 300 && !accept(body)) refused++;
    };
  }
  if (spec.next) {
    const next = spec.next;
    request.setupRequest = (req) => {
      const v = next(n++);
      return { ...req, ...(v.path !== undefined ? { path: v.path } : {}), ...(v.body !== undefined ? { body: v.body } : {}) };
    };
  }
  // Runs end on a sampling tick; ticks of 100 ms (not 1 s) let short runs end when they should.
  const options = { url, connections, ...(amount ? { amount } : { duration: seconds }), timeout, requests: [request], sampleInt: 100 } as autocannon.Options;
  return autocannon(options).then((r) => ({ ...r, refused }));
}

/** Loads one endpoint: an unrecorded warm-up, then the measured run. */
export async function loadEndpoint(url: string, spec: RequestSpec, opts: LoadOptions): Promise<LoadResult> {
  const timeout = opts.timeout ?? 30;
  if (opts.warmupSeconds > 0) await run(url, spec, opts.connections, opts.warmupSeconds, timeout);
  const cpu0 = opts.cpuPid ? processCpuMs(opts.cpuPid) : Number.NaN;
  const r = await run(url, spec, opts.connections, opts.seconds, timeout, opts.requests);
  const cpuMs = opts.cpuPid ? processCpuMs(opts.cpuPid) - cpu0 : Number.NaN;
  const ok = r['2xx'] - r.refused;
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
    refused: r.refused,
    bytesPerSec: r.throughput.total / r.duration,
    ...(Number.isFinite(cpuMs) && ok > 0 ? { cpuMsPerAnswer: cpuMs / ok } : {}),
  };
}

/**
 * Several runs of one load as one result: requests and bytes summed, rates over the summed time,
 * p50 the median of the runs' and p99 and max the worst of them.
 */
export function combineRuns(runs: LoadResult[]): LoadResult {
  const first = runs[0];
  if (!first) throw new Error('no runs to combine');
  const sum = (f: (r: LoadResult) => number) => runs.reduce((a, r) => a + f(r), 0);
  const seconds = sum((r) => r.seconds);
  const statusCodes: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const sorted = (f: (r: LoadResult) => number) => runs.map(f).sort((a, b) => a - b);
  return {
    connections: first.connections,
    seconds,
    requests: sum((r) => r.requests),
    rps: sum((r) => r.rps * r.seconds) / seconds,
    p50Ms: sorted((r) => r.p50Ms)[Math.floor((runs.length - 1) / 2)]!,
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    meanMs: sum((r) => r.meanMs * r.requests) / Math.max(1, sum((r) => r.requests)),
    maxMs: Math.max(...runs.map((r) => r.maxMs)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
    refused: sum((r) => r.refused),
    bytesPerSec: sum((r) => r.bytesPerSec * r.seconds) / seconds,
    ...(runs.every((r) => r.cpuMsPerAnswer !== undefined) ? { cpuMsPerAnswer: sum((r) => r.cpuMsPerAnswer! * r.rps * r.seconds) / Math.max(1, sum((r) => r.rps * r.seconds)) } : {}),
  };
}
