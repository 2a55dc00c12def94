import { COMPAT, NATIVE, get, post } from './http.ts';
import type { AbConfigRow, Connection, PermAllowed, User } from './types.ts';

const isSelf = (c: Connection) => String(c.abook_self) === '1';

export interface ConnectionsPage {
  /** The page's connections, without the channel's own entry. */
  list: Connection[];
  /** Where the next page starts (counted in the hub's records, the own entry included). */
  next: number;
  /** Whether there may be more after this page. */
  more: boolean;
}

/** One page of the channel's connections, oldest first; with `q`, those whose name or address contains it (the hub finds them). */
export async function connectionsPage(opts: { q?: string; start?: number; records: number }): Promise<ConnectionsPage> {
  const start = opts.start ?? 0;
  const res = await get<Connection[] | undefined>(`${NATIVE}abook`, { q: opts.q?.trim() || undefined, start, records: opts.records });
  const rows = Array.isArray(res) ? res : [];
  return { list: rows.filter((c) => !isSelf(c)), next: start + rows.length, more: rows.length === opts.records };
}

/** The hub takes at most this many hashes in one abook question. */
const HASHES_AT_ONCE = 100;

/** The channel's connections to these people (by xchan hash), its own entry included; those it is not connected with are left out. */
export async function connectionsByHash(hashes: string[]): Promise<Connection[]> {
  const wanted = [...new Set(hashes)];
  const out: Connection[] = [];
  for (let i = 0; i < wanted.length; i += HASHES_AT_ONCE) {
    const res = await get<Connection[] | undefined>(`${NATIVE}abook`, { xchan: wanted.slice(i, i + HASHES_AT_ONCE) });
    if (Array.isArray(res)) out.push(...res);
  }
  return out;
}

export async function getConnection(abookId: string): Promise<Connection | undefined> {
  const res = await get<Connection[] | undefined>(`${NATIVE}abook`, { abook_id: abookId });
  return Array.isArray(res) ? res.find((c) => String(c.abook_id) === abookId) : undefined;
}

/** Follows (connects to) another channel by its address (nick@host); one that approves followers by hand is asked first. */
export function connect(address: string): Promise<User> {
  return post<User>(`${COMPAT}friendships/create`, { screen_name: address });
}

export function disconnect(address: string): Promise<User> {
  return post<User>(`${COMPAT}friendships/destroy`, { screen_name: address });
}

/** Whether this connection may do `perm` on the channel, as the hub evaluates it now. */
export async function mayDo(abookId: string, perm: string): Promise<boolean> {
  const res = await get<PermAllowed[] | false>(`${NATIVE}perm_allowed`, { abook_id: abookId, perm });
  const found = Array.isArray(res) ? res.find((p) => p.perm === perm) : undefined;
  return found !== undefined && isAllowed(found);
}

export async function connectionConfig(abookId: string): Promise<AbConfigRow[]> {
  const res = await get<AbConfigRow[] | undefined>(`${NATIVE}abconfig`, { abook_id: abookId });
  return Array.isArray(res) ? res : [];
}

/** Grants or withdraws one permission (abconfig my_perms/<perm>). */
export function setPermission(abookId: string, perm: string, allowed: boolean): Promise<unknown> {
  return post(`${NATIVE}abconfig`, { abook_id: abookId, cat: 'my_perms', k: perm, v: allowed ? '1' : '0' });
}

export function isAllowed(p: PermAllowed): boolean {
  return p.allowed === true || p.allowed === 1 || p.allowed === '1' || p.allowed === 'true';
}

/** A connection request waiting for this channel's answer (the other side connected first). */
export const isRequest = (c: Connection) => String(c.abook_pending) === '1';
export const isIgnored = (c: Connection) => String(c.abook_ignored) === '1';
/** Whether this channel follows them (a record kept only for their follow says abook_unconnected 1). */
export const isFollowed = (c: Connection) => String(c.abook_unconnected ?? '0') !== '1';

/** Accepts a connection request: they follow this channel from now on (it does not follow them by this). */
export function acceptRequest(c: Connection): Promise<Connection> {
  return post<Connection>(`${NATIVE}abook/approve`, { abook_id: c.abook_id });
}

/** Ignores a connection request: it stays unanswered and stops waiting among the requests. */
export function ignoreRequest(c: Connection): Promise<Connection> {
  return post<Connection>(`${NATIVE}abook/ignore`, { abook_id: c.abook_id });
}
