import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../hub-context.js';
import { isHubHost } from './web.js';
import { upgradeTarget } from './request-target.js';

/** Serves an upgrade it knows (the WebSocket streams); false for a path it does not. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer, url: URL) => boolean;

/** Answers an upgrade request that is not taken with a plain HTTP error, and closes the connection. */
export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  if (!socket.destroyed && (socket as Partial<Socket>).bytesWritten === 0) {
    const body = JSON.stringify({ error: message });
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

/**
 * The server's 'upgrade' listener. Whatever a client sends, it ends only its own connection: a
 * foreign Host is refused as HTTP refuses it (421, DNS rebinding), a target that is no URL with 400,
 * a path without WebSocket with 404, and an error of the handler with 500 (logged). Exceptions never
 * leave it; thrown there they would end the process.
 */
export function upgradeListener(opts: { baseUrl: () => string; log: Logger; handle: UpgradeHandler }) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // The HTTP server stops listening for the socket's errors when it hands it over.
    socket.on('error', () => socket.destroy());
    try {
      if (!isHubHost(req.headers.host ?? '', opts.baseUrl())) return refuseUpgrade(socket, 421, 'This hub does not answer for that host');
      const url = upgradeTarget(req.url);
      if (!url) return refuseUpgrade(socket, 400, 'Malformed request target');
      if (!opts.handle(req, socket, head, url)) refuseUpgrade(socket, 404, 'Not found');
    } catch (err) {
      opts.log.error(`upgrade ${req.method} ${req.url}:`, err);
      refuseUpgrade(socket, 500, 'Internal error');
    }
  };
}
