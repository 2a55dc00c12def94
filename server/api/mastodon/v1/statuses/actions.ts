import type { ApiRequest } from '../../../../http/api.js';
import type { MastodonRoute } from '../../admit.js';
import { HttpError } from '../../../../http/errors.js';
import { findItemByIconfig, getItem } from '../../../../store/items.js';
import { SHARE_ICONFIG } from '../../../../store/item-shares.js';
import { setActivity } from '../../../../services/items.js';
import { shareItem, unshareItem } from '../../../../services/compat/share.js';
import { setStar } from '../../../../services/compat/stars.js';
import { sharedItemId } from '../../../../services/compat/statuses.js';
import { setPinned, visibleItem } from '../../../../services/mastodon/posting.js';
import { VERB } from '../../../../services/verbs.js';
import type { ItemRow } from '../../../../store/rows.js';
import { pathId, statusOf } from '../../common.js';

/** A reblog stands for its original in Mastodon: actions on it act on the original. */
function target(req: ApiRequest): ItemRow {
  const item = visibleItem(req.hub, req.user().channel, pathId(req));
  const original = sharedItemId(item);
  return original !== undefined ? visibleItem(req.hub, req.user().channel, original) : item;
}

/** Turns the services' refusals into Mastodon's 422/403 where an app expects them. */
function run(fn: () => void): void {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw new HttpError(422, `Validation failed: ${err.message}`);
    throw err;
  }
}

function action(verb: string, scope: string, act: (req: ApiRequest, item: ItemRow) => ItemRow | void): MastodonRoute {
  return {
    path: `statuses/:id/${verb}`,
    methods: ['POST'],
    auth: 'user',
    scope,
    handler(req) {
      const item = target(req);
      let answer: ItemRow | void = undefined;
      run(() => {
        answer = act(req, item);
      });
      return statusOf(req, answer ?? getItem(req.hub.db, item.id)!);
    },
  };
}

/** favourite = like (the activity ext/activity/like and the UI's Like make). */
export const favouriteRoute = action('favourite', 'write:favourites', (req, item) => void setActivity(req.hub, req.user().channel, item.id, VERB.LIKE, true));
export const unfavouriteRoute = action('unfavourite', 'write:favourites', (req, item) => void setActivity(req.hub, req.user().channel, item.id, VERB.LIKE, false));

/** reblog = share (statuses/retweet's); answers the reblog wrapping the original. */
export const reblogRoute = action('reblog', 'write:statuses', (req, item) => {
  const me = req.user().channel;
  const existing = findItemByIconfig(req.hub.db, me.channel_id, SHARE_ICONFIG.cat, SHARE_ICONFIG.k, String(item.id));
  if (existing) return existing;
  if (req.params.str('visibility') && !['public', 'unlisted'].includes(req.params.str('visibility')!)) throw new HttpError(422, 'Validation failed: only public reblogs are possible');
  try {
    return shareItem(req.hub, me, item, 'Mastodon');
  } catch (err) {
    if (err instanceof HttpError && err.status === 403) throw new HttpError(422, 'Validation failed: only public posts can be reblogged');
    throw err;
  }
});
export const unreblogRoute = action('unreblog', 'write:statuses', (req, item) => void unshareItem(req.hub, req.user().channel, item));

/** bookmark = star (favorites/create of the microblog API). */
export const bookmarkRoute = action('bookmark', 'write:bookmarks', (req, item) => setStar(req.hub, req.user().channel, item, true));
export const unbookmarkRoute = action('unbookmark', 'write:bookmarks', (req, item) => setStar(req.hub, req.user().channel, item, false));

export const pinRoute = action('pin', 'write:accounts', (req, item) => setPinned(req.hub, req.user().channel, item, true));
export const unpinRoute = action('unpin', 'write:accounts', (req, item) => setPinned(req.hub, req.user().channel, item, false));
