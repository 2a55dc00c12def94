import type Router from '@koa/router';
import type { Hub } from '../hub.js';
import { mountAuthPages } from './auth-pages.js';
import { mountChannelCreate } from './channel-create.js';
import { mountChannelImport } from './channel-import.js';
import { mountFiles } from './files.js';
import { mountHandoff } from './handoff.js';
import { mountOAuthAuthorize } from './oauth-authorize.js';
import { mountOAuthSettings } from './oauth-settings.js';
import { mountPasswordSettings } from './password-settings.js';
import { mountUi } from './ui.js';

/** The hub's web pages (setup, login, settings) and the owner's UI, besides the two APIs. */
export function mountWeb(router: Router, hub: Hub): void {
  mountAuthPages(router, hub);
  mountChannelCreate(router, hub);
  mountChannelImport(router, hub);
  mountFiles(router, hub);
  mountHandoff(router, hub);
  mountOAuthAuthorize(router, hub);
  mountOAuthSettings(router, hub);
  mountPasswordSettings(router, hub);
  mountUi(router, hub);
}
