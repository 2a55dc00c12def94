import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { registerMastodonApp, type MastodonApp } from '../helpers/mastodon.js';

// Finding 17 of the security review: what an attacker measures is the time to the answer. A wrong
// password for a name that exists must take as long to refuse as any password for a name that does
// not, on every way of logging in; else anybody can list the hub's nicknames and email addresses.

let t: TestHub;
let app: MastodonApp;
before(async () => {
  // The throttle would stop the many tries an attacker spreads over days; here they come at once.
  t = await startHub({ channels: ['alice'], options: { throttle: { maxFailures: 1_000_000 } } });
  app = await registerMastodonApp(t, { scopes: 'read' });
});
after(() => t.stop());

const WRONG = 'not the password';

/** One refused login by each way of logging in, as an attacker would send it. */
const attempts: Record<string, { refused: number; send: (login: string) => Promise<Response> }> = {
  'HTTP Basic, native API': { refused: 401, send: (login) => fetch(`${t.url}/api/z/1.0/verify`, { headers: { authorization: basic(login, WRONG) } }) },
  'HTTP Basic, microblog API': { refused: 401, send: (login) => fetch(`${t.url}/api/account/verify_credentials.json`, { headers: { authorization: basic(login, WRONG) } }) },
  'web login form': {
    refused: 401,
    send: (login) => fetch(`${t.url}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams({ login, password: WRONG }) }),
  },
  'OAuth 2 password grant': {
    refused: 400,
    send: (login) =>
      fetch(`${t.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: login, password: WRONG, scope: 'read' }),
      }),
  },
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Milliseconds to the end of the answer, which must be the refusal. */
async function timed(send: () => Promise<Response>, refused: number): Promise<number> {
  const start = performance.now();
  const res = await send();
  await res.arrayBuffer();
  const ms = performance.now() - start;
  assert.equal(res.status, refused);
  return ms;
}

/**
 * Times to refuse a known and an unknown login, tried alternately (in a varying order): the median
 * of each, and the median of their ratio within a round. A round's two tries come one right after
 * the other, so whatever else loads the machine weighs on both alike.
 */
async function compare(send: (login: string) => Promise<Response>, refused: number, known: string, unknown: string, rounds = 25) {
  for (let i = 0; i < 2; i++) await timed(() => send(known), refused); // warm up connection and code paths
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    const order: ('known' | 'unknown')[] = i % 2 ? ['known', 'unknown'] : ['unknown', 'known'];
    for (const which of order) times[which].push(await timed(() => send(which === 'known' ? known : unknown), refused));
  }
  return {
    known: median(times.known),
    unknown: median(times.unknown),
    ratio: median(times.known.map((k, i) => times.unknown[i]! / k)),
  };
}

for (const [way, { refused, send }] of Object.entries(attempts)) {
  test(`${way}: an unknown name or email is refused as slowly as a known one with a wrong password`, async () => {
    for (const [known, unknown] of [
      ['alice', 'nobody-here'],
      ['alice@example.com', 'nobody@example.org'],
    ] as const) {
      // Other work on the machine can skew one measurement; a leak skews every one.
      const seen: string[] = [];
      let alike = false;
      for (let tries = 0; tries < 3 && !alike; tries++) {
        const m = await compare(send, refused, known, unknown);
        seen.push(`${known}: ${m.known.toFixed(1)} ms, ${unknown}: ${m.unknown.toFixed(1)} ms (medians), unknown/known within a round: ${m.ratio.toFixed(2)} (median)`);
        // A password check takes tens of ms; a refusal without one a few. The margin is wide.
        alike = m.ratio >= 0.7 && m.ratio <= 1 / 0.7;
      }
      assert.ok(alike, `the time to the refusal tells whether ${known} exists:\n${seen.join('\n')}`);
    }
  });
}
