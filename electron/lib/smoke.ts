/**
 * Smoke mode (`--smoke`): the app starts as usual on a throwaway user-data folder, and once its
 * window shows the UI loaded from the hub and the hub answers /api/z/1.0/version it quits with 0.
 * Anything else ends it with 1 and the reason on stderr, at the latest when the deadline passes.
 */

export const SMOKE_FLAG = '--smoke';
export const SMOKE_DEADLINE_MS = 60_000;
export const VERSION_PATH = '/api/z/1.0/version';

export function isSmokeRun(argv: readonly string[] = process.argv): boolean {
  return argv.includes(SMOKE_FLAG);
}

export interface SmokeOutcome {
  code: 0 | 1;
  /** The line for stdout (passed) or stderr (failed). */
  line: string;
}

/** One smoke run: the first outcome wins, and the deadline names the step that was still waiting. */
export class SmokeRun {
  #stage = 'Hearth to start';
  #outcome: SmokeOutcome | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly finish: (outcome: SmokeOutcome) => void,
    readonly deadlineMs = SMOKE_DEADLINE_MS,
  ) {
    this.#timer = setTimeout(() => this.fail(`timed out after ${deadlineMs / 1000} s waiting for ${this.#stage}`), deadlineMs);
  }

  get finished(): boolean {
    return this.#outcome !== undefined;
  }

  /** What the run is waiting for now, for the deadline's message. */
  stage(waitingFor: string): void {
    this.#stage = waitingFor;
  }

  pass(summary: string): void {
    this.#settle({ code: 0, line: `Hearth smoke test passed: ${summary}` });
  }

  fail(reason: string): void {
    this.#settle({ code: 1, line: `Hearth smoke test failed: ${reason}` });
  }

  #settle(outcome: SmokeOutcome): void {
    if (this.#outcome) return;
    this.#outcome = outcome;
    clearTimeout(this.#timer);
    this.finish(outcome);
  }
}

/** The window as the smoke check sees it (Electron's webContents in the app, a browser page in tests). */
export interface SmokePage {
  /** Resolves when the current page has finished loading; rejects with why it could not load. */
  loaded(): Promise<void>;
  url(): string;
  evaluate<T>(script: string): Promise<T>;
}

/** -1 when the page has no React root at all (not the UI), else how many children it rendered. */
const ROOT_CHILDREN = "(() => { const r = document.querySelector('#root'); return r ? r.childElementCount : -1; })()";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Checks that the window shows the UI served by the hub at `hubUrl` and that the hub answers its
 * version; passes or fails `run`. Waits as long as the run's deadline allows.
 */
export async function checkDesktop(run: SmokeRun, page: SmokePage, hubUrl: string, opts: { pollMs?: number; fetch?: typeof fetch } = {}): Promise<void> {
  const pollMs = opts.pollMs ?? 100;
  const get = opts.fetch ?? fetch;
  try {
    run.stage('the window to load the UI from the hub');
    await page.loaded();
    const shown = page.url();
    if (new URL(shown).origin !== new URL(hubUrl).origin) throw new Error(`the window shows ${shown}, not the hub at ${hubUrl}`);

    run.stage('the UI to render');
    for (;;) {
      const children = await page.evaluate<number>(ROOT_CHILDREN);
      if (children > 0) break;
      if (children < 0) throw new Error(`the hub served no UI at ${page.url()} (is the renderer built?)`);
      if (run.finished) return;
      await sleep(pollMs);
    }

    run.stage(`the hub to answer ${VERSION_PATH}`);
    const res = await get(`${hubUrl}${VERSION_PATH}`);
    const body = await res.text();
    if (!res.ok) throw new Error(`${VERSION_PATH} answered ${res.status}: ${body.slice(0, 200)}`);
    let version: unknown;
    try {
      version = JSON.parse(body);
    } catch {
      throw new Error(`${VERSION_PATH} answered something other than JSON: ${body.slice(0, 200)}`);
    }
    if (typeof version !== 'string' || !version) throw new Error(`${VERSION_PATH} answered ${body.slice(0, 200)}, not a version`);
    run.pass(`the window shows the UI from ${new URL(page.url()).origin}, and the hub answers version ${version}`);
  } catch (err) {
    run.fail((err as Error).message);
  }
}
