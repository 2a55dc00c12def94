import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Phanpy's built static files: HEARTH_WEB_CLIENT_DIR, or test/vendor/phanpy. The build is not part
 * of the repository (code from a fetched snapshot, or a build of it, is never committed here); build
 * it from Phanpy's source with its own `npm ci && npm run build` and point the variable at dist/.
 */
export const PHANPY_DIR = process.env.HEARTH_WEB_CLIENT_DIR || fileURLToPath(new URL('../vendor/phanpy/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface WebClientServer {
  /** http://127.0.0.1:<port>, its own origin (not the hub's), as a deployed web client has. */
  url: string;
  close(): Promise<void>;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/**
 * Serves a built single-page web client from `root` on an ephemeral 127.0.0.1 port, as a static
 * host would: files as they are, a folder's index.html, and the app's index.html for any other
 * address (the SPA fallback). Only GET and HEAD.
 */
export async function serveWebClient(root = PHANPY_DIR): Promise<WebClientServer> {
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const target = normalize(join(root, path));
    if (!target.startsWith(root)) {
      res.writeHead(404).end();
      return;
    }
    let file = (await isFile(target)) ? target : join(target, 'index.html');
    if (!(await isFile(file))) {
      // A missing asset is missing; any other address is one of the app's routes.
      if (extname(path)) {
        res.writeHead(404).end();
        return;
      }
      file = join(root, 'index.html');
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
