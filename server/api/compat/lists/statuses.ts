import type { ApiRoute } from '../../../http/api.js';
import { groupTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { ownList } from '../../../services/compat/lists.js';
import { badRequest } from '../../../http/errors.js';
import { timelinePage } from '../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../status-replies.js';

/** lists/statuses: the caller's stream restricted to the members of one of its lists. */
export const listStatusesRoute: ApiRoute = {
  path: 'lists/statuses',
  methods: '*',
  auth: 'user',
  formats: TIMELINE_FORMATS,
  handler(req) {
    const me = req.user().channel;
    const listId = req.params.int('list_id', { min: 1 });
    if (listId === undefined) throw badRequest('list_id not specified');
    const group = ownList(req.hub, me, listId);
    const items = groupTimeline(req.hub.db, me.channel_id, group.id, me.channel_hash, CONTENT_VERBS, timelinePage(req.params));
    return timelineReply(req, items, `List ${group.gname}`);
  },
};
