import type { Context } from 'koa';
import { getConfig } from '../../store/config.js';

/** The site setting (config system.jsonp = 1) that lets old clients read JSON through a script tag. */
export const JSONP_SETTING = { cat: 'system', k: 'jsonp' } as const;

/**
 * The `callback=` name to wrap a JSON answer in, or undefined. JSONP is off unless the setting is
 * on: any page on the web may load a script from the hub, and a script tag sends the browser's
 * stored credentials with it.
 */
export function jsonpCallback(ctx: Context, callback: string | undefined): string | undefined {
  if (!callback || !/^[A-Za-z_$][\w$.]{0,63}$/.test(callback)) return undefined;
  return getConfig(ctx.hub.db, JSONP_SETTING.cat, JSONP_SETTING.k) === '1' ? callback : undefined;
}
