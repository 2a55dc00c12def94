/**
 * Run as a child process (node --expose-gc --import tsx export-memory-child.ts <dataDir> <nick>)
 * against a data directory seeded beforehand: starts a hub on it, streams
 * channel/export/basic?posts=true of <nick> over HTTP, reading it as it comes, and samples memory
 * (after a forced GC) every few chunks. Prints one JSON line:
 * { items, bytes, chunks, baseline: {heap, rss}, peak: {heap, rss} } where heap = heapUsed + external.
 */
import { createHub } from '../../server/hub.js';
import { basic } from './hub.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function sample() {
  gc!();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
}

const [dataDir, nick] = process.argv.slice(2) as [string, string];
const hub = await createHub({ dataDir, host: '127.0.0.1', port: 0 });
try {
  const url = await hub.listen();
  const headers = { authorization: basic(nick) };
  const exportUrl = `${url}/api/z/1.0/channel/export/basic?posts=true`;

  // Warm up: the password check (scrypt), the code paths and the connection, so that the
  // baseline holds everything a request needs besides the posts.
  for (const path of ['/api/z/1.0/verify', '/api/z/1.0/channel/export/basic?sections=channel']) await (await fetch(url + path, { headers })).arrayBuffer();

  const baseline = sample();
  const peak = { ...baseline };
  const res = await fetch(exportUrl, { headers });
  if (res.status !== 200) throw new Error(`export answered ${res.status}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const marker = '"type":"activity"';
  let items = 0;
  let bytes = 0;
  let tail = '';
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    const text = tail + decoder.decode(value, { stream: true });
    for (let i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + 1)) items++;
    tail = text.slice(-(marker.length - 1));
    if (++chunks % 8 === 0) {
      const s = sample();
      peak.heap = Math.max(peak.heap, s.heap);
      peak.rss = Math.max(peak.rss, s.rss);
    }
  }
  process.stdout.write(JSON.stringify({ items, bytes, chunks, baseline, peak }) + '\n');
} finally {
  await hub.close();
}
