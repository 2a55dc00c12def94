import assert from 'node:assert/strict';
import type { TestHub } from './hub.js';
import type { Hub } from '../../server/hub.js';
import type { ChannelRow } from '../../server/store/rows.js';
import { insertItem, ITEM_DEFAULTS, updateItem } from '../../server/store/items.js';
import { itemLinks } from '../../server/services/items.js';
import { OBJ, VERB } from '../../server/services/verbs.js';
import { uuid } from '../../server/util/ids.js';
import { toDbDate } from '../../server/util/time.js';

export const NATIVE = '/api/z/1.0';

/** A native API call as `as`; returns status and parsed JSON (undefined for an empty body). */
export async function call(t: TestHub, as: string | undefined, path: string, opts: { method?: string; form?: Record<string, string | string[]>; body?: BodyInit } = {}) {
  let body = opts.body;
  if (opts.form) {
    const f = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.form)) for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
    body = f;
  }
  const res = await t.request(`${NATIVE}/${path}`, { as, method: opts.method ?? (body ? 'POST' : 'GET'), body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** Posts through item/update and returns the item record. */
export async function post(t: TestHub, as: string, form: Record<string, string | string[]>) {
  const r = await call(t, as, 'item/update', { form });
  assert.equal(r.status, 200, r.text);
  return r.json.item as Record<string, any>;
}

/** Asserts a failure in the native error shape. */
export function assertError(r: { status: number; json: unknown }, status: number, message?: RegExp) {
  assert.equal(r.status, status, JSON.stringify(r.json));
  const body = r.json as { success: boolean; message: string };
  assert.equal(body.success, false);
  assert.equal(typeof body.message, 'string');
  if (message) assert.match(body.message, message);
}

/** Every value of a record is a string (the native API's convention). */
export function assertAllStrings(record: Record<string, unknown>) {
  for (const [k, v] of Object.entries(record)) assert.equal(typeof v, 'string', `${k} should be a string, is ${JSON.stringify(v)}`);
}

/**
 * Inserts `count` wall posts of a channel straight into the store, in one transaction, created
 * one second apart ending now (or ending at `end`).
 */
export function seedPosts(hub: Hub, channel: ChannelRow, count: number, opts: { end?: Date; body?: (i: number) => string } = {}): void {
  const end = (opts.end ?? new Date()).getTime();
  hub.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const created = toDbDate(new Date(end - (count - i) * 1000));
      const mid = `${uuid()}@${hub.hostname}`;
      const id = insertItem(hub.db, {
        ...ITEM_DEFAULTS, uid: channel.channel_id, aid: channel.channel_account_id, uuid: uuid(), mid, parent_mid: mid, thr_parent: mid,
        created, edited: created, commented: created, received: created, changed: created,
        owner_xchan: channel.channel_hash, author_xchan: channel.channel_hash,
        body: opts.body ? opts.body(i) : `seeded post number ${i} with some text to make it look like a real post.`,
        verb: VERB.POST, obj_type: OBJ.NOTE, comment_policy: 'contacts', item_wall: 1, item_origin: 1, item_thread_top: 1, item_verified: 1,
        ...itemLinks(hub, channel.channel_address, mid),
      });
      updateItem(hub.db, id, { parent: id });
    }
  })();
}
