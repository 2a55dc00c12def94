import type { ApiRoute } from '../../../http/api.js';
import { homeTimelineRoute } from './home_timeline.js';

/** statuses/friends_timeline: the older name of home_timeline. */
export const friendsTimelineRoute: ApiRoute = { ...homeTimelineRoute, path: 'statuses/friends_timeline' };
