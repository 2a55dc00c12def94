/**
 * Run as a child process (node --expose-gc --import tsx export-memory-child.ts <dataDir> <nick>
 * <warmNick>) against a data directory seeded beforehand. Starts a hub on it, exports <warmNick>
 * first (so that the process has done this kind of work once and holds what it needs for it),
 * then streams channel/export/basic?posts=true of <nick> over HTTP, reading it as it comes.
 * Measures the live heap (heapUsed + external after a forced GC, sampled every few chunks) and the
 * process's peak resident set (maxRSS) before and during that export. Prints one JSON line:
 * { items, bytes, chunks, baseline: {heap, rss}, peak: {heap, rss} }.
 */
import { get, type IncomingMessage } from 'node:http';
import { createHub } from '../../server/hub.js';
import { basic } from './hub.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function liveHeap(): number {
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

const maxRss = () => process.resourceUsage().maxRSS * 1024;

function request(url: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, { headers }, resolve).on('error', reject));
}

const [dataDir, nick, warmNick] = process.argv.slice(2) as [string, string, string];
const hub = await createHub({ dataDir, host: '127.0.0.1', port: 0 });
try {
  const url = await hub.listen();
  const headers = { authorization: basic(nick) };
  const exportOf = (who: string) => `${url}/api/z/1.0/channel/export/basic?posts=true&channel=${who}`;

  for await (const _ of await request(exportOf(warmNick), headers));
  const baseline = { heap: liveHeap(), rss: maxRss() };
  const peak = { ...baseline };

  const res = await request(exportOf(nick), headers);
  if (res.statusCode !== 200) throw new Error(`export answered ${res.statusCode}`);
  const marker = '"type":"activity"';
  let items = 0;
  let bytes = 0;
  let tail = '';
  let chunks = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    const text = tail + chunk.toString('latin1');
    for (let i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + 1)) items++;
    tail = text.slice(-(marker.length - 1));
    if (++chunks % 8 === 0) peak.heap = Math.max(peak.heap, liveHeap());
  }
  peak.rss = maxRss();
  process.stdout.write(JSON.stringify({ items, bytes, chunks, baseline, peak }) + '\n');
} finally {
  await hub.close();
}
