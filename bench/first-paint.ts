import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type CDPSession } from 'playwright-core';
import { startHubProcess } from './hub-process.js';
import type { Manifest } from './seed.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** test/helpers/ui.ts's (which registers with node's test runner as it loads, so not imported here). */
const CHROMIUM_ARGS = ['--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const DESKTOP = { width: 1200, height: 900 };

/** The hub serves the UI from dist/renderer: built once if it is missing (`npm run build` builds it afresh). */
function ensureRendererBuilt(): void {
  if (existsSync(`${ROOT}dist/renderer/index.html`)) return;
  const r = spawnSync('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('building the renderer failed');
}

/** A request the page made before its first post showed: when it was sent and answered, from the navigation. */
export interface PaintRequest {
  path: string;
  sentMs: number;
  /** When its answer had arrived whole (undefined: not yet when the post showed). */
  answeredMs?: number;
  /** Bytes on the wire (headers and body). */
  bytes?: number;
}

export interface FirstPaint {
  /** Navigation to the first post of the stream shown, each in a fresh browser context (no cache). */
  samplesMs: number[];
  medianMs: number;
  /** The first sample: a hub just started, its database pages not yet read. */
  coldMs: number;
  /** The first sample's requests up to its first post: what the page waited for, or shared the hub with. */
  coldRequests: PaintRequest[];
}

/** Records the page's requests from the DevTools Protocol's network events (times relative to the first). */
function recordRequests(cdp: CDPSession, base: string): () => PaintRequest[] {
  const byId = new Map<string, PaintRequest>();
  let t0: number | undefined;
  const ms = (t: number) => Math.round((t - t0!) * 1000);
  cdp.on('Network.requestWillBeSent', (e) => {
    t0 ??= e.timestamp;
    byId.set(e.requestId, { path: e.request.url.startsWith(base) ? e.request.url.slice(base.length) : e.request.url, sentMs: ms(e.timestamp) });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (r) Object.assign(r, { answeredMs: ms(e.timestamp), bytes: e.encodedDataLength });
  });
  return () => [...byId.values()].map((r) => ({ ...r }));
}

/**
 * The UI's first stream paint: a hub started afresh (from the TypeScript sources, which serve the
 * built renderer) on the data directory; the owner logged in (the session cookie only), then `/`
 * opened in Chromium with the cache disabled, timed until the stream shows its first post.
 */
export async function measureFirstPaint(dataDir: string, manifest: Manifest, tries: number): Promise<FirstPaint> {
  await ensureRendererBuilt();
  const hub = await startHubProcess(dataDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const samplesMs: number[] = [];
  let coldRequests: PaintRequest[] = [];
  try {
    for (let i = 0; i < tries; i++) {
      const context = await browser.newContext({ baseURL: hub.url, viewport: DESKTOP });
      try {
        const page = await context.newPage();
        const res = await page.request.post('/login', { data: { login: manifest.owner, password: manifest.password }, headers: { Accept: 'application/json' } });
        if (!res.ok()) throw new Error(`login as ${manifest.owner} failed: ${res.status()}`);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        const requests = recordRequests(cdp, hub.url);
        const t0 = performance.now();
        await page.goto('/');
        await page.locator('article[data-status-id]').first().waitFor({ timeout: 60_000 });
        samplesMs.push(Math.round(performance.now() - t0));
        if (i === 0) coldRequests = requests();
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await hub.stop();
  }
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return { samplesMs, medianMs: sorted[Math.floor((sorted.length - 1) / 2)]!, coldMs: samplesMs[0]!, coldRequests };
}
