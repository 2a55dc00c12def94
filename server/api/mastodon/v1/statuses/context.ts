import type { MastodonRoute } from '../../admit.js';
import { getItem } from '../../../../store/items.js';
import { threadTimeline } from '../../../../store/item-timelines.js';
import { CONTENT_VERBS } from '../../../../services/verbs.js';
import { visibleItem } from '../../../../services/mastodon/posting.js';
import { pathId, statusesOf, viewerOf } from '../../common.js';
import type { StatusItemRow } from '../../../../store/rows.js';

/** GET /api/v1/statuses/:id/context: the thread around the status, oldest first, as the viewer may see it. */
export const statusContextRoute: MastodonRoute = {
  path: 'statuses/:id/context',
  methods: ['GET'],
  auth: 'none',
  scope: 'read:statuses',
  handler(req) {
    const viewer = viewerOf(req);
    const item = visibleItem(req.hub, viewer, pathId(req));
    const topId = item.item_thread_top ? item.id : item.parent;
    const thread = threadTimeline(req.hub.db, topId, viewer?.channel_hash ?? '', CONTENT_VERBS, { count: 4000, offset: 0 }).reverse();
    const byMid = new Map(thread.map((i) => [i.mid, i]));
    const top = thread.find((i) => i.id === topId) ?? getItem(req.hub.db, topId);
    // Ancestors: up the thr_parent chain; descendants: what answers the status, directly or not.
    const ancestors: StatusItemRow[] = [];
    let cur: StatusItemRow = item;
    while (cur.thr_parent && cur.thr_parent !== cur.mid) {
      const up = byMid.get(cur.thr_parent) ?? (cur.id !== topId && top && !cur.item_thread_top ? top : undefined);
      if (!up || ancestors.includes(up)) break;
      ancestors.unshift(up);
      cur = up;
    }
    const below = new Set([item.mid]);
    const descendants: StatusItemRow[] = [];
    for (const i of thread) {
      if (i.id === item.id || i.item_thread_top) continue;
      const parentMid = i.thr_parent && i.thr_parent !== i.mid ? i.thr_parent : top?.mid;
      if (parentMid && below.has(parentMid)) {
        descendants.push(i);
        below.add(i.mid);
      }
    }
    return { ancestors: statusesOf(req, ancestors), descendants: statusesOf(req, descendants) };
  },
};
