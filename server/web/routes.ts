import type Router from '@koa/router';
import type { Hub } from '../hub-context.js';
import { mountAuthPages } from './auth-pages.js';
import { mountBackupSettings } from './backup-settings.js';
import { mountChannelCreate } from './channel-create.js';
import { mountChannelImport } from './channel-import.js';
import { mountDiscovery } from './discovery.js';
import { mountFederationSettings } from './federation-settings.js';
import { mountFiles } from './files.js';
import { mountHandoff } from './handoff.js';
import { mountLanSettings } from './lan-settings.js';
import { mountNodeinfo } from './nodeinfo.js';
import { mountOAuth2Authorize } from './oauth2-authorize.js';
import { mountOAuth2Token } from './oauth2-token.js';
import { mountOAuthAuthorize } from './oauth-authorize.js';
import { mountOAuthSettings } from './oauth-settings.js';
import { mountPasswordSettings } from './password-settings.js';
import { mountStorageSettings } from './storage-settings.js';
import { mountUi } from './ui.js';

/** The hub's web pages (setup, login, settings) and the owner's UI, besides the two APIs. */
export function mountWeb(router: Router, hub: Hub): void {
  mountAuthPages(router, hub);
  mountBackupSettings(router, hub);
  mountChannelCreate(router, hub);
  mountChannelImport(router, hub);
  mountDiscovery(router, hub);
  mountFederationSettings(router, hub);
  mountFiles(router, hub);
  mountHandoff(router, hub);
  mountLanSettings(router, hub);
  mountNodeinfo(router, hub);
  // Before OAuth 1.0a's page at the same path: it passes on what is not OAuth 2.
  mountOAuth2Authorize(router, hub);
  mountOAuth2Token(router, hub);
  mountOAuthAuthorize(router, hub);
  mountOAuthSettings(router, hub);
  mountPasswordSettings(router, hub);
  mountStorageSettings(router, hub);
  mountUi(router, hub);
}
