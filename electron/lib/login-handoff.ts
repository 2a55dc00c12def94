import type { Hub } from '../../server/hub.js';
import { HANDOFF_PATH, issueHandoffToken } from '../../server/web/handoff.js';
import { LOOPBACK_HOST } from './lan.js';

/**
 * Where the window lives: always the loopback address, whatever the LAN setting. Cookies belong
 * to a host, so the window's session survives LAN access being turned on and off.
 */
export function windowOrigin(hub: Hub): string {
  return `http://${LOOPBACK_HOST}:${hub.port}`;
}

/** Origins the window may show: its own and the hub's public base URL (the same hub). */
export function appOrigins(hub: Hub): string[] {
  return [...new Set([windowOrigin(hub), new URL(hub.baseUrl).origin])];
}

/**
 * The URL that opens the window on `path`, logged in as the owner (as `channelId` when given).
 * Before the hub has a channel it is the setup page.
 */
export function loginUrl(hub: Hub, opts: { path?: string; channelId?: number } = {}): string {
  const origin = windowOrigin(hub);
  const token = issueHandoffToken(hub, opts);
  return token ? `${origin}${HANDOFF_PATH}?token=${token}` : `${origin}/setup`;
}
