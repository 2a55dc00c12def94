import type { ApiRequest } from '../../http/api.js';
import { HttpError, notFound } from '../../http/errors.js';
import type { ChannelRow, StatusItemRow, XchanRow } from '../../store/rows.js';
import type { TimelinePage } from '../../store/item-timelines.js';
import type { ContactPage } from '../../store/social-graph.js';
import { getXchanById } from '../../store/xchans.js';
import { loadMastodonStatuses } from '../../services/mastodon/statuses.js';
import { loadAccounts } from '../../services/mastodon/accounts.js';
import type { MastodonAccount } from '../../serializers/mastodon/account.js';

/** The caller's channel, when a channel's token was sent. */
export function viewerOf(req: ApiRequest): ChannelRow | undefined {
  return req.identity?.channel;
}

/** A numeric id of the path (Mastodon ids are strings of digits); 404 for anything else. */
export function pathId(req: ApiRequest, name = 'id'): number {
  const raw = req.pathParams[name] ?? '';
  if (!/^\d{1,15}$/.test(raw)) throw notFound('Record not found');
  return Number(raw);
}

/** The identity an account id names; 404 when unknown. */
export function accountXchan(req: ApiRequest, name = 'id'): XchanRow {
  const x = getXchanById(req.hub.db, pathId(req, name));
  if (!x || x.xchan_deleted) throw notFound('Record not found');
  return x;
}

export function statusesOf(req: ApiRequest, items: StatusItemRow[]) {
  return loadMastodonStatuses(req.hub, viewerOf(req), items);
}

export function statusOf(req: ApiRequest, item: StatusItemRow) {
  return statusesOf(req, [item])[0]!;
}

export function accountsOf(req: ApiRequest, hashes: string[]): MastodonAccount[] {
  const map = loadAccounts(req.hub, viewerOf(req), hashes);
  return hashes.map((h) => map.get(h)).filter((a): a is MastodonAccount => a !== undefined);
}

export function accountOf(req: ApiRequest, hash: string): MastodonAccount {
  const a = loadAccounts(req.hub, viewerOf(req), [hash]).get(hash);
  if (!a) throw notFound('Record not found');
  return a;
}

function idBound(req: ApiRequest, name: string): number | undefined {
  const raw = req.params.str(name)?.trim();
  if (!raw) return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw new HttpError(422, `Validation failed: ${name} must be an id`);
  return Number(raw);
}

export interface MastodonPage {
  limit: number;
  maxId?: number;
  sinceId?: number;
  minId?: number;
}

/** Mastodon's paging parameters: limit (default 20, at most 40), max_id (exclusive), since_id, min_id. */
export function pageParams(req: ApiRequest, opts: { def?: number; max?: number } = {}): MastodonPage {
  const max = opts.max ?? 40;
  return { limit: req.params.clamped('limit', opts.def ?? 20, 1, max), maxId: idBound(req, 'max_id'), sinceId: idBound(req, 'since_id'), minId: idBound(req, 'min_id') };
}

/** Mastodon's offset (search): how many entries to skip, 0 when absent; 422 for anything but digits. */
export function offsetParam(req: ApiRequest): number {
  const raw = req.params.str('offset')?.trim();
  if (!raw) return 0;
  if (!/^\d{1,9}$/.test(raw)) throw new HttpError(422, 'Validation failed: offset must be a number of entries');
  return Number(raw);
}

/**
 * Reads one page newest first with the store's timeline paging (since exclusive, max inclusive):
 * max_id (exclusive) becomes the inclusive bound just below it. min_id asks for the items just
 * after it, read upwards from it.
 */
export function readPage(p: MastodonPage, read: (page: TimelinePage) => StatusItemRow[], extra: Partial<TimelinePage> = {}): StatusItemRow[] {
  const maxId = p.maxId !== undefined ? p.maxId - 1 : undefined;
  if (p.minId !== undefined) return read({ count: p.limit, offset: 0, sinceId: Math.max(p.minId, p.sinceId ?? 0), maxId, oldestFirst: true, ...extra });
  return read({ count: p.limit, offset: 0, sinceId: p.sinceId, maxId, ...extra });
}

/** Mastodon's Link header for a page whose entries carry these ids (newest first); no next link for the last page when known. */
export function setLinkHeader(req: ApiRequest, ids: (number | string)[], opts: { last?: boolean } = {}): void {
  if (!ids.length) return;
  // The path as routed: the one sent may begin with '//', which a URL parser reads as a host.
  const url = new URL(`${req.ctx.path}${req.ctx.search}`, req.hub.baseUrl);
  for (const k of ['max_id', 'since_id', 'min_id']) url.searchParams.delete(k);
  const next = new URL(url);
  next.searchParams.set('max_id', String(ids[ids.length - 1]));
  const prev = new URL(url);
  prev.searchParams.set('min_id', String(ids[0]));
  req.ctx.set('Link', opts.last ? `<${prev}>; rel="prev"` : `<${next}>; rel="next", <${prev}>; rel="prev"`);
}

/** A page of items as statuses, with the Link header. */
export function statusPage(req: ApiRequest, items: StatusItemRow[]) {
  setLinkHeader(req, items.map((i) => i.id));
  return statusesOf(req, items);
}

/**
 * One page of a contact list read from the store (ordered by account id, newest first) with the
 * Link header: max_id exclusive, since_id exclusive, min_id the page just above it.
 */
export function contactPage<T extends { id: number }>(req: ApiRequest, read: (page: ContactPage) => T[], p: MastodonPage = pageParams(req, { max: 80, def: 40 })): T[] {
  const above = Math.max(p.sinceId ?? 0, p.minId ?? 0);
  const rows = read({ limit: p.limit, below: p.maxId, above, upwards: p.minId !== undefined });
  setLinkHeader(req, rows.map((r) => r.id));
  return rows;
}

/** Pages a list that is already in memory (newest first, by numeric id). */
export function pageList<T>(req: ApiRequest, list: T[], idOf: (t: T) => number, p = pageParams(req)): T[] {
  let out = list.filter((t) => (p.maxId === undefined || idOf(t) < p.maxId) && (p.sinceId === undefined || idOf(t) > p.sinceId) && (p.minId === undefined || idOf(t) > p.minId));
  out = p.minId !== undefined ? out.slice(-p.limit) : out.slice(0, p.limit);
  setLinkHeader(req, out.map(idOf));
  return out;
}

/** A Mastodon boolean parameter (true/1/on). */
export function flag(req: ApiRequest, name: string): boolean {
  const v = req.params.str(name)?.trim().toLowerCase();
  return v === 'true' || v === '1' || v === 'on' || v === 'yes';
}
