import type { MastodonRoute } from '../admit.js';
import { HttpError } from '../../../http/errors.js';
import { setPConfig } from '../../../store/config.js';
import { getMarkers } from '../../../store/mastodon.js';
import { isoDate } from '../../../serializers/mastodon/dates.js';
import { nowDb } from '../../../util/time.js';

const TIMELINES = ['home', 'notifications'];

function markers(uid: number, db: Parameters<typeof getMarkers>[0], wanted: string[]) {
  const out: Record<string, { last_read_id: string; version: number; updated_at: string }> = {};
  for (const m of getMarkers(db, uid)) if (wanted.includes(m.timeline)) out[m.timeline] = { last_read_id: m.last_read_id, version: m.version, updated_at: isoDate(m.updated) };
  return out;
}

/** GET /api/v1/markers?timeline[]=home&timeline[]=notifications. */
export const markersRoute: MastodonRoute = {
  path: 'markers',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:statuses',
  handler(req) {
    const wanted = req.params.list('timeline').filter((t) => TIMELINES.includes(t));
    return markers(req.user().channel.channel_id, req.hub.db, wanted);
  },
};

/** POST /api/v1/markers: home[last_read_id], notifications[last_read_id] (form or JSON). */
export const markersSaveRoute: MastodonRoute = {
  path: 'markers',
  methods: ['POST'],
  auth: 'user',
  scope: 'write:statuses',
  handler(req) {
    const me = req.user().channel;
    const existing = new Map(getMarkers(req.hub.db, me.channel_id).map((m) => [m.timeline, m]));
    const changed: string[] = [];
    for (const t of TIMELINES) {
      let id = req.params.str(`${t}[last_read_id]`);
      const json = req.params.str(t);
      if (id === undefined && json) {
        try {
          id = String((JSON.parse(json) as { last_read_id?: unknown }).last_read_id ?? '');
        } catch {
          id = undefined;
        }
      }
      if (id === undefined) continue;
      if (!/^\d{1,15}$/.test(id)) throw new HttpError(422, `Validation failed: ${t}[last_read_id] must be an id`);
      const version = (existing.get(t)?.version ?? 0) + 1;
      setPConfig(req.hub.db, me.channel_id, 'mastodon_marker', t, JSON.stringify({ last_read_id: id, version, updated: nowDb() }));
      changed.push(t);
    }
    return markers(me.channel_id, req.hub.db, changed);
  },
};
