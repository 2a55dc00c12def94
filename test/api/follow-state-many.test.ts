import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHub, type TestHub } from '../helpers/hub.js';
import { call as compat } from '../helpers/compat.js';
import { bearerFetch, mastodonToken } from '../helpers/mastodon.js';
import { webLogin } from '../helpers/web-session.js';
import { insertItem, ITEM_DEFAULTS, updateItem } from '../../server/store/items.js';
import { insertConnection, updateConnection } from '../../server/store/connections.js';
import { putFedFollow, setFedFollowAccepted, upsertRemoteActor } from '../../server/store/federation.js';
import { DEFAULT_CONNECTION_PERMS } from '../../server/services/connections.js';
import { itemRendering } from '../../server/services/item-html.js';
import { OBJ, VERB } from '../../server/services/verbs.js';
import { uuid } from '../../server/util/ids.js';
import { toDbDate } from '../../server/util/time.js';
import type { ChannelRow } from '../../server/store/rows.js';

/**
 * Whom a channel follows decides its home timeline and its friend count. With hundreds of
 * connections in every state (following and accepted, following and waiting for the server
 * elsewhere, following with no record of a remote follow, followed only, blocked, asked for), the
 * answers are exactly those the follow rules give, and they follow every change of state: a
 * remote Accept, a block, a local channel approving a request, an unfollow.
 */

const PEOPLE = 300;
/** What alice's record of person i is. */
const STATES = ['accepted', 'awaiting', 'no-remote-record', 'follows-her', 'blocked', 'asks'] as const;
type State = (typeof STATES)[number];
const stateOf = (i: number): State => STATES[i % STATES.length]!;

let t: TestHub;
let alice: ChannelRow;
const masto: Record<string, ReturnType<typeof bearerFetch>> = {};
const actor = (i: number) => `https://remote${i % 7}.example/users/p${i}`;
const abookIds = new Map<number, number>();

/** Two posts by each person elsewhere, received (and stored) for alice, one second apart. */
function seedPeople() {
  const db = t.hub.db;
  const now = toDbDate(new Date()).replace('T', ' ');
  let second = 0;
  db.transaction(() => {
    for (let i = 0; i < PEOPLE; i++) {
      const id = actor(i);
      upsertRemoteActor(db, {
        id, address: `p${i}@remote${i % 7}.example`, name: `Person ${i}`, url: id, icon: '', publicKeyPem: '', inbox: `${id}/inbox`,
        sharedInbox: `https://remote${i % 7}.example/inbox`, followers: `${id}/followers`, keyId: `${id}#main-key`, manuallyApproves: false,
      }, now);
      const state = stateOf(i);
      const follows = state === 'accepted' || state === 'awaiting' || state === 'no-remote-record' || state === 'blocked';
      const abook = insertConnection(db, {
        account: alice.channel_account_id, channel: alice.channel_id, xchan: id, pending: state === 'asks', unconnected: !follows,
        myPerms: DEFAULT_CONNECTION_PERMS, theirPerms: DEFAULT_CONNECTION_PERMS,
      });
      abookIds.set(i, abook);
      if (state === 'blocked') updateConnection(db, abook, { abook_blocked: 1 });
      if (state === 'accepted' || state === 'blocked') putFedFollow(db, { channelId: alice.channel_id, actor: id, direction: 'out', activityId: `https://hub.example/follows/${i}`, accepted: true });
      if (state === 'awaiting') putFedFollow(db, { channelId: alice.channel_id, actor: id, direction: 'out', activityId: `https://hub.example/follows/${i}`, accepted: false });
      if (state === 'follows-her' || state === 'asks') putFedFollow(db, { channelId: alice.channel_id, actor: id, direction: 'in', activityId: `${id}/follows/alice`, accepted: true });
      for (let n = 0; n < 2; n++) {
        const created = toDbDate(new Date(Date.now() - 3_600_000 + ++second * 1000));
        const mid = `${id}/statuses/${n}`;
        const item = insertItem(db, {
          ...ITEM_DEFAULTS, uid: alice.channel_id, aid: alice.channel_account_id, uuid: uuid(), mid, parent_mid: mid, thr_parent: mid,
          created, edited: created, commented: created, received: created, changed: created, owner_xchan: id, author_xchan: id,
          body: `<p>fs-p${i}-n${n}</p>`, mimetype: 'text/html', ...itemRendering(db, `<p>fs-p${i}-n${n}</p>`, 'text/html'), verb: VERB.POST, obj_type: OBJ.NOTE, item_origin: 0, item_thread_top: 1, item_verified: 1, plink: mid, llink: mid,
        });
        updateItem(db, item, { parent: item });
      }
    }
  })();
}

async function mastodon(as: string, path: string, method = 'GET') {
  const res = await masto[as]!(path, { method });
  const body = await res.json();
  assert.equal(res.status, 200, `${method} ${path} as ${as}: ${JSON.stringify(body)}`);
  return body;
}

