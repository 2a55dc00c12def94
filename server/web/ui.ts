import type Router from '@koa/router';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hub } from '../hub.js';
import { countChannels } from '../store/channels.js';
import { page } from './page.js';

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

/**
 * The owner's UI: the built React app from dist/renderer, with index.html for every client-side
 * route. Before the first channel exists the web root leads to the setup page.
 */
export function mountUi(router: Router, hub: Hub): void {
  const root = RENDERER_DIST;
  router.get('/assets/:file', async (ctx) => {
    const file = normalize(join(root, 'assets', ctx.params.file!));
    if (!file.startsWith(join(root, 'assets') + sep) || !existsSync(file)) return;
    ctx.type = TYPES[extname(file)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = await readFile(file);
  });
  const spa = async (ctx: import('koa').Context) => {
    if (countChannels(hub.db) === 0 && !existsSync(join(root, 'index.html'))) return ctx.redirect('/setup');
    const index = join(root, 'index.html');
    if (existsSync(index) && (await stat(index)).isFile()) {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = await readFile(index);
      return;
    }
    ctx.type = 'html';
    ctx.body = page('Hearth', `<h1>Hearth is running</h1><p>The UI has not been built (run <code>npm run build</code>).</p>
<p>Native API: <code>${hub.baseUrl}/api/z/1.0/</code><br>Microblog API: <code>${hub.baseUrl}/api/</code></p>`);
  };
  router.get('/', spa);
  for (const p of ['/stream', '/photos{/*rest}', '/groups{/*rest}', '/notifications', '/connections{/*rest}', '/settings', '/settings/profile', '/settings/lan', '/channels', '/channels/import', '/item/:id', '/compose']) router.get(p, spa);
}
