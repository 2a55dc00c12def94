import type Router from '@koa/router';
import type { Hub } from '../hub-context.js';
import { publishedCounts } from '../services/published-counts.js';
import { HEARTH_VERSION } from '../version.js';

const SCHEMA_20 = 'http://nodeinfo.diaspora.software/ns/schema/2.0';

/** NodeInfo 2.0 discovery (apps such as Fedilab and Elk read it to know what they talk to). */
export function mountNodeinfo(router: Router, hub: Hub): void {
  router.get('/.well-known/nodeinfo', (ctx) => {
    ctx.body = { links: [{ rel: SCHEMA_20, href: `${hub.baseUrl}/nodeinfo/2.0` }] };
  });
  router.get('/nodeinfo/2.0', (ctx) => {
    const counts = publishedCounts(hub.db);
    ctx.type = `application/json; profile="${SCHEMA_20}#"`;
    ctx.body = JSON.stringify({
      version: '2.0',
      software: { name: 'hearth', version: HEARTH_VERSION },
      protocols: hub.federation.state().running ? ['activitypub'] : [],
      services: { inbound: [], outbound: [] },
      openRegistrations: false,
      usage: { users: { total: counts.channels, activeMonth: counts.channels, activeHalfyear: counts.channels }, localPosts: counts.posts },
      metadata: { nodeName: 'Hearth' },
    });
  });
}
