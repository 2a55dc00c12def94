import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ActorUrlTestRun } from 'activitypub-testing/test-actor';
import { startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';

/** What the checks say along the way (which inputs they truncate, which tests they skip): kept for a failure's message. */
function quietConsole(lines: string[]): Console {
  const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  return { ...console, log: keep, info: keep, debug: keep, warn: keep, error: keep };
}

/** Checks that must pass for a channel (a Person with an inbox, an outbox and the social collections). */
const MUST_PASS = [
  'actor-must-serve-as2-object-to-get',
  'actor-objects-must-have-inbox-outbox-properties',
  'inbox-must-be-an-orderedcollection',
  'outbox-must-be-an-orderedcollection',
  'followers-collection-must-be-a-collection',
  'following-collection-must-be-a-collection',
];

describe('activitypub-testing: its actor checks pass against a federating channel', () => {
  let t: TestHub;
  const results = new Map<string, { outcome: string; info?: string }>();
  const said: string[] = [];
  before(async () => {
    t = await startFederatingHub(['alice']);
    const run = new ActorUrlTestRun(new URL(`${t.url}/channel/alice`), { console: quietConsole(said) });
    for await (const assertion of run) {
      const result = assertion.result as { outcome: string; info?: string };
      results.set(assertion.test.slug, { outcome: result.outcome, info: result.info });
    }
  });
  after(() => t.stop());

  const report = () => [...results].map(([slug, r]) => `${r.outcome} ${slug}${r.info ? `: ${r.info}` : ''}`).join('\n') + `\n${said.join('\n')}`;

  it('runs its checks and none fails', () => {
    assert.ok(results.size >= MUST_PASS.length, report());
    for (const [slug, r] of results) assert.ok(r.outcome === 'passed' || r.outcome === 'inapplicable', `${slug}: ${r.outcome}\n${report()}`);
  });

  it('every check that applies to a channel passes: the actor document, its inbox, outbox, followers and following', () => {
    for (const slug of MUST_PASS) assert.equal(results.get(slug)?.outcome, 'passed', `${slug}\n${report()}`);
  });

  it("the client-to-server checks (posting to the outbox) do not apply: the outbox answers 405, Hearth's clients use its own APIs", () => {
    const c2s = [...results].filter(([slug]) => slug.includes('outbox-post') || slug.startsWith('post-outbox') || slug.startsWith('create-then-update') || slug.startsWith('outbox-wraps'));
    assert.ok(c2s.length > 0, report());
    for (const [slug, r] of c2s) assert.equal(r.outcome, 'inapplicable', `${slug}\n${report()}`);
  });
});
