import type { TestHub } from './hub.js';

/** Data the end-to-end tests set up through the public APIs, as a third-party client would. */

export async function apiCall<T = unknown>(hub: TestHub, as: string, path: string, params: Record<string, string | string[]> = {}, method = 'POST'): Promise<T> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  const res =
    method === 'GET'
      ? await hub.request(`${path}${form.size ? `?${form}` : ''}`, { as })
      : await hub.request(path, { as, method, body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} as ${as}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export const addressOf = (hub: TestHub, nick: string) => `${nick}@${new URL(hub.url).host}`;

/** `from` connects to `to` (both local channels). */
export async function connect(hub: TestHub, from: string, to: string): Promise<void> {
  await apiCall(hub, from, '/api/friendships/create', { screen_name: addressOf(hub, to) });
}

/** `nick` and each of `others` connect to one another. */
export async function connectMutually(hub: TestHub, nick: string, others: string[]): Promise<void> {
  for (const other of others) {
    await connect(hub, nick, other);
    await connect(hub, other, nick);
  }
}

interface Status {
  id: number;
  text: string;
}

export async function postStatus(hub: TestHub, as: string, text: string, extra: Record<string, string> = {}): Promise<Status> {
  return apiCall<Status>(hub, as, '/api/statuses/update', { status: text, ...extra });
}

interface Connection {
  abook_id: string;
  abook_self: string;
  xchan_addr: string;
}

/** The connection id (abook_id, the compat `cid`) that `as` has for `nick`. */
export async function connectionId(hub: TestHub, as: string, nick: string): Promise<string> {
  const rows = await apiCall<Connection[]>(hub, as, '/api/z/1.0/abook', {}, 'GET');
  const row = rows.find((r) => r.xchan_addr === addressOf(hub, nick));
  if (!row) throw new Error(`${as} has no connection to ${nick}`);
  return String(row.abook_id);
}

export async function createGroup(hub: TestHub, as: string, name: string, memberNicks: string[] = []): Promise<{ gid: number }> {
  const cids = await Promise.all(memberNicks.map((n) => connectionId(hub, as, n)));
  return apiCall(hub, as, '/api/ext/group_create', { name, json: JSON.stringify({ name, user: cids.map((cid) => ({ cid: Number(cid) })) }) });
}

/** The bytes of the channel's large profile photo, to tell whether it changed. */
export async function profilePhotoBytes(hub: TestHub, as: string): Promise<Buffer> {
  const me = await apiCall<{ profile_image_url_large: string }>(hub, as, '/api/account/verify_credentials', {}, 'GET');
  const res = await hub.request(new URL(me.profile_image_url_large).pathname, { as });
  if (!res.ok) throw new Error(`profile photo of ${as}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** A file or folder as the native API's files lists it. */
export interface ListedFile {
  hash: string;
  filename: string;
  folder: string;
  is_dir: string;
}

/** Everything in the channel's files, as the native API lists it. */
export const listedFiles = (hub: TestHub, as: string) => apiCall<{ results: ListedFile[] }>(hub, as, '/api/z/1.0/files', {}, 'GET').then((r) => r.results);
