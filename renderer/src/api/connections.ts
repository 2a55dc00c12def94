import { COMPAT, NATIVE, get, post } from './http.ts';
import type { AbConfigRow, Connection, PermAllowed, User } from './types.ts';

/** The channel's connections, without its own "self" entry. */
export async function listConnections(): Promise<Connection[]> {
  const res = await get<Connection[] | undefined>(`${NATIVE}abook`);
  return (Array.isArray(res) ? res : []).filter((c) => String(c.abook_self) !== '1');
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
