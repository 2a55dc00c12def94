import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { Manifest } from './seed.js';
import type { RequestSpec } from './load.js';
import { PORTABLE_COLUMNS, portableMids, STATUS_COLUMNS, statusIds, type FloorSpec } from './floor.js';

export type EndpointKind = 'read' | 'write' | 'throughput';

export interface Endpoint {
  name: string;
  kind: EndpointKind;
  /** Content type of the answer, for the ceiling payload. */
  format: 'json' | 'xml';
  spec: RequestSpec;
  /** Fewer concurrent clients than the default (the big uploads). */
  connections?: number;
  /**
   * Each request takes long (the uploads): no warm-up, whose requests still in flight would be
   * processed during the measured run; runs of at least 8 s; a tenth of the requests when counted.
   */
  slow?: boolean;
  /** Reads: how to measure the floor of an answer (floor.ts); without it no floor is reported. */
  floor?: FloorSpec;
}

export const MiB = 1024 * 1024;
export const CHUNK = MiB;

export function basicAuth(login: string, password: string): string {
  return 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');
}

function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A multipart/form-data body with text fields and one file. */
export function multipart(fields: Record<string, string>, file: { field: string; filename: string; type: string; data: Buffer }) {
  const boundary = `----hearthbench${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A JPEG that compresses like a photo (4000×3000: a few MB): a gradient scene with fine noise, the
 * way sensor output looks to the encoder.
 */
export async function photoJpeg(width = 4000, height = 3000): Promise<Buffer> {
  const scene = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 4000 3000" preserveAspectRatio="none"><defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b8cc9"/><stop offset="0.6" stop-color="#d8e4ef"/><stop offset="1" stop-color="#4d6b3a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#s)"/><circle cx="2900" cy="700" r="260" fill="#fff3c4"/><path d="M0 2200 L900 1500 L1700 2100 L2600 1300 L4000 2300 L4000 3000 L0 3000 Z" fill="#3d5230"/></svg>`,
  );
  const base = await sharp(scene).removeAlpha().raw().toBuffer();
  const noise = await sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 18 } } }).raw().toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, base[i]! + noise[i]! - 128));
  return sharp(base, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/**
 * A bearer token of the Mastodon API for the owner: an app registers and uses the password grant,
 * as a command-line client does.
 */
export async function mastodonToken(url: string, m: Manifest): Promise<string> {
  const app = (await (await fetch(`${url}/api/v1/apps`, { method: 'POST', body: new URLSearchParams({ client_name: 'hearth-bench', redirect_uris: 'urn:ietf:wg:oauth:2.0:oob', scopes: 'read write' }) })).json()) as { client_id: string; client_secret: string };
  const res = await fetch(`${url}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret, username: m.owner, password: m.password, scope: 'read write' }) });
  const token = ((await res.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error(`no Mastodon token for the bench (${res.status})`);
  return token;
}

/** Every endpoint the benchmark loads, against a seeded hub. */
export function endpoints(m: Manifest, photo: Buffer, bearer = ''): Endpoint[] {
  const auth = { authorization: basicAuth(m.owner, m.password) };
  const formHeaders = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };
  const others = m.channels.filter((c) => c.nick !== m.owner).map((c) => c.nick);
  const upload = multipart({ album: 'Bench uploads', desc: 'A photo from a phone' }, { field: 'media', filename: 'IMG_0001.jpg', type: 'image/jpeg', data: photo });
  const chunks = Math.max(1, Math.floor(m.bigFile.size / CHUNK));
  const get = (path: string): RequestSpec => ({ method: 'GET', path, headers: auth });
  const statuses = (jsonPath?: string): FloorSpec => ({ columns: STATUS_COLUMNS, keys: statusIds, jsonPath });
  const portable: FloorSpec = { columns: PORTABLE_COLUMNS, keys: portableMids };
  const mirror: FloorSpec = { columns: '*', keys: portableMids };
  // channel/stream shows the 201 oldest threads active since mindate: by default the last 14 days
  // (a few hundred items outside the page), or since the first seeded item (the whole channel).
  const dataStart = new Date(Date.parse(m.createdAt) - (m.size.years * 365 + 2) * 86400_000).toISOString().slice(0, 10);
  // The huge set's owner also keeps the posts it received, which its export leaves out.
  const ownItems = m.huge?.exportItems ?? m.items.perChannel[m.owner] ?? 0;
  const exportPage = Math.max(0, Math.floor(ownItems / 2 / 200));
  const home200 = '/api/statuses/home_timeline.json?count=200';
  return [
    { name: 'home_timeline.json', kind: 'read', format: 'json', spec: get('/api/statuses/home_timeline.json?count=20'), floor: statuses() },
    { name: 'home_timeline.xml', kind: 'read', format: 'xml', spec: get('/api/statuses/home_timeline.xml?count=20'), floor: statuses('/api/statuses/home_timeline.json?count=20') },
    { name: 'home_timeline.json 200', kind: 'read', format: 'json', spec: get(home200), floor: statuses() },
    { name: 'home_timeline.xml 200', kind: 'read', format: 'xml', spec: get('/api/statuses/home_timeline.xml?count=200'), floor: statuses(home200) },
    { name: 'user_timeline', kind: 'read', format: 'json', spec: get('/api/statuses/user_timeline.json?count=20'), floor: statuses() },
    { name: 'search', kind: 'read', format: 'json', spec: get(`/api/search.json?q=${encodeURIComponent(m.searchWord)}`), floor: statuses() },
    // One letter begins thousands of indexed words: a search as someone starts typing.
    { name: 'search 1 letter', kind: 'read', format: 'json', spec: get(`/api/search.json?q=${encodeURIComponent(m.searchWord[0]!)}`), floor: statuses() },
    { name: 'network/stream', kind: 'read', format: 'json', spec: get('/api/z/1.0/network/stream'), floor: portable },
    { name: 'network/stream 100', kind: 'read', format: 'json', spec: get('/api/z/1.0/network/stream?records=100'), floor: portable },
    { name: 'channel/stream', kind: 'read', format: 'json', spec: get('/api/z/1.0/channel/stream'), floor: portable },
    { name: 'channel/stream all', kind: 'read', format: 'json', spec: get(`/api/z/1.0/channel/stream?mindate=${dataStart}`), floor: portable },
    { name: 'item/export_page', kind: 'read', format: 'json', spec: get(`/api/z/1.0/item/export_page?records=200&page=${exportPage}`), floor: mirror },
    // The Mastodon API's home timeline, 40 statuses a page (what apps ask for); never cached.
    { name: 'api/v1/timelines/home', kind: 'read', format: 'json', spec: { method: 'GET', path: '/api/v1/timelines/home?limit=40', headers: { authorization: `Bearer ${bearer}` } }, floor: statuses() },
    // Hubzilla's importers ask for every file at once (records 0), so this answer grows with the store;
    // 'files 100' is a page of it.
    { name: 'files', kind: 'read', format: 'json', spec: get('/api/z/1.0/files') },
    { name: 'files 100', kind: 'read', format: 'json', spec: get('/api/z/1.0/files?records=100') },
    { name: 'ext/notifications', kind: 'read', format: 'json', spec: get('/api/ext/notifications.json') },
    {
      name: 'item/update',
      kind: 'write',
      format: 'json',
      spec: {
        method: 'POST', path: '/api/z/1.0/item/update', headers: formHeaders,
        next: (n) => ({ body: form({ body: `Bench post ${n} written under load, hello @${others[n % others.length]} #bench`, title: `Bench ${n}` }) }),
      },
    },
    {
      name: 'statuses/update',
      kind: 'write',
      format: 'json',
      spec: {
        method: 'POST', path: '/api/statuses/update.json', headers: formHeaders,
        next: (n) => ({ body: form({ status: `Status ${n} from a phone client under load #bench`, source: 'hearth-bench' }) }),
      },
    },
    {
      name: 'ext/photo/create',
      kind: 'write',
      format: 'json',
      spec: { method: 'POST', path: '/api/ext/photo/create.json', headers: { ...auth, 'content-type': upload.contentType }, body: upload.body },
      connections: 2,
      slow: true,
    },
    {
      name: 'filedata',
      kind: 'throughput',
      format: 'json',
      spec: {
        method: 'GET', path: `/api/z/1.0/filedata?file_id=${m.bigFile.hash}&start=0&length=${CHUNK}`, headers: auth,
        next: (n) => ({ path: `/api/z/1.0/filedata?file_id=${m.bigFile.hash}&start=${(n % chunks) * CHUNK}&length=${CHUNK}` }),
      },
    },
  ];
}
