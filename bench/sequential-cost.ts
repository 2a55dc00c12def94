/** Measuring what one uncached answer costs the hub, requests one after the other. */
import type { Endpoint } from './endpoints.js';
import type { RequestSpec } from './load.js';
import { processCpuMs } from './cpu.js';

/** The same request with a parameter the hub ignores, different every time, so no answer is ever reused. */
let uncachedRuns = 0;

export function uncached(spec: RequestSpec): RequestSpec {
  const sep = spec.path.includes('?') ? '&' : '?';
  // Never the same URL twice, across a warm-up and its run and across rounds: a URL asked again
  // within seconds is kept by the response cache (a copy of the answer) and then answered from it.
  const run = ++uncachedRuns;
  let n = 0;
  return { ...spec, next: () => ({ path: `${spec.path}${sep}_bench=${run}.${n++}` }) };
}

/**
 * CPU time of the hub per uncached answer, requests one after the other: at least `minRequests`
 * and about `minMs` of the hub's CPU time (whose clock counts in 10 ms ticks).
 */
export async function sequentialCost(hub: { url: string; pid: number }, e: Endpoint, minRequests: number, minMs: number): Promise<{ cpuMsPerAnswer: number; answers: number }> {
  const spec = uncached(e.spec);
  let n = 0;
  const one = async () => {
    const res = await fetch(hub.url + spec.next!(n++).path!, { headers: spec.headers });
    await res.arrayBuffer();
  };
  // Warm-up: the first answers of an endpoint load modules and run unoptimised code.
  const warm0 = processCpuMs(hub.pid);
  for (let i = 0; i < 20 || (processCpuMs(hub.pid) - warm0 < 300 && i < 500); i++) await one();
  const cpu0 = processCpuMs(hub.pid);
  let answers = 0;
  while (answers < minRequests || (processCpuMs(hub.pid) - cpu0 < minMs && answers < 50 * minRequests)) {
    await one();
    answers++;
  }
  return { cpuMsPerAnswer: (processCpuMs(hub.pid) - cpu0) / answers, answers };
}
