import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { PASSWORD, type TestHub } from './hub.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RENDERER = join(ROOT, 'renderer');
/** Hub code the renderer bundles too (the BBCode renderer). */
const SHARED_WITH_RENDERER = join(ROOT, 'server', 'content');
const DIST_INDEX = join(ROOT, 'dist', 'renderer', 'index.html');
const BUILD_LOCK = join(ROOT, 'dist', '.renderer-build.lock');
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const t = entry.isDirectory() ? await newestSource(path) : (await stat(path)).mtimeMs;
    newest = Math.max(newest, t);
  }
  return newest;
}

async function isFresh(): Promise<boolean> {
  try {
    return (await stat(DIST_INDEX)).mtimeMs >= Math.max(await newestSource(RENDERER), await newestSource(SHARED_WITH_RENDERER));
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds the renderer with Vite when dist/renderer is missing or older than its sources. Test
 * files run in parallel processes, so one builds (holding a lock directory) while the others wait.
 */
export async function ensureRendererBuilt(): Promise<void> {
  if (await isFresh()) return;
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      await mkdir(BUILD_LOCK);
      break;
    } catch {
      const lock = await stat(BUILD_LOCK).catch(() => undefined);
      // A lock left by a crashed build is taken over after two minutes.
      if (lock && Date.now() - lock.mtimeMs > 120_000) await rm(BUILD_LOCK, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    if (await isFresh()) return;
    const { build } = await import('vite');
    await build({ configFile: join(RENDERER, 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    await rm(BUILD_LOCK, { recursive: true, force: true });
  }
}

export const CHROMIUM_ARGS = ['--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface Ui {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Saves a screenshot (full page unless told otherwise) to test-results/screenshots/<name>.png. */
  screenshot(name: string, opts?: { fullPage?: boolean }): Promise<void>;
  /** Screenshots of the current screen at desktop (<name>.png) and phone width (<name>-phone.png). */
  screenshots(name: string, opts?: { fullPage?: boolean }): Promise<void>;
  /**
   * Problems the current test provokes on purpose (a failed request it stages, an error it shows):
   * console errors and failed requests whose URL or text matches are not counted, until the test ends.
   */
  allowProblems(...patterns: RegExp[]): void;
  /** Console errors, uncaught errors and failed requests seen since the last check; throws if any. */
  assertNoProblems(): void;
  close(): Promise<void>;
}

/**
 * What the browser reports that a user would call broken: console errors, uncaught exceptions,
 * requests that failed or answered 4xx/5xx. Collected over every page of the context.
 */
class ProblemLog {
  private seen: string[] = [];
  private allowed: RegExp[] = [];

  constructor(context: BrowserContext) {
    context.on('weberror', (err) => this.add(`uncaught error: ${err.error().message}`));
    context.on('console', (msg) => {
      // "Failed to load resource" messages name the resource only in their location.
      if (msg.type() === 'error') this.add(`console error: ${msg.text()}`, msg.location().url);
    });
    context.on('requestfailed', (req) => {
      // Aborted by the page itself (navigating away, a cancelled upload): not a failure of the hub.
      if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
      this.add(`request failed: ${describe(req)} (${req.failure()?.errorText})`, req.url());
    });
    context.on('response', (res) => {
      if (res.status() >= 400) this.add(`request failed: ${describe(res.request())} answered ${res.status()} ${res.statusText()}`, res.url());
    });
  }

  allow(patterns: RegExp[]): void {
    this.allowed.push(...patterns);
  }

  private add(message: string, ...urls: string[]): void {
    if (this.allowed.some((p) => p.test(message) || urls.some((u) => p.test(u)))) return;
    this.seen.push(message);
  }

  /** Throws with every problem seen since the last call, and forgets the test's allowances. */
  check(when: string): void {
    const seen = this.seen;
    this.seen = [];
    this.allowed = [];
    if (seen.length) throw new Error(`${when}, the browser reported ${seen.length} problem(s):\n  ${seen.join('\n  ')}`);
  }
}

function describe(req: Request): string {
  return `${req.method()} ${req.url()}`;
}

const openLogs = new Set<ProblemLog>();

// Every test that drives a browser fails on what the browser reported during it.
afterEach(() => {
  const errors: string[] = [];
  for (const log of openLogs) {
    try {
      log.check('During this test');
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  if (errors.length) throw new Error(errors.join('\n'));
});

/** A fresh browser page on the hub (built renderer), optionally already logged in as a channel. */
export async function openUi(hub: TestHub, opts: { as?: string; viewport?: { width: number; height: number } } = {}): Promise<Ui> {
  await ensureRendererBuilt();
  const browser = await launchBrowser();
  const viewport = opts.viewport ?? DESKTOP;
  const context = await browser.newContext({ baseURL: hub.url, viewport });
  context.setDefaultTimeout(30_000);
  const problems = new ProblemLog(context);
  openLogs.add(problems);
  const page = await context.newPage();
  if (opts.as) await loginThroughHub(page, opts.as);
  const shoot = async (name: string, fullPage = true) => {
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
  };
  return {
    browser,
    context,
    page,
    screenshot: (name, shotOpts = {}) => shoot(name, shotOpts.fullPage ?? true),
    async screenshots(name, shotOpts = {}) {
      const before = page.viewportSize() ?? viewport;
      try {
        for (const [size, suffix] of [[DESKTOP, ''], [PHONE, '-phone']] as const) {
          await page.setViewportSize(size);
          // Layout settles on the next frame; lazy images that came into view load meanwhile.
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await page.waitForLoadState('networkidle').catch(() => undefined);
          await shoot(`${name}${suffix}`, shotOpts.fullPage ?? true);
        }
      } finally {
        await page.setViewportSize(before);
      }
    },
    allowProblems: (...patterns) => problems.allow(patterns),
    assertNoProblems: () => problems.check('So far'),
    async close() {
      openLogs.delete(problems);
      await browser.close();
      problems.check('Before closing the browser');
    },
  };
}

/** Logs the browser context in through POST /login (the UI's own login form is tested elsewhere). */
export async function loginThroughHub(page: Page, nick: string): Promise<void> {
  const res = await page.request.post('/login', { data: { login: nick, password: PASSWORD }, headers: { Accept: 'application/json' } });
  if (!res.ok()) throw new Error(`login as ${nick} failed: ${res.status()} ${await res.text()}`);
}

/** Random pixels, so the PNG does not compress: a few hundred KB to watch an upload progress. */
export async function noisyPng(width = 480, height = 360): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
}

/** Slows the page's uploads down (bytes per second) so that progress can be seen. */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

/** A small PNG of one colour, made with sharp (already a dependency of the hub). */
export async function pngOf(color: { r: number; g: number; b: number }, width = 64, height = 48): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}
