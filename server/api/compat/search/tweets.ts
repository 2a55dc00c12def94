import type { ApiRoute } from '../../../http/api.js';
import { searchRoute } from '../search.js';

/** search/tweets: the same as search. */
export const searchTweetsRoute: ApiRoute = { ...searchRoute, path: 'search/tweets' };
