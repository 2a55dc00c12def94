import type { ApiRoute } from '../../http/api.js';
import { extNotifications } from './ext/notifications.js';
import { extNotificationSeen, extNotificationsSeen } from './ext/notifications/seen.js';
import { extProfileShow } from './ext/profile/show.js';
import { helpTest } from './help/test.js';
import { oauthAccessToken } from './oauth/access_token.js';
import { oauthRequestToken } from './oauth/request_token.js';

/** Every route of the compatibility API (api/ and api/1.1/), one module per path. */
export const compatRoutes: ApiRoute[] = [helpTest, oauthRequestToken, oauthAccessToken, extNotifications, extNotificationsSeen, extNotificationSeen, extProfileShow];
