import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

/**
 * Loopback addresses other than 127.0.0.1 reach a hub bound to 127.0.0.1 (Linux routes all of
 * 127/8 to lo), and the hub sees them as the peer: other devices on the LAN, for tests.
 */
export const LAN_ATTACKER = '127.0.0.2';
export const LAN_OWNER = '127.0.0.3';

export interface RawConnection {
  socket: Socket;
  /** The status and head of the first answer, or 'closed' when the connection ended (or failed) before one. */
  head: Promise<{ status: number; head: string } | 'closed'>;
  /** Everything the server sent, once the connection is closed. */
  closed: Promise<string>;
}

/** A TCP connection to the hub from `localAddress`, sending `text` once connected. */
export function rawConnection(baseUrl: string, text: string | Buffer, localAddress = '127.0.0.1'): RawConnection {
  const url = new URL(baseUrl);
  const socket = connect({ host: url.hostname, port: Number(url.port), localAddress });
  socket.on('connect', () => socket.write(text));
  let data = Buffer.alloc(0);
  let onHead: (h: { status: number; head: string } | 'closed') => void = () => undefined;
  const head = new Promise<{ status: number; head: string } | 'closed'>((resolve) => (onHead = resolve));
  socket.on('data', (chunk: Buffer) => {
    data = Buffer.concat([data, chunk]);
    const end = data.indexOf('\r\n\r\n');
    if (end < 0) return;
    const text = data.subarray(0, end).toString('latin1');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
    onHead(m ? { status: Number(m[1]), head: text } : 'closed');
  });
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => {
      onHead('closed');
      resolve(data.toString('latin1'));
    }),
  );
  return { socket, head, closed };
}

/** An HTTP request from `localAddress` on a connection of its own; rejects when the connection fails. */
export function httpFrom(localAddress: string, baseUrl: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: init.method ?? 'GET', headers: init.headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A WebSocket handshake request for `target`, as a client sends it. */
export function upgradeRequest(target: string, host: string, headers: Record<string, string> = {}): string {
  const all: Record<string, string> = { Host: host, Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers };
  return `GET ${target} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}
