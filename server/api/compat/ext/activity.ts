import type { ApiRoute } from '../../../http/api.js';
import { badRequest, HttpError } from '../../../http/errors.js';
import { setActivity } from '../../../services/items.js';
import { ACTIVITY_VERBS } from '../../../services/verbs.js';
import { reply } from '../reply.js';

/** Splits like / unlike / unattendyes… into the activity verb URI and whether to add or remove it. */
export function parseActivityVerb(raw: string): { verb: string; on: boolean } | undefined {
  const name = raw.toLowerCase();
  const undo = name.startsWith('un') && ACTIVITY_VERBS[name.slice(2)] !== undefined;
  const verb = ACTIVITY_VERBS[undo ? name.slice(2) : name];
  return verb ? { verb, on: !undo } : undefined;
}

/**
 * ext/activity/<verb>: adds (like, dislike, attendyes, attendno, attendmaybe) or removes (un<verb>)
 * the user's activity on the item `id`. Attend verbs replace each other. "ok", or 400 on any error.
 */
export const extActivity: ApiRoute = {
  path: 'ext/activity/:verb',
  methods: ['POST'],
  auth: 'user',
  handler: (req) => {
    const { channel } = req.user();
    const activity = parseActivityVerb(req.pathParams.verb ?? '');
    if (!activity) throw badRequest(`unknown activity: ${(req.pathParams.verb ?? '').slice(0, 40)}`);
    const raw = req.params.str('id')?.trim();
    if (!raw) throw badRequest('Item id not specified');
    if (!/^\d{1,15}$/.test(raw)) throw badRequest('Item id must be a number');
    try {
      setActivity(req.hub, channel, Number(raw), activity.verb, activity.on);
    } catch (err) {
      if (err instanceof HttpError) throw badRequest(err.status === 404 ? 'Item id not found' : `Error adding activity: ${err.message}`);
      throw err;
    }
    return reply(req.format === 'json' ? 'ok' : true, 'ok');
  },
};
