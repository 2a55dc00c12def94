import { rssMB, round1, RssSampler } from './memory.js';

export interface ExportMeasure {
  channel: string;
  status: number;
  bytes: number;
  /** Items in the export's item section (counted while streaming past). */
  items: number;
  seconds: number;
  idleRssMB: number;
  peakRssMB: number;
  /** Peak minus the RSS just before the request. */
  growthMB: number;
}

const ITEM_MARK = Buffer.from('"message_id":"');

/** Counts occurrences of a marker across chunk boundaries. */
function counter(mark: Buffer) {
  let tail: Buffer = Buffer.alloc(0);
  let count = 0;
  return {
    feed(chunk: Buffer) {
      const buf = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      for (let at = buf.indexOf(mark); at >= 0; at = buf.indexOf(mark, at + mark.length)) count++;
      tail = buf.subarray(Math.max(0, buf.length - mark.length + 1));
    },
    get count() {
      return count;
    },
  };
}

/**
 * Downloads channel/export/basic?posts=true of a channel (as the owner account, `channel=` picks
 * it) without keeping it, sampling the hub's RSS meanwhile.
 */
export async function measureExport(url: string, pid: number, auth: string, nick: string): Promise<ExportMeasure> {
  global.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const idle = rssMB(pid);
  const sampler = new RssSampler(pid, 10);
  const t0 = performance.now();
  const res = await fetch(`${url}/api/z/1.0/channel/export/basic?posts=true&channel=${encodeURIComponent(nick)}`, { headers: { authorization: auth } });
  let bytes = 0;
  const items = counter(ITEM_MARK);
  for await (const chunk of res.body ?? []) {
    const b = Buffer.from(chunk as Uint8Array);
    bytes += b.length;
    items.feed(b);
  }
  const seconds = (performance.now() - t0) / 1000;
  const rss = sampler.stop();
  return {
    channel: nick,
    status: res.status,
    bytes,
    items: items.count,
    seconds: Number(seconds.toFixed(3)),
    idleRssMB: round1(idle),
    peakRssMB: rss.peakMB,
    growthMB: round1(rss.peakMB - idle),
  };
}
