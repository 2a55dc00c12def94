import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';

export interface SelfSignedCert {
  key: string;
  cert: string;
  /** The certificate's file, for clients that take a CA bundle path (REQUESTS_CA_BUNDLE). */
  certFile: string;
}

/** A fresh self-signed certificate for 127.0.0.1 and localhost, made with openssl in `dir`. */
export async function selfSignedCert(dir: string): Promise<SelfSignedCert> {
  const keyFile = join(dir, 'proxy-key.pem');
  const certFile = join(dir, 'proxy-cert.pem');
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-keyout', keyFile, '-out', certFile, '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ]);
  return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8'), certFile };
}

function forwardedFor(req: IncomingMessage): string {
  return [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
}

export interface TlsProxy {
  port: number;
  /** The backend (hub) port; requests before it is set get 502. */
  target: number | undefined;
  /** Told of every answer the backend gave through the proxy (to log what a client was told). */
  onAnswer?: (method: string, url: string, status: number) => void;
  close(): Promise<void>;
}

/**
 * A TLS-terminating reverse proxy on 127.0.0.1, as Caddy or nginx would run in front of the hub:
 * it keeps the Host header, appends the client's address to X-Forwarded-For and says
 * X-Forwarded-Proto: https, and passes WebSocket upgrades through.
 */
export async function startTlsProxy(cert: SelfSignedCert): Promise<TlsProxy> {
  const proxy: TlsProxy = { port: 0, target: undefined, close: async () => {} };
  const server: Server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    if (!proxy.target) {
      res.writeHead(502).end('no backend');
      return;
    }
    const upstream = httpRequest(
      { host: '127.0.0.1', port: proxy.target, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': forwardedFor(req), 'x-forwarded-proto': 'https' } },
      (up) => {
        proxy.onAnswer?.(req.method ?? '', req.url ?? '', up.statusCode ?? 502);
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // WebSocket upgrades (the streaming APIs) are passed through as they are.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    if (!proxy.target) return socket.destroy();
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    const upstream = connect(proxy.target, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        if (!/^x-forwarded-(for|proto)$/i.test(req.rawHeaders[i]!)) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      lines.push(`X-Forwarded-For: ${forwardedFor(req)}`, 'X-Forwarded-Proto: https', '', '');
      upstream.write(lines.join('\r\n'));
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
    });
  return proxy;
}
