/** The hub as a library: the desktop app, the command line and the tests all start it this way. */
export { createHub, type Hub, type HubOptions } from './hub.js';
export { defaultDataDir, DEFAULT_HOST, DEFAULT_PORT } from './paths.js';
