import type { ApiRequest } from '../../http/api.js';
import type { ContactList, ContactRange, GraphEntry } from '../../store/social-graph.js';
import { badRequest } from '../../http/errors.js';
import { cursorEnvelope } from '../../serializers/compat/cursor.js';
import { reply, type CompatReply } from './reply.js';
import { flag, idBound } from './params.js';
import { loadUserList, usersReply } from './user-replies.js';

/** The `cursor` parameter, or undefined when absent (then lists are answered as bare arrays). */
function cursorParam(req: ApiRequest): number | undefined {
  const raw = req.params.str('cursor')?.trim();
  if (raw === undefined || raw === '') return undefined;
  // Hotot sends the literal "undefined" when it means the first page.
  if (raw === 'undefined') return -1;
  if (!/^-?\d{1,15}$/.test(raw)) throw badRequest('cursor must be an integer');
  return Number(raw);
}

/** Friendica's id filters of contact lists (all exclusive): since_id, max_id and min_id (whose page is the entries just above it). */
interface IdFilters {
  sinceId?: number;
  maxId?: number;
  minId?: number;
}

function idFilters(req: ApiRequest): IdFilters {
  return { sinceId: idBound(req.params, 'since_id'), maxId: idBound(req.params, 'max_id'), minId: idBound(req.params, 'min_id') };
}

/** The ids the filters leave: below max_id, above since_id and min_id. */
function rangeOf(f: IdFilters): ContactRange {
  return { above: Math.max(f.sinceId ?? 0, f.minId ?? 0), below: f.maxId };
}

/**
 * One cursor page of a list sorted by descending id, within the filters' range: a positive cursor
 * continues below that id, a negative one (other than -1) goes back to the entries just above it,
 * as min_id does. Rows follow the page when the range holds one below its last entry.
 */
function pageOf(list: ContactList, range: ContactRange, cursor: number, count: number, upwards: boolean): { page: GraphEntry[]; hasMore: boolean } {
  let page: GraphEntry[];
  if (cursor > 0) page = list.page({ limit: count, above: range.above, below: range.below === undefined ? cursor : Math.min(cursor, range.below) });
  else if (cursor < -1) page = list.page({ limit: count, above: Math.max(-cursor, range.above ?? 0), below: range.below, upwards: true });
  else page = list.page({ limit: count, ...range, upwards });
  const last = page[page.length - 1];
  return { page, hasMore: last !== undefined && list.page({ limit: 1, above: range.above, below: last.id }).length > 0 };
}

/** The request came in under api/1.1/, where clients expect Twitter v1.1's shapes. */
export function onTwitterPath(req: ApiRequest): boolean {
  return req.ctx.path.toLowerCase().startsWith('/api/1.1/');
}

/**
 * Ids of people: a bare array (root `ids`) without `cursor` on the StatusNet path, Twitter's
 * envelope (root `id_list`) with it, or always with Twitter's cursor rules (`envelope`: the
 * api/1.1/ paths and Twitter's own endpoints); `stringify_ids` gives strings.
 */
export function idsReply(req: ApiRequest, list: ContactList, opts: { envelope?: boolean } = {}): CompatReply {
  const asIds = (entries: GraphEntry[]) => entries.map((e) => (flag(req.params, 'stringify_ids') ? String(e.id) : e.id));
  const f = idFilters(req);
  const range = rangeOf(f);
  const cursor = cursorParam(req) ?? (opts.envelope ? -1 : undefined);
  // Without a cursor, at most count (Twitter's 5000) ids from the newest.
  if (cursor === undefined) return reply(asIds(list.page({ limit: req.params.clamped('count', 5000, 1, 5000), ...range })), 'ids', { itemName: 'id' });
  const count = req.params.clamped('count', 5000, 1, 5000);
  const { page, hasMore } = pageOf(list, range, cursor, count, f.minId !== undefined);
  return reply(cursorEnvelope('ids', { items: asIds(page), keys: page.map((e) => e.id), cursor, hasMore, total: list.count(range), twitter: opts.envelope }), 'id_list');
}

/**
 * People as users (each with its latest status unless skip_status; without url/description
 * entities unless include_user_entities): a bare array (root `users`) without `cursor`, Twitter's
 * envelope with it or always (`envelope`), root `users_list`.
 */
export function userListReply(req: ApiRequest, list: ContactList, opts: { envelope?: boolean } = {}): CompatReply {
  const f = idFilters(req);
  const range = rangeOf(f);
  const cursor = cursorParam(req) ?? (opts.envelope ? -1 : undefined);
  const load = (entries: GraphEntry[]) => loadUserList(req, entries.map((e) => e.hash), { status: true, entities: flag(req.params, 'include_user_entities') });
  // Without a cursor, GNU social's and Friendica 2021's paging: count (default 20) and page (from 1).
  if (cursor === undefined) {
    const count = req.params.clamped('count', 20, 1, 200);
    const page = req.params.clamped('page', 1, 1, 1_000_000);
    return usersReply(load(list.page({ limit: count, offset: (page - 1) * count, ...range })));
  }
  const count = req.params.clamped('count', 20, 1, 200);
  const { page, hasMore } = pageOf(list, range, cursor, count, f.minId !== undefined);
  return reply(cursorEnvelope('users', { items: load(page), keys: page.map((e) => e.id), cursor, hasMore, total: list.count(range), twitter: opts.envelope }), 'users_list');
}
