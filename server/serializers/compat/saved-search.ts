import { twitterDate } from '../../util/time.js';

export interface SavedSearchRow {
  id: number;
  term: string;
  created: string;
}

/** A saved search: name and query are both the search term. */
export interface CompatSavedSearch {
  created_at: string;
  id: number;
  id_str: string;
  name: string;
  position: null;
  query: string;
}

export function compatSavedSearch(row: SavedSearchRow): CompatSavedSearch {
  return { created_at: twitterDate(row.created), id: row.id, id_str: String(row.id), name: row.term, position: null, query: row.term };
}
