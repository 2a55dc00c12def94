import type { MastodonRoute } from '../admit.js';
import { restrictedTimeline } from '../../../store/item-timelines.js';
import { mastodonItemConfig } from '../../../store/mastodon.js';
import { conversationsWithUnread } from '../../../store/mail.js';
import { CONTENT_VERBS } from '../../../services/verbs.js';
import { fromAclString } from '../../../util/ids.js';
import { accountsOf, pageParams, readPage, setLinkHeader, statusesOf } from '../common.js';

/** GET /api/v1/conversations: the channel's direct messages (written by it or to it), one per thread, unread while its mailbox says so. */
export const conversationsRoute: MastodonRoute = {
  path: 'conversations',
  methods: ['GET'],
  auth: 'user',
  scope: 'read:statuses',
  handler(req) {
    const me = req.user().channel;
    const items = readPage(pageParams(req), (p) => restrictedTimeline(req.hub.db, me.channel_hash, CONTENT_VERBS, p));
    const conf = mastodonItemConfig(req.hub.db, items.map((i) => i.id));
    const direct = items.filter((i) => conf.get(i.id)?.visibility === 'direct');
    const statuses = statusesOf(req, direct);
    // Unread: the channel's mailbox holds messages of the thread it has not read.
    const unread = conversationsWithUnread(req.hub.db, me.channel_id, direct.map((i) => i.mid));
    setLinkHeader(req, direct.map((i) => i.id));
    return direct.map((item, n) => {
      const people = [item.author_xchan, ...fromAclString(item.allow_cid)].filter((h, k, all) => h !== me.channel_hash && all.indexOf(h) === k);
      return { id: String(item.id), unread: unread.has(item.mid), accounts: accountsOf(req, people), last_status: statuses[n] };
    });
  },
};
