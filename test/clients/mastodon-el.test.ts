import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connect } from '../../server/services/connections.js';
import { createItem, setActivity } from '../../server/services/items.js';
import { VERB } from '../../server/services/verbs.js';
import type { ChannelRow } from '../../server/store/rows.js';
import { basic, startHub, type TestHub } from '../helpers/hub.js';
import { approveOnPage } from '../helpers/mastodon.js';
import { getJson } from '../helpers/media.js';
import { selfSignedCert, startTlsProxy, type TlsProxy } from '../helpers/tls-proxy.js';
import { webLogin, type WebSession } from '../helpers/web-session.js';

/**
 * Debian's elpa-mastodon (mastodon.el), unchanged, in Emacs (emacs-gtk) in batch mode
 * (test/clients/mastodon_el_scenario.el), against a hub behind a TLS proxy whose certificate,
 * made for the test, Emacs trusts through its own setting (gnutls-trustfiles). Over plain http
 * mastodon.el 0.10 shows no timeline: it draws one only when url.el's callback gets a status
 * list, and url.el fills that list only for TLS connections (with the peer's certificate). It
 * registers itself and asks for the code of the authorize page, which the owner approves; then
 * it reads home to its end (paging with max_id as it does), posts a toot, replies to and
 * favourites a stranger's public post (carol's; alice does not follow her) from the local
 * timeline, follows an unlocked channel (dave) and shows the notifications. Each step is a
 * subtest judged on what the client showed; a failed one shows what the client said.
 */
/** An Emacs with image support: mastodon.el 0.10 cannot open its compose buffer in emacs-nox (no image-transforms-p). */
const EMACS = '/usr/bin/emacs-gtk';
const missing = (() => {
  if (!existsSync(EMACS)) return 'emacs-gtk is not installed (apt-get install emacs-gtk)';
  if (!existsSync('/usr/share/emacs/site-lisp/elpa-src') || !existsSync('/usr/share/doc/elpa-mastodon')) return 'elpa-mastodon is not installed (apt-get install elpa-mastodon)';
  return false;
})();
const SCRIPT = join(import.meta.dirname, 'mastodon_el_scenario.el');

/** Bob's notes on alice's home: more than two of the client's pages of 20. */
const BOBS_NOTES = 45;
const STRANGERS_POST = 'Anyone know a good bakery near the station?';

let t: TestHub;
/** The hub at its own http address, for the test's side of things (the owner's browser, checks). */
let direct: TestHub;
let proxy: TlsProxy;
let session: WebSession;
let home: string;
let caFile: string;

