import type { ApiRequest } from '../../../http/api.js';
import type { MastodonRoute } from '../admit.js';
import { HttpError } from '../../../http/errors.js';
import { listGroups } from '../../../store/groups.js';
import { createList } from '../../../services/compat/lists.js';
import type { GroupRow } from '../../../store/rows.js';

/** Mastodon's List entity for a privacy group. */
export function mastodonList(g: GroupRow) {
  return { id: String(g.id), title: g.gname, replies_policy: 'list', exclusive: false };
}

/** The services' 400s are Mastodon's 422. */
export function validating<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw new HttpError(422, `Validation failed: ${err.message}`);
    throw err;
  }
}

export function listTitle(req: ApiRequest): string {
  const title = req.params.str('title');
  if (!title?.trim()) throw new HttpError(422, "Validation failed: Title can't be blank");
  return title;
}

/** GET /api/v1/lists: the channel's privacy groups. */
export const listsRoute: MastodonRoute = {
  path: 'lists',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:lists',
  handler: (req) => listGroups(req.hub.db, req.user().channel.channel_id).map(mastodonList),
};

/** POST /api/v1/lists: a new privacy group. */
export const listCreateRoute: MastodonRoute = {
  path: 'lists',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:lists',
  handler: (req) => mastodonList(validating(() => createList(req.hub, req.user().channel, listTitle(req), false))),
};
