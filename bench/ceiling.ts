/**
 * The ceiling: a bare Koa app with one route that answers a pre-serialised payload of a requested
 * size, i.e. what the HTTP stack alone can do on this machine. Run as a child process
 * (`node --import tsx bench/ceiling.ts`); it prints its URL.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import Koa from 'koa';

const SELF = fileURLToPath(import.meta.url);

export interface CeilingProcess {
  url: string;
  pid: number;
  /** Path answering `bytes` bytes of the content type. */
  path(bytes: number, type: 'json' | 'xml'): string;
  stop(): Promise<void>;
}

/** A JSON (or XML) document of exactly `bytes` bytes. */
function payload(bytes: number, type: string): Buffer {
  const [open, close] = type === 'xml' ? ['<?xml version="1.0" encoding="UTF-8"?>\n<p>', '</p>'] : ['{"p":"', '"}'];
  const fill = Math.max(0, bytes - open.length - close.length);
  return Buffer.from(open + 'x'.repeat(fill) + close);
}

async function serve(): Promise<void> {
  const cache = new Map<string, Buffer>();
  const app = new Koa();
  const router = new Router();
  router.get('/payload/:type/:bytes', (ctx) => {
    const key = `${ctx.params.type}/${ctx.params.bytes}`;
    let body = cache.get(key);
    if (!body) cache.set(key, (body = payload(Number(ctx.params.bytes), ctx.params.type!)));
    ctx.type = ctx.params.type === 'xml' ? 'text/xml' : 'application/json';
    ctx.body = body;
  });
  app.use(router.routes());
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  console.log(`ceiling at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

export async function startCeiling(): Promise<CeilingProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /ceiling at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`ceiling server exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    path: (bytes, type) => `/payload/${type}/${bytes}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (process.argv[1] === SELF) await serve();
