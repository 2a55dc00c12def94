import type { ApiRequest, ApiRoute } from '../../http/api.js';
import type { StatusItemRow } from '../../store/rows.js';
import type { CompatStatus } from '../../serializers/compat/status.js';
import { atomFeed, rssFeed, type FeedEntry } from '../../serializers/compat/feed.js';
import { loadStatus, loadStatuses } from '../../services/compat/statuses.js';
import { HEARTH_VERSION } from '../../version.js';
import { reply, type CompatReply } from './reply.js';
import { statusOptions } from './params.js';

const FEED_TYPES = { rss: 'application/rss+xml', atom: 'application/atom+xml' } as const;

/** Formats of timeline routes: JSON, XML and real RSS 2.0 / Atom feeds. */
export const TIMELINE_FORMATS: ApiRoute['formats'] = ['json', 'xml', 'rss', 'atom'];

export function statusesReply(statuses: CompatStatus[]): CompatReply {
  return reply(statuses, 'statuses', { itemName: 'status' });
}

function feedEntry(item: StatusItemRow, s: CompatStatus): FeedEntry {
  const firstLine = s.text.split('\n')[0] ?? '';
  return {
    id: item.llink || s.external_url,
    link: s.external_url || item.llink,
    title: item.title || (firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine),
    html: s.statusnet_html,
    published: item.created,
    updated: item.edited > item.created ? item.edited : item.created,
    authorName: s.user.name,
    authorUri: s.user.statusnet_profile_url,
  };
}

/**
 * A timeline: statuses as JSON/XML (root `statuses`, children `status`), or as an RSS/Atom feed
 * written straight to the response.
 */
export function timelineReply(req: ApiRequest, items: StatusItemRow[], title: string): CompatReply | undefined {
  const viewer = req.identity?.channel;
  const statuses = loadStatuses(req.hub, viewer, items, statusOptions(req.params));
  if (req.format !== 'rss' && req.format !== 'atom') return statusesReply(statuses);
  const meta = {
    title,
    self: `${req.hub.baseUrl}/${req.requestPath}`,
    alternate: req.hub.baseUrl,
    description: `${title} (Hearth)`,
    generator: `Hearth ${HEARTH_VERSION}`,
  };
  const entries = items.map((item, i) => feedEntry(item, statuses[i]!));
  const ctx = req.ctx;
  ctx.status = 200;
  ctx.type = FEED_TYPES[req.format];
  ctx.body = req.format === 'rss' ? rssFeed(meta, entries) : atomFeed(meta, entries);
  return undefined;
}

/** One status (root `status`). */
export function statusReply(req: ApiRequest, item: StatusItemRow): CompatReply {
  const status = loadStatus(req.hub, req.identity?.channel, item, statusOptions(req.params));
  return reply(status, 'status');
}
