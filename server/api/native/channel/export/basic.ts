import type { ApiRoute } from '../../../../http/api.js';
import { channelExportChunks, exportSections } from '../../../../services/channel-export.js';
import { chunkStream } from '../../../../util/json-stream.js';

/**
 * channel/export/basic: the channel's data for moving it to another hub. `sections` picks what
 * (default: channel, connections, config, apps, chatrooms, events, webpages, mail, wikis);
 * posts=true adds three months of posts. Streamed as it is read; never includes secrets.
 */
export const channelExportBasic: ApiRoute = {
  path: 'channel/export/basic',
  methods: ['GET', 'POST'],
  auth: 'user',
  handler({ ctx, hub, params, user }) {
    const sections = exportSections(params.list('sections'), params.bool('posts'));
    ctx.status = 200;
    ctx.type = 'application/json';
    ctx.body = chunkStream(channelExportChunks(hub, user().channel.channel_id, sections));
    return undefined;
  },
};
