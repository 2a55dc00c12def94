import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../server/db/open.js';
import { scratchDatabase } from '../helpers/scratch-db.js';
import { followStates, type FollowState } from '../../server/store/social-graph.js';
import { peopleFacts } from '../../server/store/user-facts.js';

/*
 * The follow state between a channel and someone is worked out in SQL (one query for a page's
 * people). Every combination of the two connection records, and for people elsewhere of the
 * ActivityPub follows, is checked against the rules written out here in plain code: the channel's
 * follow counts when its record is connected and unblocked, and is accepted when their record
 * (a channel of this hub) is neither pending nor blocked, or when no follow of theirs waits for an
 * Accept (people elsewhere).
 */

interface Rec {
  unconnected: number;
  pending: number;
  ignored: number;
  blocked: number;
}

const VIEWER = { uid: 1, hash: 'viewer-hash' };
const LOCAL = { uid: 2, hash: 'local-hash' };
const REMOTE = 'https://elsewhere.example/users/someone';

function expected(m: Rec | undefined, t: Rec | undefined, local: boolean, outWaits: boolean, inFollows: boolean): FollowState {
  const iFollow = m !== undefined && m.unconnected === 0 && m.blocked === 0;
  const theyAccept = local ? t !== undefined && t.pending === 0 && t.blocked === 0 : !outWaits;
  const theyFollow = local ? t !== undefined && t.unconnected === 0 && t.blocked === 0 : inFollows;
  return {
    following: iFollow && theyAccept,
    requested: iFollow && (local ? t !== undefined && t.pending === 1 && t.blocked === 0 : outWaits),
    followedBy: theyFollow && m !== undefined && m.pending === 0 && m.blocked === 0,
    requestedBy: m !== undefined && m.pending === 1 && m.blocked === 0 && m.ignored === 0,
  };
}

const records: (Rec | undefined)[] = [undefined];
for (let bits = 0; bits < 16; bits++) records.push({ unconnected: bits & 1, pending: (bits >> 1) & 1, ignored: (bits >> 2) & 1, blocked: (bits >> 3) & 1 });

const scratch = scratchDatabase('follow-state');
let db: Db;

before(() => {
  db = scratch();
  const channel = db.prepare('INSERT INTO channel (channel_id, channel_account_id, channel_address, channel_hash) VALUES (?, 1, ?, ?)');
  channel.run(VIEWER.uid, 'viewer', VIEWER.hash);
  channel.run(LOCAL.uid, 'local', LOCAL.hash);
  for (const hash of [VIEWER.hash, LOCAL.hash, REMOTE]) db.prepare('INSERT INTO xchan (xchan_hash, xchan_name) VALUES (?, ?)').run(hash, hash);
});

function setRecord(channelId: number, xchan: string, r: Rec | undefined): void {
  db.prepare('DELETE FROM abook WHERE abook_channel = ? AND abook_xchan = ?').run(channelId, xchan);
  if (r) {
    db.prepare('INSERT INTO abook (abook_channel, abook_xchan, abook_unconnected, abook_pending, abook_ignored, abook_blocked) VALUES (?, ?, ?, ?, ?, ?)')
      .run(channelId, xchan, r.unconnected, r.pending, r.ignored, r.blocked);
  }
}

function check(target: string, want: FollowState, label: string): void {
  assert.deepEqual(followStates(db, VIEWER.uid, VIEWER.hash, [target]).get(target), want, `followStates, ${label}`);
  const [person] = peopleFacts(db, VIEWER, [target]);
  assert.deepEqual({ following: person!.following, requested: person!.requested }, { following: want.following, requested: want.requested }, `peopleFacts, ${label}`);
}

test('a channel of this hub: every pair of connection records', () => {
  for (const m of records) {
    for (const t of records) {
      setRecord(VIEWER.uid, LOCAL.hash, m);
      setRecord(LOCAL.uid, VIEWER.hash, t);
      check(LOCAL.hash, expected(m, t, true, false, false), `mine ${JSON.stringify(m)}, theirs ${JSON.stringify(t)}`);
    }
  }
});

test('people elsewhere: every record of the channel with each state of the ActivityPub follows', () => {
  const follow = db.prepare("INSERT INTO fed_follow (channel_id, actor, direction, activity_id, accepted) VALUES (?, ?, ?, ?, ?)");
  for (const m of records) {
    for (const out of ['none', 'waiting', 'accepted'] as const) {
      for (const inFollows of [false, true]) {
        setRecord(VIEWER.uid, REMOTE, m);
        db.prepare('DELETE FROM fed_follow').run();
        if (out !== 'none') follow.run(VIEWER.uid, REMOTE, 'out', 'https://hub.example/follow/1', out === 'accepted' ? 1 : 0);
        if (inFollows) follow.run(VIEWER.uid, REMOTE, 'in', `${REMOTE}/follow/1`, 1);
        check(REMOTE, expected(m, undefined, false, out === 'waiting', inFollows), `mine ${JSON.stringify(m)}, out ${out}, in ${inFollows}`);
      }
    }
  }
});

test('the viewer itself has no follow state, and an anonymous viewer follows no one', () => {
  setRecord(VIEWER.uid, LOCAL.hash, { unconnected: 0, pending: 0, ignored: 0, blocked: 0 });
  setRecord(LOCAL.uid, VIEWER.hash, { unconnected: 0, pending: 0, ignored: 0, blocked: 0 });
  assert.equal(followStates(db, VIEWER.uid, VIEWER.hash, [VIEWER.hash]).size, 0);
  const [anonymous] = peopleFacts(db, undefined, [LOCAL.hash]);
  assert.deepEqual({ following: anonymous!.following, requested: anonymous!.requested, abookId: anonymous!.abookId }, { following: false, requested: false, abookId: undefined });
});
