import type { ApiRequest } from '../../http/api.js';
import type { GraphEntry } from '../../store/social-graph.js';
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

function filtered(entries: GraphEntry[], f: IdFilters): GraphEntry[] {
  return entries.filter((e) => (f.maxId === undefined || e.id < f.maxId) && (f.sinceId === undefined || e.id > f.sinceId) && (f.minId === undefined || e.id > f.minId));
}

/**
 * One cursor page of a list sorted by descending id: a positive cursor continues below that id,
 * a negative one (other than -1) goes back to the entries just above it, as min_id does.
 */
function pageOf(entries: GraphEntry[], cursor: number, count: number, upwards: boolean): { page: GraphEntry[]; hasMore: boolean } {
  let page: GraphEntry[];
  if (cursor > 0) page = entries.filter((e) => e.id < cursor).slice(0, count);
  else if (cursor < -1) page = entries.filter((e) => e.id > -cursor).slice(-count);
  else page = upwards ? entries.slice(-count) : entries.slice(0, count);
  const last = page[page.length - 1];
  return { page, hasMore: last !== undefined && entries.some((e) => e.id < last.id) };
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
export function idsReply(req: ApiRequest, all: GraphEntry[], opts: { envelope?: boolean } = {}): CompatReply {
  const asIds = (list: GraphEntry[]) => list.map((e) => (flag(req.params, 'stringify_ids') ? String(e.id) : e.id));
  const f = idFilters(req);
  const entries = filtered(all, f);
  const cursor = cursorParam(req) ?? (opts.envelope ? -1 : undefined);
  // Without a cursor, at most count (Twitter's 5000) ids from the newest.
  if (cursor === undefined) return reply(asIds(entries.slice(0, req.params.clamped('count', 5000, 1, 5000))), 'ids', { itemName: 'id' });
  const count = req.params.clamped('count', 5000, 1, 5000);
  const { page, hasMore } = pageOf(entries, cursor, count, f.minId !== undefined);
  return reply(cursorEnvelope('ids', { items: asIds(page), keys: page.map((e) => e.id), cursor, hasMore, total: entries.length, twitter: opts.envelope }), 'id_list');
}

/**
 * People as users (each with its latest status unless skip_status; without url/description
 * entities unless include_user_entities): a bare array (root `users`) without `cursor`, Twitter's
 * envelope with it or always (`envelope`), root `users_list`.
 */
export function userListReply(req: ApiRequest, all: GraphEntry[], opts: { envelope?: boolean } = {}): CompatReply {
  const f = idFilters(req);
  const entries = filtered(all, f);
  const cursor = cursorParam(req) ?? (opts.envelope ? -1 : undefined);
  const load = (list: GraphEntry[]) => loadUserList(req, list.map((e) => e.hash), { status: true, entities: flag(req.params, 'include_user_entities') });
  // Without a cursor, GNU social's and Friendica 2021's paging: count (default 20) and page (from 1).
  if (cursor === undefined) {
    const count = req.params.clamped('count', 20, 1, 200);
    const page = req.params.clamped('page', 1, 1, 1_000_000);
    return usersReply(load(entries.slice((page - 1) * count, page * count)));
  }
  const count = req.params.clamped('count', 20, 1, 200);
  const { page, hasMore } = pageOf(entries, cursor, count, f.minId !== undefined);
  return reply(cursorEnvelope('users', { items: load(page), keys: page.map((e) => e.id), cursor, hasMore, total: entries.length, twitter: opts.envelope }), 'users_list');
}
