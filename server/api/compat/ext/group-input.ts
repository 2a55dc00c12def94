import type { ApiRequest } from '../../../http/api.js';
import { badRequest } from '../../../http/errors.js';
import type { MemberRef } from '../../../services/compat/groups.js';

/** A group as Friendica clients post it: a group_show entry. */
export interface GroupInput {
  name?: string;
  gid?: number;
  members: MemberRef[];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('json is not valid JSON');
  }
}

/** The posted group_show entry: the `json` form field, or a raw JSON body; either an object or an array holding one. */
function postedEntry(req: ApiRequest): Record<string, unknown> | undefined {
  const field = req.params.str('json');
  const body = (req.ctx.request as { body?: unknown }).body;
  let doc: unknown;
  if (field !== undefined && field.trim()) doc = parseJson(field);
  else if (req.ctx.request.is('application/json', 'application/*+json')) doc = body;
  else if (typeof body === 'string' && /^\s*[[{]/.test(body)) doc = parseJson(body);
  if (doc === undefined || doc === null) return undefined;
  if (Array.isArray(doc)) doc = doc[0];
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw badRequest('json must be a group object {"name", "gid", "user": [...]}');
  return doc as Record<string, unknown>;
}

function members(entry: Record<string, unknown> | undefined): MemberRef[] {
  const list = entry?.user ?? entry?.users;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw badRequest('json: user must be an array of users');
  return list.map((u) => (u && typeof u === 'object' ? (u as MemberRef) : { cid: u }));
}

/** name, gid (parameters win over the JSON entry) and the posted members. */
export function groupInput(req: ApiRequest): GroupInput {
  const entry = postedEntry(req);
  const name = req.params.str('name')?.trim() || (typeof entry?.name === 'string' ? entry.name.trim() : undefined) || undefined;
  const rawGid = req.params.str('gid')?.trim() || (entry?.gid !== undefined && entry.gid !== null ? String(entry.gid).trim() : '');
  if (rawGid && !/^\d{1,15}$/.test(rawGid)) throw badRequest('gid must be a number');
  return { name, gid: rawGid ? Number(rawGid) : undefined, members: members(entry) };
}
