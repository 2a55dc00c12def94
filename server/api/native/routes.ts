import type { ApiRoute } from '../../http/api.js';
import { version } from './version.js';

/** Every route of the native API (api/z/1.0), one module per path. */
export const nativeRoutes: ApiRoute[] = [version];
