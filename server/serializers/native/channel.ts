import type { ChannelRow, XchanRow } from '../../store/rows.js';
import { stringifyInts } from './ints.js';
import { xchanColumns } from './xchan.js';

/** Channel columns that are secrets: never sent by any endpoint. */
const SECRET_COLUMNS = new Set(['channel_prvkey', 'channel_passwd_reset', 'channel_password', 'channel_salt', 'channel_eprvkey']);

/** The channel row without its secrets, integers as strings. */
export function channelRecord(channel: ChannelRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(stringifyInts(channel))) if (!SECRET_COLUMNS.has(k)) out[k] = String(v);
  return out;
}

/** verify: the channel joined with its own xchan. */
export function verifyRecord(channel: ChannelRow, xchan: XchanRow | undefined) {
  return { ...channelRecord(channel), ...xchanColumns(xchan as unknown as Record<string, unknown> | undefined) };
}
