import type { ApiRoute } from '../../http/api.js';
import { appsRoute } from './v1/apps.js';
import { appsVerifyCredentialsRoute } from './v1/apps/verify_credentials.js';
import { instanceRoute } from './v1/instance.js';
import { instanceV2Route } from './v2/instance.js';

/**
 * Routes under /api/v1. Fixed paths come before paths with a placeholder at the same place
 * (accounts/verify_credentials before accounts/:id): the first route that matches answers.
 */
export const mastodonV1Routes: ApiRoute[] = [instanceRoute, appsRoute, appsVerifyCredentialsRoute];

/** Routes under /api/v2. */
export const mastodonV2Routes: ApiRoute[] = [instanceV2Route];
