import type { ApiRoute } from '../../../http/api.js';
import { mentionsRoute } from './mentions.js';

/** statuses/mentions_timeline: Twitter v1.1's name of statuses/mentions. */
export const mentionsTimelineRoute: ApiRoute = { ...mentionsRoute, path: 'statuses/mentions_timeline' };