/** The markers of every post of alice's Mastodon home timeline, page by page (max_id). */
async function mastodonHome(): Promise<string[]> {
  const out: string[] = [];
  let max = '';
  for (;;) {
    const page = (await mastodon('alice', `/api/v1/timelines/home?limit=40${max ? `&max_id=${max}` : ''}`)) as { id: string; content: string }[];
    if (!page.length) return out;
    out.push(...page.map((s) => /fs-[\w-]+/.exec(s.content)?.[0] ?? s.content));
    max = page.at(-1)!.id;
  }
}

/** The same through the microblog API's home_timeline (count 200, max_id). */
async function compatHome(): Promise<string[]> {
  const out: string[] = [];
  let max = '';
  for (;;) {
    const r = await compat(t, `/api/statuses/home_timeline.json?count=200${max ? `&max_id=${max}` : ''}`, { as: 'alice' });
    assert.equal(r.status, 200, r.text);
    const page = (r.body as { id: number; text: string }[]).filter((s) => String(s.id) !== max);
    if (!page.length) return out;
    out.push(...page.map((s) => /fs-[\w-]+/.exec(s.text)?.[0] ?? s.text));
    max = String(page.at(-1)!.id);
  }
}

/** What alice's home timeline must hold, newest first: her own post, bob's, and the people's in `shown`. */
function expected(shown: (i: number) => boolean, locals: string[]): string[] {
  const people: string[] = [];
  for (let i = 0; i < PEOPLE; i++) if (shown(i)) people.push(`fs-p${i}-n0`, `fs-p${i}-n1`);
  return [...locals, ...people.reverse()];
}

async function friends(): Promise<{ count: number; ids: number }> {
  const me = await compat(t, '/api/account/verify_credentials.json', { as: 'alice' });
  assert.equal(me.status, 200, me.text);
  const ids = await compat(t, `/api/friends/ids.json?screen_name=alice&cursor=-1&count=5000`, { as: 'alice' });
  assert.equal(ids.status, 200, ids.text);
  return { count: me.body.friends_count, ids: (ids.body as { ids: unknown[] }).ids.length };
}

async function assertHome(shown: (i: number) => boolean, locals: string[], friendsCount: number, what: string) {
  const want = expected(shown, locals);
  assert.deepEqual(await mastodonHome(), want, `Mastodon home, ${what}`);
  assert.deepEqual(await compatHome(), want, `microblog home_timeline, ${what}`);
  assert.deepEqual(await friends(), { count: friendsCount, ids: friendsCount }, `friends, ${what}`);
}

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  alice = t.channels.alice!;
  const session = await webLogin(t, 'alice');
  for (const nick of ['alice', 'bob', 'carol']) masto[nick] = bearerFetch(t, await mastodonToken(t, session, { channel: nick }));
  seedPeople();
});
after(() => t?.stop());

test('a home timeline and friend count with hundreds of connections in every state follow the follow rules and every change', async () => {
  const id = async (nick: string) => ((await mastodon(nick, '/api/v1/accounts/verify_credentials')) as { id: string }).id;
  const [bobId, carolId, aliceId] = [await id('bob'), await id('carol'), await id('alice')];
  // carol approves followers by hand: alice's follow of her waits.
  const locked = await compat(t, '/api/account/settings.json', { as: 'carol', form: { protected: 'true' } });
  assert.equal(locked.status, 200, locked.text);
  await mastodon('alice', `/api/v1/accounts/${bobId}/follow`, 'POST');
  await mastodon('alice', `/api/v1/accounts/${carolId}/follow`, 'POST');
  for (const nick of ['carol', 'bob', 'alice']) {
    const res = await masto[nick]!('/api/v1/statuses', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: `fs-${nick}` }) });
    assert.equal(res.status, 200, await res.text());
  }
  const followed = (i: number) => stateOf(i) === 'accepted' || stateOf(i) === 'no-remote-record';
  const perState = PEOPLE / STATES.length;
  await assertHome(followed, ['fs-alice', 'fs-bob'], 2 * perState + 1, 'as seeded');

  // The servers elsewhere accept the waiting follows.
  t.hub.db.transaction(() => {
    for (let i = 0; i < PEOPLE; i++) if (stateOf(i) === 'awaiting') setFedFollowAccepted(t.hub.db, alice.channel_id, actor(i), 'out');
  })();
  const accepted = (i: number) => followed(i) || stateOf(i) === 'awaiting';
  await assertHome(accepted, ['fs-alice', 'fs-bob'], 3 * perState + 1, 'after the remote Accepts');

  // carol approves alice's request: carol's post joins the stream.
  await mastodon('carol', `/api/v1/follow_requests/${aliceId}/authorize`, 'POST');
  await assertHome(accepted, ['fs-alice', 'fs-bob', 'fs-carol'], 3 * perState + 2, 'after carol approved');

  // alice blocks person 0 and unfollows bob.
  updateConnection(t.hub.db, abookIds.get(0)!, { abook_blocked: 1 });
  await mastodon('alice', `/api/v1/accounts/${bobId}/unfollow`, 'POST');
  await assertHome((i) => i !== 0 && accepted(i), ['fs-alice', 'fs-carol'], 3 * perState, 'after a block and an unfollow');
});