before(async () => {
  if (missing) return;
  // A user's own Emacs directory, where the client keeps its app and token (mastodon.plstore).
  home = await mkdtemp(join(tmpdir(), 'hearth-emacs-'));
  await mkdir(join(home, '.emacs.d'));
  const cert = await selfSignedCert(home);
  caFile = cert.certFile;
  proxy = await startTlsProxy(cert);
  t = await startHub({ channels: ['alice', 'bob', 'carol', 'dave'], options: { baseUrl: `https://127.0.0.1:${proxy.port}`, trustProxy: true } });
  proxy.target = t.hub.port;
  const url = `http://127.0.0.1:${t.hub.port}`;
  direct = {
    ...t,
    url,
    request: (path, init = {}) => {
      const { as, password, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (as) headers.set('authorization', basic(as, password));
      return fetch(url + path, { ...rest, headers });
    },
  };
  const { alice, bob, carol, dave } = t.channels as Record<string, ChannelRow>;
  connect(t.hub, alice!, bob!.channel_hash);
  connect(t.hub, bob!, alice!.channel_hash);
  // Alice's own post comes first, so that the last page of her home ends at the hub's first status.
  const mine = createItem(t.hub, alice!, { body: 'Tea in the garden this afternoon?' });
  for (let i = 1; i <= BOBS_NOTES; i++) createItem(t.hub, bob!, { body: `Bob's note number ${i}` });
  createItem(t.hub, bob!, { body: 'Count me in!', parentId: mine.id });
  setActivity(t.hub, bob!, mine.id, VERB.LIKE, true);
  createItem(t.hub, carol!, { body: STRANGERS_POST });
  createItem(t.hub, dave!, { body: 'Sourdough starter for anyone who wants one' });
  session = await webLogin(direct, 'alice');
});
after(async () => {
  if (missing) return;
  await t?.stop();
  await proxy?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

interface StepLine {
  step: string;
  ok: boolean;
  error?: string;
  said: string[];
  [k: string]: unknown;
}

test('mastodon.el logs in, reads home, toots, replies, favourites, follows, reads notifications', { skip: missing, timeout: 90_000 }, async (tc) => {
  const steps = new Map<string, StepLine>();
  let stderr = '';
  let approving: Promise<void> | undefined;
  const child = spawn(EMACS, ['--batch', '-l', SCRIPT], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'dumb', HUB_URL: `https://127.0.0.1:${proxy.port}`, CA_FILE: caFile, HUB_USER: 'alice', STRANGER: 'carol', FOLLOW: 'dave' },
  });
  child.stderr.on('data', (d) => (stderr += d));
  // A client stuck on a question nobody answers in batch mode is stopped; its steps say the rest.
  const stuck = setTimeout(() => child.kill(), 60_000);
  createInterface({ input: child.stdout }).on('line', (text) => {
    const clip = /^CLIPBOARD (\S+)$/.exec(text);
    if (clip) {
      // The user opens the copied URL, logs in, approves, and pastes the code at the prompt.
      approving = (async () => {
        const url = new URL(clip[1]!);
        assert.match(url.pathname, /^\/oauth\/authorize\/?$/);
        const code = await approveOnPage(session, { client_id: url.searchParams.get('client_id')!, client_secret: '' }, {
          channel: 'alice', scope: url.searchParams.get('scope')!, redirect: url.searchParams.get('redirect_uri')!,
        });
        child.stdin.end(`${code}\n`);
      })();
      approving.catch(() => child.stdin.end('\n'));
      return;
    }
    const step = /STEP (\{.*\})$/.exec(text);
    if (step) {
      const line = JSON.parse(step[1]!) as StepLine;
      steps.set(line.step, line);
    }
  });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  clearTimeout(stuck);
  const refused = await approving?.then(() => undefined, (err: Error) => err);
  if (refused) tc.diagnostic(`the owner could not approve on the authorize page: ${refused.message}`);
  tc.diagnostic(`emacs exited with ${code}`);

  const step = (name: string, check: (line: StepLine) => Promise<void> | void) =>
    tc.test(name, async (st) => {
      const line = steps.get(name);
      assert.ok(line, `the scenario reported no "${name}" step; emacs said:\n${stderr.slice(-3000)}`);
      st.diagnostic(JSON.stringify(line).slice(0, 3000));
      assert.equal(line.ok, true, `${name}: ${line.error}\nthe client said: ${line.said.join(' | ')}`);
      await check(line);
    });

  await step('login', (line) => assert.equal(line.acct, 'alice'));

  await step('home', (line) => {
    const toots = line.toots as { id: string; text: string }[];
    const ids = toots.map((s) => s.id);
    const twice = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    assert.deepEqual(twice, [], `no toot is shown twice (${ids.length} shown)`);
    assert.equal(line.ended, true, 'the client reaches the end of home');
    const notes = toots.map((s) => /^Bob's note number (\d+)$/.exec(s.text)?.[1]).filter((n) => n !== undefined);
    assert.deepEqual(notes.map(Number).sort((a, b) => a - b), Array.from({ length: BOBS_NOTES }, (_, i) => i + 1), "every one of bob's notes is on home");
  });

  await step('toot', async (line) => {
    assert.equal(line.sent, true, `the client sent the toot (it said: ${line.said.join(' | ')})`);
    const mine = await getJson(direct, '/api/statuses/user_timeline.json?screen_name=alice', { as: 'alice' });
    assert.ok((mine.body as { text: string }[]).some((s) => s.text === 'Hello from Emacs'), "the toot is among alice's statuses");
  });

  await step('reply', async (line) => {
    assert.match(String(line.prefilled), /^@carol(@\S+)?\s+$/, 'the client starts the reply with the author\'s handle');
    assert.equal(line.sent, true, `the client sent the reply (it said: ${line.said.join(' | ')})`);
    const ctx = await fetch(`${direct.url}/api/v1/statuses/${line.parent}/context`);
    const descendants = ((await ctx.json()) as { descendants?: { content: string; account: { acct: string } }[] }).descendants ?? [];
    assert.ok(descendants.some((s) => s.account.acct === 'alice' && /The one on Mill Lane is lovely/.test(s.content)), 'the reply is under carol\'s post');
  });

  await step('favourite', (line) => {
    assert.equal(line.marked, true, `the client marks the toot (F) (it said: ${line.said.join(' | ')})`);
    assert.equal(line.favourited_on_reload, true, 'still favourited when the timeline is read again');
  });

  await step('follow', (line) => {
    assert.ok(line.said.some((m) => /User Dave \(@dave\) followed!/.test(m)), 'the client says dave is followed');
    // mastodon.el names the relationship `following` "FOLLOWED BY YOU".
    assert.match(String(line.profile), /FOLLOWED BY YOU/, 'dave\'s profile says alice follows him');
  });

  await step('notifications', (line) => {
    const text = String(line.text);
    assert.match(text, /Count me in!/, "bob's reply to alice's post");
    assert.match(text, /Favourited your status from/, "bob's like of alice's post");
  });
});
