import type { ApiRoute } from '../../http/api.js';
import { rateLimitStatus } from './account/rate_limit_status.js';
import { updateProfileRoute } from './account/update_profile.js';
import { verifyCredentials } from './account/verify_credentials.js';
import { blocksListRoute } from './blocks/list.js';
import { compatConfigRoute } from './compat/config.js';
import { compatConversationRoute } from './compat/conversation.js';
import { compatVersionRoute } from './compat/version.js';
import { conversationShowRoute } from './conversation/show.js';
import { externalProfileShowRoute } from './externalprofile/show.js';
import { favoritesRoute } from './favorites.js';
import { favoritesCreateRoute } from './favorites/create.js';
import { favoritesDestroyRoute } from './favorites/destroy.js';
import { followersIdsRoute } from './followers/ids.js';
import { friendsIdsRoute } from './friends/ids.js';
import { friendshipsCreateRoute } from './friendships/create.js';
import { friendshipsDestroyRoute } from './friendships/destroy.js';
import { friendshipsIncomingRoute } from './friendships/incoming.js';
import { friendshipsShowRoute } from './friendships/show.js';
import { listsCreateRoute } from './lists/create.js';
import { listsDestroyRoute } from './lists/destroy.js';
import { listsOwnershipsRoute } from './lists/ownerships.js';
import { listStatusesRoute } from './lists/statuses.js';
import { listsUpdateRoute } from './lists/update.js';
import { mediaUploadRoute } from './media/upload.js';
import { savedSearchesListRoute } from './saved_searches/list.js';
import { searchRoute } from './search.js';
import { searchTweetsRoute } from './search/tweets.js';
import { statusesDestroyRoute } from './statuses/destroy.js';
import { statusesFollowersRoute } from './statuses/followers.js';
import { statusesFriendsRoute } from './statuses/friends.js';
import { friendsTimelineRoute } from './statuses/friends_timeline.js';
import { homeTimelineRoute } from './statuses/home_timeline.js';
import { mentionsRoute } from './statuses/mentions.js';
import { mentionsTimelineRoute } from './statuses/mentions_timeline.js';
import { networkPublicTimelineRoute } from './statuses/networkpublic_timeline.js';
import { publicTimelineRoute } from './statuses/public_timeline.js';
import { repliesRoute } from './statuses/replies.js';
import { statusesRetweetRoute } from './statuses/retweet.js';
import { statusesShowRoute } from './statuses/show.js';
import { statusesUpdate } from './statuses/update.js';
import { statusesUpdateWithMedia } from './statuses/update_with_media.js';
import { userTimelineRoute } from './statuses/user_timeline.js';
import { usersLookupRoute } from './users/lookup.js';
import { usersSearchRoute } from './users/search.js';
import { usersShowRoute } from './users/show.js';
import { directMessagesAll } from './direct_messages/all.js';
import { directMessagesConversation } from './direct_messages/conversation.js';
import { directMessagesDestroy } from './direct_messages/destroy.js';
import { directMessages } from './direct_messages/index.js';
import { directMessagesNew } from './direct_messages/new.js';
import { directMessagesSent } from './direct_messages/sent.js';
import { extDirectMessagesSearch } from './ext/direct_messages_search.js';
import { extDirectMessagesSetseen } from './ext/direct_messages_setseen.js';
import { extActivity } from './ext/activity.js';
import { extGroupCreate } from './ext/group_create.js';
import { extGroupDelete } from './ext/group_delete.js';
import { extGroupShow } from './ext/group_show.js';
import { extGroupUpdate } from './ext/group_update.js';
import { extNotifications } from './ext/notifications.js';
import { extNotificationSeen, extNotificationsSeen } from './ext/notifications/seen.js';
import { extProfileShow } from './ext/profile/show.js';
import { helpTest } from './help/test.js';
import { oauthAccessToken } from './oauth/access_token.js';
import { oauthRequestToken } from './oauth/request_token.js';
import { extPhoto } from './ext/photo.js';
import { extPhotosList } from './ext/photos/list.js';
import { extPhotoCreate } from './ext/photo/create.js';
import { extPhotoUpdate } from './ext/photo/update.js';
import { extPhotoDelete } from './ext/photo/delete.js';
import { extPhotoalbumUpdate } from './ext/photoalbum/update.js';
import { extPhotoalbumDelete } from './ext/photoalbum/delete.js';
import { extPhotoalbumPosts } from './ext/photoalbum/posts.js';
import { extPhotoPosts } from './ext/photo/posts.js';
import { updateProfileImageRoute } from './account/update_profile_image.js';
import { favoritesListRoute } from './favorites/list.js';
import { listsListRoute } from './lists/list.js';
import { listsShowRoute } from './lists/show.js';
import { listsMembersRoute } from './lists/members.js';
import { listsMembersCreateRoute } from './lists/members/create.js';
import { listsMembersDestroyRoute } from './lists/members/destroy.js';
import { listsSubscriptionsRoute } from './lists/subscriptions.js';
import { applicationRateLimitStatus } from './application/rate_limit_status.js';
import { statusesUnretweetRoute } from './statuses/unretweet.js';
import { statusesRetweetsRoute } from './statuses/retweets.js';
import { statusesLookupRoute } from './statuses/lookup.js';
import { friendsListRoute } from './friends/list.js';
import { followersListRoute } from './followers/list.js';
import { friendshipsLookupRoute } from './friendships/lookup.js';
import { accountSettingsRoute } from './account/settings.js';
import { helpConfigurationRoute } from './help/configuration.js';
import { directMessagesEventsList } from './direct_messages/events/list.js';
import { directMessagesEventsShow } from './direct_messages/events/show.js';
import { directMessagesEventsNew } from './direct_messages/events/new.js';
import { directMessagesEventsDestroy } from './direct_messages/events/destroy.js';
import { mutesUsersIdsRoute } from './mutes/users/ids.js';
import { mutesUsersListRoute } from './mutes/users/list.js';
import { blocksIdsRoute } from './blocks/ids.js';

