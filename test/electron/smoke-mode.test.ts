import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loginUrl } from '../../electron/lib/login-handoff.js';
import { checkDesktop, isSmokeRun, SmokeRun, type SmokeOutcome, type SmokePage } from '../../electron/lib/smoke.js';
import { startHub, type TestHub } from '../helpers/hub.js';
import { openUi, type Ui } from '../helpers/ui.js';

/** A smoke run whose outcome the test can await. */
function smokeRun(deadlineMs?: number): { run: SmokeRun; outcome: Promise<SmokeOutcome> } {
  let settle!: (o: SmokeOutcome) => void;
  const outcome = new Promise<SmokeOutcome>((resolve) => (settle = resolve));
  return { run: new SmokeRun(settle, deadlineMs), outcome };
}

/** A browser page standing in for the app window's webContents, which is loading `navigation`. */
function browserPage(page: Page, navigation: Promise<unknown>): SmokePage {
  return {
    loaded: () => navigation.then(() => page.waitForLoadState('load')),
    url: () => page.url(),
    evaluate: (script) => page.evaluate(script),
  };
}

const stubPage = (over: Partial<SmokePage>): SmokePage => ({ loaded: async () => {}, url: () => 'http://127.0.0.1:1/', evaluate: async <T>() => 1 as T, ...over });

describe('smoke mode', () => {
  let t: TestHub;
  let ui: Ui;
  before(async () => {
    t = await startHub({ channels: ['alice'] });
    ui = await openUi(t);
  });
  after(async () => {
    await ui.close();
    await t.stop();
  });

  it('is asked for with --smoke, wherever it is among the arguments', () => {
    assert.equal(isSmokeRun(['/usr/bin/electron', '--no-sandbox', '/src/hearth', '--smoke']), true);
    assert.equal(isSmokeRun(['C:\\Program Files\\Hearth\\Hearth.exe', '--smoke']), true);
    assert.equal(isSmokeRun(['/usr/bin/electron', '/src/hearth']), false);
  });

  it('passes once the window shows the UI from the hub and the hub answers its version', async () => {
    // What the app window does: the login handoff, then the React UI.
    const navigation = ui.page.goto(loginUrl(t.hub));
    const { run, outcome } = smokeRun();
    await checkDesktop(run, browserPage(ui.page, navigation), t.hub.baseUrl);
    const o = await outcome;
    assert.equal(o.code, 0, o.line);
    assert.equal(o.line, `Hearth smoke test passed: the window shows the UI from ${new URL(t.hub.baseUrl).origin}, and the hub answers version 10.3.43`);
    assert.ok((await ui.page.locator('#root').innerText()).length > 0);
  });

  it('fails when the window cannot load the page, naming why', async () => {
    const { run, outcome } = smokeRun();
    await checkDesktop(run, stubPage({ loaded: () => Promise.reject(new Error('the window could not load http://127.0.0.1:9/: ERR_CONNECTION_REFUSED (-102)')) }), t.hub.baseUrl);
    assert.deepEqual(await outcome, { code: 1, line: 'Hearth smoke test failed: the window could not load http://127.0.0.1:9/: ERR_CONNECTION_REFUSED (-102)' });
  });

  it('fails when the window shows something other than the hub, or a page without the UI', async () => {
    const elsewhere = smokeRun();
    await checkDesktop(elsewhere.run, stubPage({ url: () => 'https://example.org/' }), t.hub.baseUrl);
    assert.deepEqual(await elsewhere.outcome, { code: 1, line: `Hearth smoke test failed: the window shows https://example.org/, not the hub at ${t.hub.baseUrl}` });

    // The hub's own "UI not built" page has no React root.
    const noUi = smokeRun();
    await checkDesktop(noUi.run, stubPage({ url: () => `${t.hub.baseUrl}/`, evaluate: async <T>() => -1 as T }), t.hub.baseUrl);
    assert.match((await noUi.outcome).line, /^Hearth smoke test failed: the hub served no UI at .* \(is the renderer built\?\)$/);
  });

  it('fails when the hub does not answer its version', async () => {
    const broken: Server = await new Promise((resolve) => {
      const s = createServer((_req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('boom')).listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(broken.address() as { port: number }).port}`;
    try {
      const { run, outcome } = smokeRun();
      await checkDesktop(run, stubPage({ url: () => `${base}/` }), base);
      assert.deepEqual(await outcome, { code: 1, line: 'Hearth smoke test failed: /api/z/1.0/version answered 500: boom' });
    } finally {
      broken.close();
    }
  });

  it('fails at its deadline, naming what it was still waiting for', async () => {
    const { run, outcome } = smokeRun(200);
    // The UI never renders.
    void checkDesktop(run, stubPage({ url: () => `${t.hub.baseUrl}/`, evaluate: async <T>() => 0 as T }), t.hub.baseUrl, { pollMs: 10 });
    assert.deepEqual(await outcome, { code: 1, line: 'Hearth smoke test failed: timed out after 0.2 s waiting for the UI to render' });
    const early = smokeRun(100);
    assert.deepEqual(await early.outcome, { code: 1, line: 'Hearth smoke test failed: timed out after 0.1 s waiting for Hearth to start' });
  });

  it('keeps the first outcome', async () => {
    const { run, outcome } = smokeRun();
    run.fail('first');
    run.pass('second');
    assert.deepEqual(await outcome, { code: 1, line: 'Hearth smoke test failed: first' });
    assert.equal(run.finished, true);
  });
});
