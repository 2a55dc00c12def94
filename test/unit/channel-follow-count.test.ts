import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../server/db/open.js';
import { scratchDatabase, seededRandom } from '../helpers/scratch-db.js';
import { peopleFacts } from '../../server/store/user-facts.js';

/*
 * How many identities a channel follows is kept by triggers (migration 054) and served as the
 * friend count of its user object. After every write of a long random run over the records that
 * decide a follow (connection records and their flags, the ActivityPub follows, channels appearing
 * and going), the kept count must equal the count of accepted follows, channel by channel.
 */

const CHANNELS = [1, 2, 3];
const hashOf = (id: number) => `channel-${id}`;
const REMOTES = ['https://a.example/u/1', 'https://a.example/u/2', 'https://b.example/u/3', 'https://b.example/u/4'];
const PEOPLE = [...CHANNELS.map(hashOf), 'channel-4', ...REMOTES];

const scratch = scratchDatabase('follow-count');
let db: Db;

before(() => {
  db = scratch();
  for (const id of CHANNELS) addChannel(id);
  for (const hash of PEOPLE) db.prepare('INSERT INTO xchan (xchan_hash, xchan_name) VALUES (?, ?)').run(hash, hash);
});

function addChannel(id: number): void {
  db.prepare('INSERT INTO channel (channel_id, channel_account_id, channel_address, channel_hash) VALUES (?, 1, ?, ?)').run(id, `c${id}`, hashOf(id));
}

/** Checks the kept counts; returns how many follows are accepted. */
function expectCounts(step: string): number {
  const counted = new Map(
    (db.prepare('SELECT abook_channel AS id, count(*) AS n FROM abook WHERE abook_follow_accepted = 1 GROUP BY abook_channel').all() as { id: number; n: number }[])
      .map((r) => [r.id, r.n]),
  );
  const kept = new Map((db.prepare('SELECT channel_id AS id, n FROM channel_follow_count').all() as { id: number; n: number }[]).map((r) => [r.id, r.n]));
  for (const id of [...CHANNELS, 4]) assert.equal(kept.get(id) ?? 0, counted.get(id) ?? 0, `channel ${id} after ${step}`);
  return [...counted.values()].reduce((a, b) => a + b, 0);
}

test('the kept follow count equals the accepted follows after every write', () => {
  const pick = seededRandom(20261128);
  const one = <T>(xs: readonly T[]) => xs[pick(xs.length)]!;
  let channel4 = false;
  let most = 0;
  for (let i = 0; i < 1500; i++) {
    const channel = one(CHANNELS);
    const person = one(PEOPLE.filter((p) => p !== hashOf(channel)));
    const kind = pick(9);
    let step: string;
    if (kind <= 2) {
      db.prepare('DELETE FROM abook WHERE abook_channel = ? AND abook_xchan = ?').run(channel, person);
      db.prepare('INSERT INTO abook (abook_channel, abook_xchan, abook_unconnected, abook_pending, abook_blocked) VALUES (?, ?, ?, ?, ?)')
        .run(channel, person, pick(4) === 0 ? 1 : 0, pick(3) === 0 ? 1 : 0, pick(5) === 0 ? 1 : 0);
      step = `a new record of ${person} by ${channel}`;
    } else if (kind === 3) {
      db.prepare('DELETE FROM abook WHERE abook_channel = ? AND abook_xchan = ?').run(channel, person);
      step = `deleting ${channel}'s record of ${person}`;
    } else if (kind === 4) {
      const flag = one(['abook_unconnected', 'abook_pending', 'abook_blocked']);
      db.prepare(`UPDATE abook SET ${flag} = 1 - ${flag} WHERE abook_channel = ? AND abook_xchan = ?`).run(channel, person);
      step = `flipping ${flag} of ${channel}'s record of ${person}`;
    } else if (kind === 5) {
      const to = one(CHANNELS);
      db.prepare('UPDATE OR IGNORE abook SET abook_channel = ? WHERE abook_channel = ? AND abook_xchan = ? AND abook_self = 0').run(to, channel, person);
      step = `moving ${channel}'s record of ${person} to ${to}`;
    } else if (kind <= 7) {
      const actor = one(REMOTES);
      if (pick(3) === 0) db.prepare("DELETE FROM fed_follow WHERE channel_id = ? AND actor = ? AND direction = 'out'").run(channel, actor);
      else {
        db.prepare("INSERT INTO fed_follow (channel_id, actor, direction, activity_id, accepted) VALUES (?, ?, 'out', ?, ?) ON CONFLICT DO UPDATE SET accepted = excluded.accepted")
          .run(channel, actor, `follow-${i}`, pick(2));
      }
      step = `an ActivityPub follow of ${actor} by ${channel}`;
    } else {
      // Channel 4 appears and goes: the records naming it change rules (local or elsewhere).
      if (channel4) db.prepare('DELETE FROM channel WHERE channel_id = 4').run();
      else addChannel(4);
      channel4 = !channel4;
      step = `channel 4 ${channel4 ? 'created' : 'deleted'}`;
    }
    most = Math.max(most, expectCounts(`step ${i}: ${step}`));
  }
  assert.ok(most >= 8, `the run should reach many accepted follows at once (at most ${most})`);
});

test('the friend count of a user object is the kept count', () => {
  for (const id of CHANNELS) {
    const [person] = peopleFacts(db, undefined, [hashOf(id)]);
    const counted = (db.prepare('SELECT count(*) AS n FROM abook WHERE abook_channel = ? AND abook_follow_accepted = 1').get(id) as { n: number }).n;
    assert.equal(person!.friends, counted, `channel ${id}`);
  }
});
