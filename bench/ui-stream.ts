// A long stream in the owner's UI: how smoothly it scrolls with the CPU slowed down, and how
// heavy it is once scrolled to the end.
//
//   node --import tsx bench/ui-stream.ts [--posts 500] [--throttle 4] [--speed 3000]
//
// Starts a hub on loopback with two connected channels and seeds --posts posts (every 20th with a
// comment and a like), logs a browser in and opens the stream at 1200×900. With the CPU slowed
// --throttle times (CDP Emulation.setCPUThrottlingRate) it scrolls down at --speed px/s, one step
// per animation frame, loading every page on the way, until the stream says it has reached the
// beginning; then reports, after a garbage collection, the DOM nodes (CDP Performance.getMetrics
// "Nodes", and the elements in the document), the JS heap in use (JSHeapUsedSize) and the page
// height; then scrolls back up to the top the same way. For each scroll: the frames per second,
// the worst gap between two frames, and the longest "long animation frame" the browser recorded.
import { parseArgs } from 'node:util';
import { startHub } from '../test/helpers/hub.js';
import { apiCall, connectMutually, postStatus } from '../test/helpers/ui-fixtures.js';
import { DESKTOP, ensureRendererBuilt, launchBrowser, loginThroughHub } from '../test/helpers/ui.js';

const { values } = parseArgs({ options: { posts: { type: 'string', default: '500' }, throttle: { type: 'string', default: '4' }, speed: { type: 'string', default: '3000' } } });
const posts = Number(values.posts);
const throttle = Number(values.throttle);
const speed = Number(values.speed);
interface ScrollFigures {
  distance: number;
  seconds: number;
  frames: number;
  fps: number;
  worstFrame: number;
  p95Frame: number;
  framesOver50ms: number;
  longAnimationFrames: number;
  worstLongAnimationFrame: number;
}

const log = (msg: string) => process.stderr.write(`${msg}\n`);

const WORDS = 'the bread rose slowly while the rain kept on at the window and we talked about the garden the bees the long walk home and what to cook on Sunday'.split(' ');
function sentence(i: number): string {
  const n = 12 + (i % 23);
  return Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
}

await ensureRendererBuilt();
const hub = await startHub({ channels: ['alice', 'bob'] });
const browser = await launchBrowser();
try {
  await connectMutually(hub, 'alice', ['bob']);
  const t0 = performance.now();
  for (let i = 1; i <= posts; i++) {
    const author = i % 2 ? 'bob' : 'alice';
    const post = await postStatus(hub, author, `Post ${i}: ${sentence(i)}.`);
    if (i % 20 === 0) {
      await postStatus(hub, author === 'bob' ? 'alice' : 'bob', `A comment on post ${i}`, { in_reply_to_status_id: String(post.id) });
      await apiCall(hub, author === 'bob' ? 'alice' : 'bob', '/api/ext/activity/like', { id: String(post.id) });
    }
  }
  log(`seeded ${posts} posts in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const context = await browser.newContext({ baseURL: hub.url, viewport: DESKTOP });
  const page = await context.newPage();
  await loginThroughHub(page, 'alice');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto('/');
  await page.locator('article[data-status-id]').first().waitFor();

  // Plain JavaScript: tsx would wrap named functions in a helper the page does not have.
  // One step of scrolling per animation frame, at a steady speed: down until the stream says it
  // has reached its beginning (every post loaded on the way), or up to the top.
  const measureScroll = `async ({ down, pxPerSecond, limitMs }) => {
    const longFrames = [];
    let observer;
    try {
      observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longFrames.push(e.duration);
      });
      observer.observe({ type: 'long-animation-frame', buffered: false });
    } catch {
      observer = undefined;
    }
    const el = document.scrollingElement;
    const from = el.scrollTop;
    const gaps = [];
    const started = await new Promise((r) => requestAnimationFrame(r));
    let y = from;
    await new Promise((done) => {
      let last = started;
      function frame(now) {
        gaps.push(now - last);
        const dt = now - last;
        last = now;
        const bottom = el.scrollHeight - innerHeight;
        y = down ? Math.min(bottom, y + (pxPerSecond * dt) / 1000) : Math.max(0, y - (pxPerSecond * dt) / 1000);
        el.scrollTop = y;
        const finished = down ? y >= bottom - 1 && document.querySelector('.stream-end') : y <= 0;
        if (finished || now - started > limitMs) done();
        else requestAnimationFrame(frame);
      }
      requestAnimationFrame(frame);
    });
    observer?.disconnect();
    const seconds = gaps.reduce((a, b) => a + b, 0) / 1000;
    const sorted = [...gaps].sort((a, b) => a - b);
    return {
      distance: Math.abs(el.scrollTop - from),
      seconds,
      frames: gaps.length,
      fps: gaps.length / seconds,
      worstFrame: sorted[sorted.length - 1] ?? 0,
      p95Frame: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
      framesOver50ms: gaps.filter((g) => g > 50).length,
      longAnimationFrames: longFrames.length,
      worstLongAnimationFrame: longFrames.length ? Math.max(...longFrames) : 0,
    };
  }`;
  const scroll = async (down: boolean) => (await page.evaluate(`(${measureScroll})(${JSON.stringify({ down, pxPerSecond: speed, limitMs: 600_000 })})`)) as ScrollFigures;

  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const t1 = performance.now();
  const toEnd = await scroll(true);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await page.waitForLoadState('networkidle');
  const shown = await page.locator('article[data-status-id], [data-thread-placeholder]').count();
  log(`scrolled to the end in ${((performance.now() - t1) / 1000).toFixed(1)} s; ${shown} threads in the list`);

  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(500);
  const metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const atEnd = await page.evaluate(() => ({ elements: document.getElementsByTagName('*').length, height: document.documentElement.scrollHeight }));

  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const back = await scroll(false);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(`UI stream with ${posts} posts, scrolled to the end (${shown} threads listed):`);
  console.log(`  DOM nodes (Performance.getMetrics Nodes): ${metrics.Nodes}`);
  console.log(`  elements in the document:                 ${atEnd.elements}`);
  console.log(`  JS heap used (after GC):                  ${mb(metrics.JSHeapUsedSize ?? 0)} (of ${mb(metrics.JSHeapTotalSize ?? 0)} allocated)`);
  console.log(`  page height:                              ${atEnd.height} px`);
  const report = (what: string, f: ScrollFigures) => {
    console.log(`${what} at ${speed} px/s, CPU slowed ${throttle}×: ${f.distance.toFixed(0)} px in ${f.seconds.toFixed(1)} s`);
    console.log(`  frames per second:                        ${f.fps.toFixed(1)} (${f.frames} frames)`);
    console.log(`  worst frame (gap between frames):         ${f.worstFrame.toFixed(0)} ms (95th percentile ${f.p95Frame.toFixed(0)} ms, ${f.framesOver50ms} over 50 ms)`);
    console.log(`  long animation frames:                    ${f.longAnimationFrames}, the longest ${f.worstLongAnimationFrame.toFixed(0)} ms`);
  };
  report('Scrolling down to the end (loading every page on the way)', toEnd);
  report('Scrolling back up to the top', back);
} finally {
  await browser.close();
  await hub.stop();
}
