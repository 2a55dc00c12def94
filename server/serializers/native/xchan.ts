import { pickAsStrings } from './ints.js';

/** The xchan columns the native API returns (seed §2.5), in that order. */
export const XCHAN_COLUMNS = [
  'xchan_hash', 'xchan_guid', 'xchan_guid_sig', 'xchan_pubkey', 'xchan_photo_mimetype', 'xchan_photo_l', 'xchan_photo_m',
  'xchan_photo_s', 'xchan_addr', 'xchan_url', 'xchan_connurl', 'xchan_follow', 'xchan_connpage', 'xchan_name', 'xchan_network',
  'xchan_instance_url', 'xchan_flags', 'xchan_photo_date', 'xchan_name_date', 'xchan_hidden', 'xchan_orphan', 'xchan_censored',
  'xchan_selfcensored', 'xchan_system', 'xchan_pubforum', 'xchan_deleted',
] as const;

const XCHAN_DATES = new Set(['xchan_photo_date', 'xchan_name_date']);

/** The xchan part of a joined row (xchan_* keys, all strings). */
export function xchanColumns(row: Record<string, unknown> | undefined): Record<string, string> {
  return pickAsStrings(row, XCHAN_COLUMNS, XCHAN_DATES);
}

/** The portable xchan (seed §2.6): keys without the xchan_ prefix, xchan_addr as `address`. */
export function portableXchan(row: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(xchanColumns(row))) out[k === 'xchan_addr' ? 'address' : k.slice('xchan_'.length)] = v;
  return out;
}
