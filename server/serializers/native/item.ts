import type { ItemRow } from '../../store/rows.js';
import { stringifyInts } from './ints.js';

/** The item record (seed §2.7): every column of the row, integers as strings. */
export function itemRecord(item: ItemRow) {
  return stringifyInts(item);
}
