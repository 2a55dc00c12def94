// The bytes on the wire for the first screen of the stream, as Chromium counts them.
//
//   node --import tsx bench/first-screen.ts [--posts 20] [--accept-encoding 'gzip, deflate']
//
// Starts a hub on loopback with one channel and a few posts, logs a fresh browser in (the cookie
// only), opens / and waits until the stream shows its posts and the network is quiet. Every
// response's encodedDataLength (Chrome DevTools Protocol: headers plus body as transferred, so
// after compression) is summed, by resource type; "decoded" is the bodies after decompression.
// --accept-encoding replaces the browser's own header (Chromium asks for brotli only from https
// and loopback addresses: a phone on the LAN gets gzip).
import { parseArgs } from 'node:util';
import { startHub } from '../test/helpers/hub.js';
import { postStatus } from '../test/helpers/ui-fixtures.js';
import { DESKTOP, ensureRendererBuilt, launchBrowser, loginThroughHub } from '../test/helpers/ui.js';

const { values } = parseArgs({ options: { posts: { type: 'string', default: '20' }, 'accept-encoding': { type: 'string' } } });
const posts = Number(values.posts);

interface Transfer {
  url: string;
  type: string;
  encoding: string;
  wire: number;
  decoded: number;
}

await ensureRendererBuilt();
const hub = await startHub({ channels: ['alice'] });
const browser = await launchBrowser();
try {
  for (let i = 1; i <= posts; i++) await postStatus(hub, 'alice', `Post number ${i}: [b]a little[/b] text, as a stream has.`);
  const context = await browser.newContext({ baseURL: hub.url, viewport: DESKTOP });
  const page = await context.newPage();
  await loginThroughHub(page, 'alice');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (values['accept-encoding'] !== undefined) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': values['accept-encoding'] } });
  const pending = new Map<string, Omit<Transfer, 'wire'>>();
  const transfers: Transfer[] = [];
  const acceptEncodings = new Set<string>();
  cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
    const value = Object.entries(e.headers).find(([k]) => k.toLowerCase() === 'accept-encoding')?.[1];
    if (value) acceptEncodings.add(String(value));
  });
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    pending.set(e.requestId, { url: e.response.url, type: e.type ?? 'Other', encoding: headers['content-encoding'] ?? 'identity', decoded: 0 });
  });
  cdp.on('Network.dataReceived', (e) => {
    const p = pending.get(e.requestId);
    if (p) p.decoded += e.dataLength;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const p = pending.get(e.requestId);
    if (p) transfers.push({ ...p, wire: e.encodedDataLength });
  });

  await page.goto('/');
  await page.locator('article[data-status-id]').first().waitFor();
  await page.waitForLoadState('networkidle');

  const byType = new Map<string, { count: number; wire: number; decoded: number }>();
  for (const t of transfers) {
    const sum = byType.get(t.type) ?? { count: 0, wire: 0, decoded: 0 };
    byType.set(t.type, { count: sum.count + 1, wire: sum.wire + t.wire, decoded: sum.decoded + t.decoded });
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`First screen of the stream (${posts} posts), ${transfers.length} responses:`);
  for (const [type, s] of [...byType].sort((a, b) => b[1].wire - a[1].wire)) console.log(`  ${type.padEnd(10)} ${String(s.count).padStart(3)}  wire ${kb(s.wire).padStart(10)}  decoded ${kb(s.decoded).padStart(10)}`);
  for (const t of transfers.filter((x) => x.type === 'Script' || x.type === 'Stylesheet' || x.type === 'Document')) {
    console.log(`    ${new URL(t.url).pathname.padEnd(40)} ${t.encoding.padEnd(8)} wire ${kb(t.wire).padStart(10)}  decoded ${kb(t.decoded).padStart(10)}`);
  }
  const total = transfers.reduce((n, t) => n + t.wire, 0);
  console.log(`  total wire bytes: ${total} (${kb(total)})`);
  console.log(`  the browser asked for: Accept-Encoding: ${[...acceptEncodings].join(' | ')}`);
} finally {
  await browser.close();
  await hub.stop();
}
