import { setFederation } from '../../server/federation/settings.js';
import { startHub, type TestHub } from './hub.js';
import type { HubOptions } from '../../server/hub.js';
import { passwordToken, registerApp } from '../../server/services/oauth2.js';
import { bearerFetch } from './mastodon.js';

/** HEARTH_FEDERATION_INSECURE=1 for the tests' hubs: http and 127.0.0.1 addresses. Read at each use. */
export function allowInsecureFederation(): void {
  process.env.HEARTH_FEDERATION_INSECURE = '1';
}

/** A hub on 127.0.0.1 with federation on at its own (http) address, with these channels. */
export async function startFederatingHub(channels: string[], opts: { options?: Partial<HubOptions>; dataDir?: string } = {}): Promise<TestHub> {
  allowInsecureFederation();
  const t = await startHub({ channels, ...opts });
  const result = setFederation(t.hub.db, true, t.url);
  if (result.problem) throw new Error(result.problem);
  await t.hub.federation.restart();
  if (!t.hub.federation.state().running) throw new Error(`federation did not start: ${t.hub.federation.state().problem}`);
  return t;
}

/** A Mastodon API client of one channel of a hub (a token made directly, every scope). */
export function mastodonClient(t: TestHub, nick: string) {
  const app = registerApp(t.hub.db, { name: `fed-${nick}`, redirectUris: ['urn:ietf:wg:oauth:2.0:oob'], scopes: 'read write follow push', website: '' });
  const token = passwordToken(t.hub.db, app, t.channels[nick]!, 'read write follow push').token;
  const call = bearerFetch(t, token);
  return {
    token,
    async get<T = any>(path: string): Promise<T> {
      const r = await call(path);
      const text = await r.text();
      if (!r.ok) throw new Error(`GET ${path}: ${r.status} ${text}`);
      return JSON.parse(text) as T;
    },
    async post<T = any>(path: string, json?: unknown): Promise<T> {
      const r = await call(path, { method: 'POST', json: json ?? {} });
      const text = await r.text();
      if (!r.ok) throw new Error(`POST ${path}: ${r.status} ${text}`);
      return JSON.parse(text) as T;
    },
    raw: call,
  };
}

/** Waits until `check` returns something truthy (polling), or fails after the timeout. */
export async function eventually<T>(what: string, check: () => T | Promise<T>, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits until the hub's federation queue is empty: every delivery queued so far was made (or
 * given up). Call it once the first delivery of an activity arrived, to see where else it went.
 */
export async function deliveriesSettled(t: TestHub): Promise<void> {
  let quiet = 0;
  await eventually('the federation queue empty', () => {
    const n = (t.hub.db.prepare('SELECT count(*) AS n FROM fed_queue').get() as { n: number }).n;
    quiet = n === 0 ? quiet + 1 : 0;
    return quiet >= 5;
  });
}

/**
 * Waits until the hub's federation queue is empty: every activity its inboxes took has been
 * handled, every delivery sent (or given up). What was not stored by then never will be.
 */
export async function queueSettled(t: TestHub, timeoutMs = 10_000): Promise<void> {
  await eventually('the federation queue empty', () => (t.hub.db.prepare('SELECT count(*) FROM fed_queue WHERE ready_at <= ?').pluck().get(Date.now()) as number) === 0, timeoutMs);
}

/** A Create of a public Note as a remote server writes it (JSON), for tests that sign by hand. */
export function createNoteJson(actor: string, o: { id: string; noteId: string; content: string; attributedTo?: string; to?: string[]; cc?: string[] }): Record<string, unknown> {
  const to = o.to ?? ['https://www.w3.org/ns/activitystreams#Public'];
  const cc = o.cc ?? [`${actor}/followers`];
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: o.id,
    type: 'Create',
    actor,
    to,
    cc,
    object: { id: o.noteId, type: 'Note', attributedTo: o.attributedTo ?? actor, content: o.content, to, cc, published: new Date().toISOString() },
  };
}
