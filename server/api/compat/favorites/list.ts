import type { ApiRoute } from '../../../http/api.js';
import { favoritesRoute } from '../favorites.js';

/** favorites/list: Twitter v1.1's name of favorites. */
export const favoritesListRoute: ApiRoute = { ...favoritesRoute, path: 'favorites/list' };
