import type { ApiRequest } from '../../http/api.js';
import type { ItemRow } from '../../store/rows.js';
import { getItem, getItemByMid, itemVisibleTo } from '../../store/items.js';
import { badRequest, notFound } from '../../http/errors.js';
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

/**
 * The status a request names by `mid` (its message id, as in the llink and plink URLs the APIs
 * hand out), with the same answers as visibleStatus.
 */
export function visibleStatusByMid(req: ApiRequest, mid: string): ItemRow {
  if (mid.length > 255) throw badRequest('mid is too long');
  const item = getItemByMid(req.hub.db, mid);
  const observer = req.identity?.channel.channel_hash ?? '';
  if (!item || item.item_deleted || !itemVisibleTo(req.hub.db, item.id, observer)) throw notFound('There is no status with this mid.');
  return item;
}
