import { COMPAT, NATIVE, call, get, post } from './http.ts';
import type { GroupMember, NativeGroup } from './types.ts';

/** Native groups carry the hash that access lists (group_allow) use. */
export async function nativeGroups(): Promise<NativeGroup[]> {
  const res = await get<NativeGroup[] | undefined>(`${NATIVE}group`);
  return (Array.isArray(res) ? res : []).filter((g) => String(g.deleted) !== '1');
}

/** One page of a group's members, in the order they were added. */
export async function groupMembersPage(groupId: string | number, start: number, records: number): Promise<GroupMember[]> {
  const res = await get<GroupMember[] | undefined>(`${NATIVE}group_members`, { group_id: groupId, start, records });
  return Array.isArray(res) ? res : [];
}

export interface GroupSummary {
  id: number;
  name: string;
  member_count: number;
}

/** The channel's groups with their member counts (counted by the hub; no member is listed). */
export async function groupSummaries(): Promise<GroupSummary[]> {
  const res = await get<GroupSummary[] | undefined>(`${COMPAT}lists/list`);
  return Array.isArray(res) ? res : [];
}

/** Adds one connection (by address) to a group, or takes one out: the other members are not sent. */
export function setGroupMember(gid: string | number, address: string, member: boolean): Promise<unknown> {
  return post(`${COMPAT}lists/members/${member ? 'create' : 'destroy'}`, { list_id: gid, screen_name: address });
}

interface GroupResult {
  success: boolean;
  gid: number | string;
  name: string;
  status: string;
  'wrong users': unknown[];
}

function membersJson(name: string, cids: Array<string | number>, gid?: string | number): string {
  return JSON.stringify({ name, ...(gid !== undefined ? { gid: Number(gid) } : {}), user: cids.map((cid) => ({ cid: Number(cid) })) });
}

export function createGroup(name: string, cids: Array<string | number> = []): Promise<GroupResult> {
  return post<GroupResult>(`${COMPAT}ext/group_create`, { name, json: membersJson(name, cids) });
}

/** ext/group_update cannot rename; the Twitter lists endpoint can. */
export function renameGroup(gid: string | number, name: string): Promise<unknown> {
  return post(`${COMPAT}lists/update`, { list_id: gid, name });
}

export function deleteGroup(gid: string | number, name: string): Promise<GroupResult> {
  return call<GroupResult>('POST', `${COMPAT}ext/group_delete`, { gid, name });
}
