import { test, before, after } from 'node:test';
import { assertAllPassed, missingPython, runPythonScenario, startClientHub, type ClientHub } from '../helpers/client-hub.js';
import { runTwitterNpmScenario } from '../clients/twitter-npm-scenario.js';
import { NPM_CALLS, TWEEPY_CALLS, TWYTHON_CALLS } from '../clients/required-calls.js';

/**
 * Maintained Twitter v1.1 libraries, unchanged, against a hub over plain http: Debian's tweepy and
 * twython (test/clients/*_scenario.py, run with /usr/bin/python3) and the npm `twitter` package.
 * Each call the scenario makes is listed in the test's diagnostics.
 */
let h: ClientHub;
before(async () => {
  h = await startClientHub({ https: false });
});
after(() => h.stop());

test('tweepy: OAuth (PIN and callback) and every v1.1 call of the scenario, over http', { timeout: 180_000, skip: missingPython('tweepy') }, async (t) => {
  assertAllPassed(await runPythonScenario(h, 'tweepy', 'tweepyplain'), TWEEPY_CALLS, (l) => t.diagnostic(l));
});

test('twython: OAuth (PIN and callback) and every v1.1 call of the scenario, over http', { timeout: 180_000, skip: missingPython('twython') }, async (t) => {
  assertAllPassed(await runPythonScenario(h, 'twython', 'twythonplain'), TWYTHON_CALLS, (l) => t.diagnostic(l));
});

test('npm twitter: every v1.1 call of the scenario, over http', { timeout: 180_000 }, async (t) => {
  assertAllPassed(await runTwitterNpmScenario(h, 'npmplain'), NPM_CALLS, (l) => t.diagnostic(l));
});
