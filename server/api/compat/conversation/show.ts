import type { ApiRequest, ApiRoute } from '../../../http/api.js';
import { answersTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { timelinePage } from '../params.js';
import { TIMELINE_FORMATS, timelineReply } from '../status-replies.js';
import { visibleStatus } from '../visible-status.js';

/** All direct answers to a status (not the status itself), newest first. */
export function answersHandler(req: ApiRequest) {
  const me = req.user().channel;
  const target = visibleStatus(req);
  const items = answersTimeline(req.hub.db, target, me.channel_hash, CONTENT_VERBS, timelinePage(req.params));
  return timelineReply(req, items, `Answers to status ${target.id}`);
}

/** conversation/show (also conversation/show/:id). */
export const conversationShowRoute: ApiRoute = { path: 'conversation/show', methods: '*', auth: 'user', idParam: true, formats: TIMELINE_FORMATS, handler: answersHandler };
