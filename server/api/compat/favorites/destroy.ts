import type { ApiRoute } from '../../../http/api.js';
import { starHandler } from './create.js';

/** favorites/destroy (also favorites/destroy/:id): removes the star. */
export const favoritesDestroyRoute: ApiRoute = {
  path: 'favorites/destroy',
  methods: ['POST', 'DELETE'],
  auth: 'user',
  idParam: true,
  handler: (req) => starHandler(req, false),
};
