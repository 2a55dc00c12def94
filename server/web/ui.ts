import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hub } from '../hub-context.js';
import { HttpError } from '../http/errors.js';
import { countChannels } from '../store/channels.js';
import { page } from './page.js';
import { sendAsset } from './static-asset.js';

/** Where `vite build` puts the renderer. */
export const RENDERER_DIST = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Addresses of the UI's own pages; anything else a browser asks for gets the app's "nothing here" page with status 404. */
const APP_PAGES = [
  '/stream', '/photos{/*rest}', '/files{/*rest}', '/groups{/*rest}', '/notifications', '/connections{/*rest}', '/settings', '/settings/profile', '/settings/lan', '/settings/federation', '/settings/backups', '/settings/storage', '/settings/oauth{/}', '/channels', '/channels/import', '/channels/new', '/item/:id', '/compose', '/search', '/tags/:tag', '/messages{/:nick}',
  // URLs the APIs hand out: llink (/display/<mid>), plink and profile (/channel/<nick>), a follow
  // link (xchan_follow), a channel's contacts (xchan_connurl), a direct message's notification.
  '/display/:mid', '/channel/:nick{/}', '/follow', '/poco/:nick', '/mail/:id',
];

/** Sends the app (index.html) with this status, or says the UI is not built. */
export async function sendApp(ctx: Context, hub: Hub, status = 200): Promise<void> {
  const index = join(RENDERER_DIST, 'index.html');
  ctx.status = status;
  ctx.type = 'html';
  if (existsSync(index) && (await stat(index)).isFile()) return sendAsset(ctx, index, { type: TYPES['.html']!, cacheControl: 'no-cache' });
  ctx.body = page(status === 404 ? 'Not found' : 'Hearth', `<h1>${status === 404 ? 'There is nothing at this address' : 'Hearth is running'}</h1><p>The UI has not been built (run <code>npm run build</code>).</p>
<p>Native API: <code>${hub.baseUrl}/api/z/1.0/</code><br>Microblog API: <code>${hub.baseUrl}/api/</code></p>`);
}

/**
 * The owner's UI: the built React app from dist/renderer, with index.html for every client-side
 * route. Before the first channel exists the web root leads to the setup page.
 */
export function mountUi(router: Router, hub: Hub): void {
  const root = RENDERER_DIST;
  router.get('/assets/:file', async (ctx) => {
    const file = normalize(join(root, 'assets', ctx.params.file!));
    if (!file.startsWith(join(root, 'assets') + sep) || !existsSync(file)) return;
    await sendAsset(ctx, file, { type: TYPES[extname(file)] ?? 'application/octet-stream', cacheControl: 'public, max-age=31536000, immutable' });
  });
  // The site logo the microblog API's config names.
  router.get('/favicon.ico', async (ctx) => {
    const file = join(root, 'favicon.ico');
    if (!existsSync(file)) return;
    await sendAsset(ctx, file, { type: 'image/x-icon', cacheControl: 'public, max-age=86400' });
  });
  const spa = async (ctx: Context) => {
    if (countChannels(hub.db) === 0 && !existsSync(join(root, 'index.html'))) return ctx.redirect('/setup');
    await sendApp(ctx, hub);
  };
  router.get('/', spa);
  for (const p of APP_PAGES) router.get(p, spa);
}

/** Whether a browser is asking for a page (not a script, an image or an API client). */
function wantsPage(ctx: Context): boolean {
  return (ctx.method === 'GET' || ctx.method === 'HEAD') && !ctx.path.startsWith('/api/') && /\btext\/html\b/.test(ctx.get('accept'));
}

/**
 * A page a browser asks for that does not exist (no route, or a photo, file or item that is not
 * there) gets the app, which shows its own "nothing here" page, with status 404.
 */
export function appNotFound(hub: Hub) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof HttpError && err.status === 404 && wantsPage(ctx))) throw err;
      return sendApp(ctx, hub, 404);
    }
    if (ctx.status === 404 && ctx.body == null && wantsPage(ctx)) await sendApp(ctx, hub, 404);
  };
}
