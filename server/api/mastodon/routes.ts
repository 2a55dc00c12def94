import type { MastodonRoute } from './admit.js';
import { appsRoute } from './v1/apps.js';
import { appsVerifyCredentialsRoute } from './v1/apps/verify_credentials.js';
import { instanceRoute } from './v1/instance.js';
import { verifyCredentialsRoute } from './v1/accounts/verify_credentials.js';
import { updateCredentialsRoute } from './v1/accounts/update_credentials.js';
import { lookupRoute } from './v1/accounts/lookup.js';
import { relationshipsRoute } from './v1/accounts/relationships.js';
import { familiarFollowersRoute } from './v1/accounts/familiar_followers.js';
import { accountsSearchRoute } from './v1/accounts/search.js';
import { accountShowRoute } from './v1/accounts/show.js';
import { accountStatusesRoute } from './v1/accounts/statuses.js';
import { followersRoute, followingRoute } from './v1/accounts/graph.js';
import { blockRoute, followRoute, muteRoute, unblockRoute, unfollowRoute, unmuteRoute } from './v1/accounts/actions.js';
import { followRequestsRoute } from './v1/follow_requests.js';
import { authorizeRequestRoute, rejectRequestRoute } from './v1/follow_requests/answer.js';
import { blocksRoute, mutesRoute } from './v1/blocks.js';
import { statusesCreateRoute } from './v1/statuses.js';
import { statusDeleteRoute, statusEditRoute, statusShowRoute } from './v1/statuses/show.js';
import { statusContextRoute } from './v1/statuses/context.js';
import {
  bookmarkRoute, favouriteRoute, pinRoute, reblogRoute, unbookmarkRoute, unfavouriteRoute, unpinRoute, unreblogRoute,
} from './v1/statuses/actions.js';
import { favouritedByRoute, rebloggedByRoute } from './v1/statuses/people.js';
import { statusHistoryRoute, statusSourceRoute } from './v1/statuses/history.js';
import { mediaShowRoute, mediaUpdateRoute, mediaV1Route } from './v1/media.js';
import { homeTimelineRoute } from './v1/timelines/home.js';
import { publicTimelineRoute, tagTimelineRoute } from './v1/timelines/public.js';
import { listTimelineRoute } from './v1/timelines/list.js';
import { bookmarksRoute, favouritesRoute } from './v1/bookmarks.js';
import { instanceV2Route } from './v2/instance.js';
import { notificationsRoute } from './v1/notifications.js';
import { notificationDismissRoute, notificationShowRoute, notificationsClearRoute } from './v1/notifications/show.js';
import { unreadCountRoute } from './v1/notifications/unread_count.js';
import { listCreateRoute, listsRoute } from './v1/lists.js';
import { listAccountsRoute, listAddAccountsRoute, listDeleteRoute, listRemoveAccountsRoute, listShowRoute, listUpdateRoute } from './v1/lists/show.js';
import { conversationsRoute } from './v1/conversations.js';
import { markersRoute, markersSaveRoute } from './v1/markers.js';
import {
  announcementsRoute, customEmojisRoute, domainBlocksRoute, endorsementsRoute, filtersV1Route, followedTagsRoute, preferencesRoute, scheduledStatusesRoute, trendsRoute,
} from './v1/misc.js';
import { filtersV2Route } from './v2/misc.js';
import { searchV2Route } from './v2/search.js';
import { sseRoutes } from './v1/streaming.js';
import { mediaV2Route } from './v2/media.js';
import { pushSubscribeRoute, pushSubscriptionRoute, pushSubscriptionUpdateRoute, pushUnsubscribeRoute } from './v1/push/subscription.js';
import { groupedNotificationsRoute, unreadGroupCountRoute } from './v2/notifications.js';
import { notificationGroupAccountsRoute, notificationGroupDismissRoute, notificationGroupRoute } from './v2/notifications/group.js';

/**
 * Routes under /api/v1, each with the scope a token needs. Fixed paths come before paths with a
 * placeholder at the same place (accounts/verify_credentials before accounts/:id): the first route
 * that matches answers. Routes of one path that serve different methods are mounted as one.
 */
export const mastodonV1Routes: MastodonRoute[] = [
  instanceRoute,
  appsRoute,
  appsVerifyCredentialsRoute,
  verifyCredentialsRoute,
  updateCredentialsRoute,
  lookupRoute,
  relationshipsRoute,
  familiarFollowersRoute,
  accountsSearchRoute,
  accountShowRoute,
  accountStatusesRoute,
  followersRoute,
  followingRoute,
  followRoute,
  unfollowRoute,
  blockRoute,
  unblockRoute,
  muteRoute,
  unmuteRoute,
  followRequestsRoute,
  authorizeRequestRoute,
  rejectRequestRoute,
  blocksRoute,
  mutesRoute,
  statusesCreateRoute,
  statusShowRoute,
  statusDeleteRoute,
  statusEditRoute,
  statusContextRoute,
  statusHistoryRoute,
  statusSourceRoute,
  favouriteRoute,
  unfavouriteRoute,
  reblogRoute,
  unreblogRoute,
  bookmarkRoute,
  unbookmarkRoute,
  pinRoute,
  unpinRoute,
  favouritedByRoute,
  rebloggedByRoute,
  mediaV1Route,
  mediaShowRoute,
  mediaUpdateRoute,
  homeTimelineRoute,
  publicTimelineRoute,
  tagTimelineRoute,
  listTimelineRoute,
  bookmarksRoute,
  favouritesRoute,
  notificationsRoute,
  notificationsClearRoute,
  unreadCountRoute,
  notificationShowRoute,
  notificationDismissRoute,
  listsRoute,
  listCreateRoute,
  listShowRoute,
  listUpdateRoute,
  listDeleteRoute,
  listAccountsRoute,
  listAddAccountsRoute,
  listRemoveAccountsRoute,
  conversationsRoute,
  markersRoute,
  markersSaveRoute,
  customEmojisRoute,
  preferencesRoute,
  filtersV1Route,
  announcementsRoute,
  followedTagsRoute,
  scheduledStatusesRoute,
  endorsementsRoute,
  domainBlocksRoute,
  trendsRoute,
  pushSubscribeRoute,
  pushSubscriptionRoute,
  pushSubscriptionUpdateRoute,
  pushUnsubscribeRoute,
  ...sseRoutes,
];

/** Routes under /api/v2. */
export const mastodonV2Routes: MastodonRoute[] = [
  instanceV2Route,
  mediaV2Route,
  searchV2Route,
  filtersV2Route,
  groupedNotificationsRoute,
  unreadGroupCountRoute,
  notificationGroupRoute,
  notificationGroupDismissRoute,
  notificationGroupAccountsRoute,
];
