import { pickAsStrings, stringifyInts } from './ints.js';
import { xchanColumns } from './xchan.js';
import type { AbconfigRow } from '../../store/connections.js';

/** Every abook column, in table order (seed §2.5 lists all but the last two). */
export const ABOOK_COLUMNS = [
  'abook_id', 'abook_account', 'abook_channel', 'abook_xchan', 'abook_my_perms', 'abook_their_perms', 'abook_closeness',
  'abook_created', 'abook_updated', 'abook_connected', 'abook_dob', 'abook_flags', 'abook_blocked', 'abook_ignored',
  'abook_hidden', 'abook_archived', 'abook_pending', 'abook_unconnected', 'abook_self', 'abook_feed', 'abook_profile',
  'abook_incl', 'abook_excl', 'abook_instance', 'abook_not_here', 'abook_role',
] as const;

export const ABOOK_DATES: ReadonlySet<string> = new Set(['abook_created', 'abook_updated', 'abook_connected', 'abook_dob']);

/** A connection with its xchan (abook columns, then xchan columns). */
export function abookRecord(row: Record<string, unknown>) {
  return { ...pickAsStrings(row, ABOOK_COLUMNS, ABOOK_DATES), ...xchanColumns(row) };
}

export function abconfigRecord(row: AbconfigRow) {
  const s = stringifyInts(row);
  return { id: s.id, chan: s.chan, xchan: s.xchan, cat: s.cat, k: s.k, v: s.v };
}
