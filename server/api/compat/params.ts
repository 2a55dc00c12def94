import type { ApiRequest } from '../../http/api.js';
import type { ParamReader } from '../../http/params.js';
import { badRequest } from '../../http/errors.js';
import type { TimelinePage } from '../../store/item-timelines.js';

/** A Twitter-style flag: 1, true, t, on, yes are true; anything else (or absence) is false. */
export function flag(params: ParamReader, name: string): boolean {
  const s = params.str(name)?.trim().toLowerCase();
  return s !== undefined && ['1', 'true', 't', 'on', 'yes', 'y'].includes(s);
}

/** include_entities: on unless the client turns it off (0, false, no, off), as on Twitter. */
export function entitiesWanted(params: ParamReader): boolean {
  const s = params.str('include_entities')?.trim().toLowerCase();
  return s === undefined || !['0', 'false', 'f', 'off', 'no', 'n'].includes(s);
}

/** How statuses are rendered for this request: entities (include_entities) and tweet_mode=extended (full_text). */
export function statusOptions(params: ParamReader): { includeEntities: boolean; extended: boolean } {
  return { includeEntities: entitiesWanted(params), extended: params.str('tweet_mode')?.trim().toLowerCase() === 'extended' };
}

/**
 * An id bound (since_id, max_id, min_id); undefined only when absent. 0 and -1 (which some clients
 * send) are bounds like any other: max_id=0 lets nothing through, since_id=0 everything. 400 when
 * it is not a number or below -1.
 */
export function idBound(params: ParamReader, name: string): number | undefined {
  return params.int(name, { min: -1 });
}

/** An id that selects something (conversation_id); 0 and -1 mean none was given, as in Friendica. */
function selectedId(params: ParamReader, name: string): number | undefined {
  const v = params.int(name, { min: -1 });
  return v === undefined || v <= 0 ? undefined : v;
}

/**
 * Timeline paging: count (default 20, clamped to 1..max), page (1-based; 0 and negatives mean the
 * first page, as older clients send them), since_id (exclusive), max_id (inclusive),
 * exclude_replies, conversation_id.
 */
export function timelinePage(params: ParamReader, opts: { defaultCount?: number; max?: number; countAlias?: string } = {}): TimelinePage {
  const max = opts.max ?? 100;
  let count = params.clamped('count', opts.defaultCount ?? 20, 1, max);
  if (opts.countAlias && params.has(opts.countAlias)) count = params.clamped(opts.countAlias, count, 1, max);
  const page = params.clamped('page', 1, 1, 1_000_000);
  return {
    count,
    offset: (page - 1) * count,
    sinceId: idBound(params, 'since_id'),
    maxId: idBound(params, 'max_id'),
    excludeReplies: flag(params, 'exclude_replies'),
    conversationId: selectedId(params, 'conversation_id'),
  };
}

/** The id of the path form (statuses/show/123) or else the `id` parameter; 400 when missing or malformed. */
export function requiredId(req: ApiRequest, message = 'An id is missing.'): number {
  const raw = (req.pathParams.id ?? req.params.str('id') ?? '').trim();
  if (!raw) throw badRequest(message);
  if (!/^\d{1,15}$/.test(raw) || Number(raw) <= 0) throw badRequest(`id must be a positive integer: ${raw.slice(0, 40)}`);
  return Number(raw);
}
