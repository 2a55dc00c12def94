import { NATIVE, get } from './http.ts';

/** A stream filter of the native network/stream: one group (by id) or one connection (by abook id). */
export type StreamFilter = { group: string } | { connection: string };

interface PortableItem {
  message_id: string;
}

/**
 * One page (1-based) of thread tops of the network stream narrowed to a group (its members' posts
 * and posts sent to it) or a connection (what it wrote or owns), newest first; message ids only.
 */
export async function filteredThreadMids(filter: StreamFilter, page: number, records: number): Promise<string[]> {
  const params = 'group' in filter ? { gid: filter.group } : { cid: filter.connection };
  const items = await get<PortableItem[]>(`${NATIVE}network/stream`, { ...params, top: 1, order: 'post', records, page });
  return (Array.isArray(items) ? items : []).map((i) => i.message_id);
}
