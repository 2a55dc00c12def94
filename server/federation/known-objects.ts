import type { Db } from '../db/open.js';
import type { ItemRow } from '../store/rows.js';
import { getItemByMid } from '../store/items.js';
import { getItemByUuid } from '../store/federation.js';
import { localUuidOf } from './ids.js';

/** The item of this hub an ActivityPub id names: one of its own (/item/<uuid>) or one received before. */
export function itemByObjectId(db: Db, publicUrl: string, id: string | undefined | null): ItemRow | undefined {
  if (!id) return undefined;
  const uuid = localUuidOf(publicUrl, id);
  return uuid ? getItemByUuid(db, uuid) : getItemByMid(db, id);
}
