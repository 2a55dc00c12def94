import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getDocumentLoader } from '@fedify/fedify';
import { Collection, CollectionPage, lookupObject } from '@fedify/vocab';
import { startFederatingHub } from '../helpers/federation.js';
import type { TestHub } from '../helpers/hub.js';
import { insertConnection, updateConnection } from '../../server/store/connections.js';
import { putFedFollow, upsertRemoteActor } from '../../server/store/federation.js';
import { getChannelByNick } from '../../server/store/channels.js';
import { DEFAULT_CONNECTION_PERMS } from '../../server/services/connections.js';
import { nowDb } from '../../server/util/time.js';

// A channel's followers and following, as other servers read them: read through Fedify's own
// client (an independent implementation of ActivityPub collections), page by page, every person
// once, none blocked; and no page longer than a page, however many people there are.

const PEOPLE = 130;
const BLOCKED = 3;
const person = (i: number) => `https://elsewhere${i % 5}.example/users/p${i}`;
const follows = (i: number) => i % 2 === 0;

describe("a channel's followers and following collections, paged", () => {
  let t: TestHub;
  const documentLoader = getDocumentLoader({ allowPrivateAddress: true });
  const collection = async (name: string) => {
    const c = await lookupObject(`${t.url}/channel/alice/${name}`, { documentLoader, contextLoader: documentLoader });
    assert.ok(c instanceof Collection, `${name} is a collection`);
    return c;
  };

  before(async () => {
    t = await startFederatingHub(['alice']);
    const db = t.hub.db;
    const alice = getChannelByNick(db, 'alice')!;
    db.transaction(() => {
      for (let i = 0; i < PEOPLE + BLOCKED; i++) {
        const id = person(i);
        upsertRemoteActor(db, { id, address: `p${i}@elsewhere${i % 5}.example`, name: `Person ${i}`, url: id, icon: '', publicKeyPem: '', inbox: `${id}/inbox`, sharedInbox: `https://elsewhere${i % 5}.example/inbox`, followers: `${id}/followers`, keyId: `${id}#main-key`, manuallyApproves: false }, nowDb());
        const abook = insertConnection(db, { account: alice.channel_account_id, channel: alice.channel_id, xchan: id, pending: false, unconnected: !follows(i), myPerms: DEFAULT_CONNECTION_PERMS, theirPerms: DEFAULT_CONNECTION_PERMS });
        putFedFollow(db, { channelId: alice.channel_id, actor: id, direction: 'in', activityId: `${id}/follows/alice`, accepted: true });
        if (follows(i)) putFedFollow(db, { channelId: alice.channel_id, actor: id, direction: 'out', activityId: `${t.url}/follows/${i}`, accepted: true });
        if (i >= PEOPLE) updateConnection(db, abook, { abook_blocked: 1 });
      }
    })();
  });
  after(async () => {
    await t.stop();
  });

  for (const [name, expected] of [
    ['followers', Array.from({ length: PEOPLE }, (_, i) => person(i))],
    ['following', Array.from({ length: PEOPLE }, (_, i) => i).filter(follows).map(person)],
  ] as const) {
    it(`${name}: its size, and every person once when walked page by page, none blocked`, async () => {
      const c = await collection(name);
      assert.equal(c.totalItems, expected.length);
      // The pages are fetched and read by Fedify; the people on them only named (never fetched: they live elsewhere).
      const seen: string[] = [];
      const loaders = { documentLoader, contextLoader: documentLoader };
      for (let page = await c.getFirst(loaders); page; page = await page.getNext(loaders)) {
        assert.ok(page instanceof CollectionPage);
        seen.push(...page.itemIds.map((id) => id.href));
      }
      assert.equal(seen.length, expected.length, 'each person once');
      assert.deepEqual([...seen].sort(), [...expected].sort());
    });

    it(`${name}: no page holds more than 40 people`, async () => {
      const get = async (url: string) => (await (await fetch(url, { headers: { accept: 'application/activity+json' } })).json()) as { first?: string | { id: string }; next?: string; orderedItems?: unknown[]; items?: unknown[] };
      const top = await get(`${t.url}/channel/alice/${name}`);
      assert.equal((top.orderedItems ?? top.items ?? []).length, 0, 'the collection itself lists nobody: its pages do');
      let next = typeof top.first === 'string' ? top.first : top.first?.id;
      let pages = 0;
      while (next) {
        const page = await get(next);
        const items = page.orderedItems ?? page.items ?? [];
        assert.ok(items.length <= 40, `${items.length} people on a page`);
        pages++;
        next = page.next;
      }
      assert.equal(pages, Math.ceil(expected.length / 40));
    });
  }
});
