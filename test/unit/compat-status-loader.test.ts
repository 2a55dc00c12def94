import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { startHub, type TestHub } from '../helpers/hub.js';
import { createItem, setActivity } from '../../server/services/items.js';
import { connect } from '../../server/services/connections.js';
import { VERB } from '../../server/services/verbs.js';
import { loadStatuses } from '../../server/services/compat/statuses.js';
import type { ItemRow } from '../../server/store/rows.js';

let t: TestHub;
let executed = 0;

/** Counts statement executions on the hub's database from now on (statements prepared later). */
function countQueries(db: Database.Database): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const s = prepare(sql);
    for (const m of ['all', 'get', 'run', 'iterate'] as const) {
      const orig = (s as any)[m].bind(s);
      (s as any)[m] = (...args: unknown[]) => {
        executed++;
        return orig(...args);
      };
    }
    return s;
  }) as typeof db.prepare;
}

before(async () => {
  t = await startHub({ channels: ['alice', 'bob', 'carol'] });
  const { alice, bob, carol } = t.channels;
  for (const [a, b] of [[alice, bob], [bob, alice], [carol, alice], [alice, carol]] as const) connect(t.hub, a!, b!.channel_hash);
  countQueries(t.hub.db);
});
after(() => t.stop());

function thread(n: number): ItemRow[] {
  const { alice, bob, carol } = t.channels;
  const out: ItemRow[] = [];
  for (let i = 0; i < n; i++) {
    const top = createItem(t.hub, alice!, { body: `post ${i} #tag${i} @bob` });
    const reply = createItem(t.hub, i % 2 ? bob! : carol!, { body: `reply ${i}`, parentId: top.id });
    setActivity(t.hub, bob!, top.id, VERB.LIKE, true);
    setActivity(t.hub, carol!, reply.id, VERB.DISLIKE, true);
    out.push(top, reply);
  }
  return out;
}

test('rendering statuses takes the same number of queries for 2 items as for 40', () => {
  const small = thread(1);
  const large = thread(20);
  const viewer = t.channels.bob!;
  loadStatuses(t.hub, viewer, small, { includeEntities: true }); // prepares every statement once
  executed = 0;
  const few = loadStatuses(t.hub, viewer, small, { includeEntities: true });
  const forSmall = executed;
  executed = 0;
  const many = loadStatuses(t.hub, viewer, large, { includeEntities: true });
  const forLarge = executed;
  assert.equal(few.length, 2);
  assert.equal(many.length, 40);
  assert.equal(forLarge, forSmall, `queries: ${forSmall} for 2 items, ${forLarge} for 40`);
  assert.ok(forSmall > 5 && forSmall < 20, `${forSmall} queries`);
  assert.deepEqual(many[0]!.friendica_activities.like.map((u) => u.screen_name), ['bob']);
  assert.deepEqual(many[1]!.friendica_activities.dislike.map((u) => u.screen_name), ['carol']);
  assert.deepEqual(many[0]!.entities!.user_mentions.map((u) => u.screen_name), ['bob']);
  assert.equal(many[1]!.in_reply_to_status_id, many[0]!.id);
});