/** Every route of the compatibility API (api/ and api/1.1/), one module per path. */
export const compatRoutes: ApiRoute[] = [helpTest, oauthRequestToken, oauthAccessToken, extNotifications, extNotificationsSeen, extNotificationSeen, extProfileShow,
  directMessages, directMessagesAll, directMessagesSent, directMessagesConversation, directMessagesNew, directMessagesDestroy, extDirectMessagesSetseen, extDirectMessagesSearch,
  extActivity, extGroupShow, extGroupCreate, extGroupUpdate, extGroupDelete,
  // Accounts, timelines, statuses, users, graph, lists, media, site info.
  verifyCredentials, rateLimitStatus, updateProfileRoute, homeTimelineRoute, friendsTimelineRoute, publicTimelineRoute, networkPublicTimelineRoute,
  userTimelineRoute, mentionsRoute, repliesRoute, mentionsTimelineRoute, conversationShowRoute, compatConversationRoute, listStatusesRoute,
  statusesUpdate, statusesUpdateWithMedia, statusesDestroyRoute, statusesRetweetRoute, statusesShowRoute, searchRoute, searchTweetsRoute,
  favoritesRoute, favoritesCreateRoute, favoritesDestroyRoute, usersShowRoute, usersLookupRoute, usersSearchRoute, externalProfileShowRoute,
  followersIdsRoute, friendsIdsRoute, statusesFollowersRoute, statusesFriendsRoute, friendshipsIncomingRoute, blocksListRoute,
  friendshipsCreateRoute, friendshipsDestroyRoute, friendshipsShowRoute, listsOwnershipsRoute, listsCreateRoute, listsUpdateRoute, listsDestroyRoute,
  savedSearchesListRoute, mediaUploadRoute, compatConfigRoute, compatVersionRoute,
  // Twitter v1.1 paths that Friendica lacks.
  favoritesListRoute, listsListRoute, listsShowRoute, listsMembersRoute, listsMembersCreateRoute, listsMembersDestroyRoute, listsSubscriptionsRoute,
  applicationRateLimitStatus, statusesUnretweetRoute, statusesRetweetsRoute, statusesLookupRoute, friendsListRoute, followersListRoute,
  friendshipsLookupRoute, accountSettingsRoute, helpConfigurationRoute, directMessagesEventsList, directMessagesEventsShow,
  directMessagesEventsNew, directMessagesEventsDestroy, mutesUsersIdsRoute, mutesUsersListRoute, blocksIdsRoute,
  // Photos and files.
  extPhoto, extPhotosList, extPhotoCreate, extPhotoUpdate, extPhotoDelete, extPhotoPosts, extPhotoalbumUpdate, extPhotoalbumDelete, extPhotoalbumPosts,
  updateProfileImageRoute,
];
