import type { ApiRequest } from '../../http/api.js';
import type { ItemRow } from '../../store/rows.js';
import { getItem, itemVisibleTo } from '../../store/items.js';
import { notFound } from '../../http/errors.js';
import { requiredId } from './params.js';

/**
 * The status a request names by path id or `id`: 400 when no id is given, 404 when it does not
 * exist, is deleted or the caller may not see it (the two are not told apart).
 */
export function visibleStatus(req: ApiRequest): ItemRow {
  const id = requiredId(req);
  const item = getItem(req.hub.db, id);
  const observer = req.identity?.channel.channel_hash ?? '';
  if (!item || item.item_deleted || !itemVisibleTo(req.hub.db, id, observer)) throw notFound(`There is no status with the id ${id}.`);
  return item;
}
