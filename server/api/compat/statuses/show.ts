import type { ApiRoute } from '../../../http/api.js';
import { threadTimeline } from '../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { timelinePage } from '../params.js';
import { statusReply, timelineReply } from '../status-replies.js';
import { visibleStatus, visibleStatusByMid } from '../visible-status.js';

/**
 * statuses/show (also statuses/show/:id): one status, or with `conversation` its whole thread.
 * Instead of the id, `mid` names it by message id (what /display/<mid> and plink URLs carry).
 */
export const statusesShowRoute: ApiRoute = {
  path: 'statuses/show',
  methods: '*',
  auth: 'user',
  idParam: true,
  handler(req) {
    const mid = req.params.str('mid')?.trim();
    const item = mid && !req.pathParams.id && !req.params.has('id') ? visibleStatusByMid(req, mid) : visibleStatus(req);
    if (!req.params.str('conversation')?.trim()) return statusReply(req, item);
    const items = threadTimeline(req.hub.db, item.parent || item.id, req.user().channel.channel_hash, CONTENT_VERBS, timelinePage(req.params));
    return timelineReply(req, items, `Conversation ${item.parent || item.id}`);
  },
};
