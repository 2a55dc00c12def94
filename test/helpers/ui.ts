import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PASSWORD, type TestHub } from './hub.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RENDERER = join(ROOT, 'renderer');
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
    return (await stat(DIST_INDEX)).mtimeMs >= (await newestSource(RENDERER));
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

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

export interface Ui {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Saves a screenshot (full page unless told otherwise) to test-results/screenshots/<name>.png. */
  screenshot(name: string, opts?: { fullPage?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** A fresh browser page on the hub (built renderer), optionally already logged in as a channel. */
export async function openUi(hub: TestHub, opts: { as?: string; viewport?: { width: number; height: number } } = {}): Promise<Ui> {
  await ensureRendererBuilt();
  const browser = await launchBrowser();
  const context = await browser.newContext({ baseURL: hub.url, viewport: opts.viewport ?? { width: 1200, height: 900 } });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  if (opts.as) await loginThroughHub(page, opts.as);
  return {
    browser,
    context,
    page,
    async screenshot(name, shotOpts = {}) {
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: shotOpts.fullPage ?? true });
    },
    async close() {
      await browser.close();
      if (pageErrors.length) throw new Error(`uncaught errors in the page: ${pageErrors.join('; ')}`);
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
