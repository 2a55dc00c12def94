/**
 * The calls each client scenario must have made (and passed), by name or part of it: the ground
 * issue 18 asks every library to cover — the OAuth dance (PIN and callback), verify_credentials,
 * posting (plain, reply, with media through media/upload and update_with_media), the timelines,
 * show and destroy, retweets, favorites, direct messages through both APIs, friendships, friend and
 * follower ids and lists, users, search, lists and their statuses, and the rate limit status.
 */
export const TWEEPY_CALLS = [
  'get_access_token [PIN]', 'get_access_token [callback]', 'API.verify_credentials', 'API.update_status', 'update_status(in_reply_to_status_id)',
  'API.media_upload', 'update_status(media_ids) [media_upload]', 'media_upload(chunked=True)', 'get_media_upload_status', 'update_status(media_ids) [chunked upload]',
  'update_status_with_media', 'API.home_timeline', 'API.user_timeline', 'API.mentions_timeline', 'API.get_status', 'API.lookup_statuses', 'API.destroy_status',
  'API.retweet', 'API.get_retweets', 'API.unretweet', 'API.create_favorite', 'API.get_favorites', 'API.destroy_favorite',
  'send_direct_message [events/new]', 'get_direct_messages [events/list]', 'get_direct_message [events/show]', 'delete_direct_message [events/destroy]',
  'direct_messages/new) [legacy]', 'API.request(direct_messages) [legacy inbox]',
  'API.create_friendship', 'API.get_friendship', 'API.lookup_friendships', 'API.destroy_friendship', 'API.get_friend_ids', 'API.get_follower_ids',
  'API.get_friends', 'API.get_followers', 'API.get_user', 'API.lookup_users', 'API.search_users', 'API.search_tweets',
  'API.create_list', 'API.get_lists', 'API.get_list', 'API.update_list', 'API.add_list_member', 'API.get_list_members', 'API.list_timeline',
  'API.remove_list_member', 'API.get_list_ownerships', 'API.get_list_subscriptions', 'API.destroy_list', 'API.rate_limit_status', 'API.get_settings',
];

export const TWYTHON_CALLS = [
  'get_authorized_tokens [PIN]', 'get_authorized_tokens [callback]', 'Twython.verify_credentials', 'Twython.update_status', 'update_status(in_reply_to_status_id)',
  'Twython.upload_media', 'update_status(media_ids) [upload_media]', 'upload_video [INIT/APPEND/FINALIZE]', 'upload_media(command=STATUS)',
  'update_status(media_ids) [chunked upload]', 'upload_media(media_data) [base64]', 'update_status_with_media', 'Twython.get_home_timeline',
  'Twython.get_user_timeline', 'Twython.get_mentions_timeline', 'Twython.show_status', 'Twython.lookup_status', 'Twython.destroy_status',
  'Twython.retweet', 'Twython.get_retweets', 'statuses/unretweet', 'Twython.create_favorite', 'Twython.get_favorites', 'Twython.destroy_favorite',
  'send_direct_message [events/new]', 'get_direct_messages [events/list]', 'get_direct_message [events/show]', 'destroy_direct_message [events/destroy]',
  'direct_messages/new) [legacy]', 'get_sent_messages', 'get(direct_messages) [legacy inbox]',
  'Twython.create_friendship', 'Twython.show_friendship', 'Twython.lookup_friendships', 'Twython.destroy_friendship', 'Twython.get_friends_ids',
  'Twython.get_followers_ids', 'Twython.get_friends_list', 'Twython.get_followers_list', 'Twython.show_user', 'Twython.lookup_user', 'Twython.search_users',
  'Twython.search', 'Twython.create_list', 'Twython.show_lists', 'Twython.get_specific_list', 'Twython.update_list', 'Twython.add_list_member',
  'Twython.get_list_members', 'Twython.get_list_statuses', 'Twython.delete_list_member', 'Twython.show_owned_lists', 'Twython.get_list_subscriptions',
  'Twython.delete_list', 'get_application_rate_limit_status', 'Twython.get_account_settings',
];

export const NPM_CALLS = [
  'OAuth 1.0a dance', 'get account/verify_credentials', 'post statuses/update', '(in_reply_to_status_id)', 'post media/upload (media)',
  '(media_ids from media/upload)', 'media/upload (media_data, base64)', 'INIT, APPEND x2, FINALIZE', 'media/upload STATUS', 'post statuses/update_with_media',
  'get statuses/home_timeline', 'get statuses/user_timeline', 'get statuses/mentions_timeline', 'get statuses/show/:id', 'post statuses/destroy/:id',
  'post statuses/retweet/:id', 'get statuses/retweets/:id', 'post statuses/unretweet/:id', 'post favorites/create', 'get favorites/list', 'post favorites/destroy',
  'direct_messages/events/new', 'direct_messages/events/list', 'direct_messages/events/show', 'direct_messages/events/destroy', 'post direct_messages/new',
  'get direct_messages/sent', 'post friendships/create', 'get friendships/show', 'get friendships/lookup', 'post friendships/destroy', 'get friends/ids',
  'get followers/ids', 'get friends/list', 'get followers/list', 'get users/show', 'get users/lookup', 'get users/search', 'get search/tweets',
  'post lists/create', 'get lists/list', 'get lists/show', 'post lists/update', 'post lists/members/create', 'get lists/members', 'get lists/statuses',
  'post lists/members/destroy', 'post lists/destroy', 'get application/rate_limit_status',
];
