import type { ApiRoute } from '../../../http/api.js';
import { mentionsRoute } from './mentions.js';

/** statuses/replies: the StatusNet name of statuses/mentions. */
export const repliesRoute: ApiRoute = { ...mentionsRoute, path: 'statuses/replies' };
