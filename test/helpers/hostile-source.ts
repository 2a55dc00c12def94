import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A source hub under the attacker's control, on 127.0.0.1, for channel imports: it answers the
 * native API calls an import makes (verify, channel/export/basic, files, photos, item/export_page,
 * filedata, photo) with whatever the test says, including answers no honest hub gives.
 */

type Json = Record<string, any>;

/** Answers one call: the JSON to send, or it writes the response itself (then returns undefined). */
export type Answer = (q: URLSearchParams, res: ServerResponse, req: IncomingMessage) => Json | unknown[] | undefined | Promise<Json | unknown[] | undefined>;

export interface HostileSourceSpec {
  /** The channel it claims to be: channel_* fields (hash, guid, address, name…). */
  channel?: Json;
  /** More of channel/export/basic (xchan, abook, profile…). */
  exportBasic?: Json;
  /** File and folder records (the files call). */
  files?: Json[];
  /** Photo scale records (the photos call). */
  photos?: Json[];
  /** File contents by hash, served through filedata in the chunks asked for. */
  fileBytes?: Record<string, Buffer | Uint8Array>;
  /** The items of item/export_page by page (from 0) and records asked. */
  page?: (page: number, records: number) => Json;
  /** Any call answered otherwise (path under api/z/1.0/). */
  answers?: Record<string, Answer>;
}

export interface HostileSource {
  url: string;
  /** Host and port, as in the addresses of its channels. */
  host: string;
  /** Paths (with query) asked for, in order. */
  requests: string[];
  channel: Json;
  close(): Promise<void>;
}

export const HOSTILE_USER = 'mallory';
export const HOSTILE_PASSWORD = 'hostile-source-pw';

/** A portable identity (an item's author or owner) as a Hubzilla export writes it. */
export function portable(who: { name: string; address: string; url?: string; guid?: string }): Json {
  return { name: who.name, address: who.address, url: who.url ?? '', network: 'zot6', id: who.guid ?? '', key: '', photo: { mimetype: 'image/png', src: '' } };
}

/** A public top-level post in the export form. */
export function post(base: string, author: Json, body: string, mid = `${base}/item/${randomUUID()}`): Json {
  return {
    message_id: mid, message_top: mid, message_parent: mid, created: '2026-11-20 10:00:00', edited: '2026-11-20 10:00:00',
    mimetype: 'text/bbcode', title: '', body, verb: 'http://activitystrea.ms/schema/1.0/post', object_type: 'http://activitystrea.ms/schema/1.0/note',
    item_wall: 1, allow_cid: '', allow_gid: '', deny_cid: '', deny_gid: '', public_scope: 'public', author, owner: author, flags: [],
  };
}

export async function startHostileSource(spec: HostileSourceSpec = {}): Promise<HostileSource> {
  const requests: string[] = [];
  let base = '';
  const channel: Json = {};
  const send = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const builtIn: Record<string, Answer> = {
    verify: () => ({ ...channel, xchan_addr: `${channel.channel_address}@${new URL(base).host}`, xchan_hash: channel.channel_hash }),
    'channel/export/basic': () => ({ channel, relocate: { url: base, channel_address: channel.channel_address }, xchan: [], abook: [], profile: [], ...spec.exportBasic }),
    files: () => ({ success: true, results: spec.files ?? [] }),
    photos: () => ({ success: true, photos: spec.photos ?? [] }),
    'item/export_page': (q) => spec.page?.(Number(q.get('page')), Number(q.get('records'))) ?? { items_total: 0, items_page: 0 },
    filedata: (q) => {
      const hash = q.get('file_id') ?? '';
      const bytes = spec.fileBytes?.[hash];
      if (!bytes) return {};
      const all = Buffer.from(bytes);
      const start = Number(q.get('start') || 0);
      const chunk = all.subarray(start, start + (Number(q.get('length')) || all.length));
      const record = spec.files?.find((f) => f.hash === hash) ?? {};
      return { attach: { ...record, filesize: all.length, content: chunk.toString('base64'), start, length: chunk.length } };
    },
    photo: () => ({}),
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url!, 'http://source');
    requests.push(url.pathname + url.search);
    const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    if (auth !== `${HOSTILE_USER}:${HOSTILE_PASSWORD}`) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="source"' });
      return res.end();
    }
    const path = url.pathname.replace(/^\/api\/z\/1\.0\//, '');
    const answer = spec.answers?.[path] ?? builtIn[path];
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end('{}');
    }
    const body = await answer(url.searchParams, res, req);
    if (body !== undefined) send(res, body);
  };
  const server: Server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(channel, {
    channel_id: 7, channel_address: HOSTILE_USER, channel_name: 'Mallory', channel_hash: `mallory-hash-${randomUUID()}`, channel_guid: `mallory-guid-${randomUUID()}`,
    ...spec.channel,
  });
  return {
    url: base,
    host: new URL(base).host,
    requests,
    channel,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
