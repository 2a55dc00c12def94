import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { dnsLookup, isPublicIp, type HostLookup } from './public-address.js';

/**
 * A DNS lookup for the socket that judges the addresses it hands over: the addresses connected to
 * are the ones checked, so a name cannot answer a public address to the check before the request
 * and this machine's to the connection (DNS rebinding).
 */
function checkedLookup(insecure: boolean, resolve: HostLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const bad = insecure ? undefined : addresses.find((a) => !isPublicIp(a));
        if (!addresses.length || bad) {
          const reason = bad ? `${hostname} resolves to ${bad}, which is not a public address` : `${hostname} does not resolve`;
          return callback(Object.assign(new Error(reason), { code: 'ENOTFOUND' }), '', 0);
        }
        const list = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) return (callback as unknown as (err: null, all: typeof list) => void)(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/**
 * Sends a request (its body too) over node's http(s), never following a redirect, obeying the
 * request's signal, and connecting only to addresses the rules allow. Without an agent every
 * request has a connection of its own; agents keep them (their sockets were connected to
 * addresses this lookup allowed).
 */
export function pinnedTransport(insecure: boolean, resolve: HostLookup = dnsLookup, agents?: { http: http.Agent; https: https.Agent }): (request: Request) => Promise<Response> {
  const lookup = checkedLookup(insecure, resolve);
  return async (request) => {
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : Buffer.from(await request.arrayBuffer());
    return new Promise((resolveResponse, reject) => {
      const url = new URL(request.url);
      const headers = Object.fromEntries(request.headers);
      if (body) headers['content-length'] = String(body.length);
      const secure = url.protocol === 'https:';
      const client = secure ? https : http;
      const req = client.request(url, { method: request.method, headers, lookup, signal: request.signal, agent: agents ? (secure ? agents.https : agents.http) : false }, (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 599) {
          res.destroy();
          return reject(new Error(`${url.href} answered an invalid status ${status}`));
        }
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answerHeaders.append(name, v);
        const empty = status === 204 || status === 304 || request.method === 'HEAD';
        if (empty) res.resume();
        resolveResponse(new Response(empty ? null : (Readable.toWeb(res) as NodeReadableStream<Uint8Array> as ReadableStream<Uint8Array>), { status, headers: answerHeaders }));
      });
      req.on('error', reject);
      req.end(body);
    });
  };
}
