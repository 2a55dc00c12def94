import type { ApiRoute } from '../../../http/api.js';
import { listSavedSearches } from '../../../store/channel-export.js';
import { compatSavedSearch } from '../../../serializers/compat/saved-search.js';
import { reply } from '../reply.js';

/** saved_searches/list: the caller's saved searches (no parameters). */
export const savedSearchesListRoute: ApiRoute = {
  path: 'saved_searches/list',
  methods: '*',
  auth: 'user',
  handler: (req) => reply(listSavedSearches(req.hub.db, req.user().channel.channel_id).map(compatSavedSearch), 'saved_searches', { itemName: 'saved_search' }),
};
