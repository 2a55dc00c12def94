import type { GroupRow } from '../../store/rows.js';
import { pickAsStrings, stringifyInts } from './ints.js';
import { ABOOK_COLUMNS, ABOOK_DATES } from './abook.js';
import { xchanColumns } from './xchan.js';

/** A privacy group record (seed §2.4). */
export function groupRecord(g: GroupRow) {
  const s = stringifyInts(g);
  return { id: s.id, hash: s.hash, uid: s.uid, visible: s.visible, deleted: s.deleted, gname: s.gname };
}

/** A group member joined with the channel's connection to it and its xchan (seed §2.5). */
export function groupMemberRecord(row: Record<string, unknown>) {
  return {
    ...pickAsStrings(row, ['id', 'uid', 'gid', 'xchan']),
    ...pickAsStrings(row, ABOOK_COLUMNS, ABOOK_DATES),
    ...xchanColumns(row),
  };
}
