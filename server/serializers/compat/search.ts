/** Twitter's search_metadata of a search/tweets page. */
export interface SearchMetadata {
  completed_in: number;
  max_id: number;
  max_id_str: string;
  next_results?: string;
  query: string;
  refresh_url: string;
  count: number;
  since_id: number;
  since_id_str: string;
}

export interface SearchPage {
  q: string;
  count: number;
  sinceId?: number;
  /** Ids of the statuses on the page, newest first. */
  ids: number[];
  /** The page is full, so older statuses may follow. */
  full: boolean;
  seconds: number;
}

export function searchMetadata(p: SearchPage): SearchMetadata {
  const q = encodeURIComponent(p.q);
  const maxId = p.ids[0] ?? 0;
  const sinceId = p.sinceId ?? 0;
  const oldest = p.ids[p.ids.length - 1];
  const meta: SearchMetadata = {
    completed_in: Math.round(p.seconds * 1000) / 1000,
    max_id: maxId,
    max_id_str: String(maxId),
    query: q,
    refresh_url: `?since_id=${maxId}&q=${q}&include_entities=1`,
    count: p.count,
    since_id: sinceId,
    since_id_str: String(sinceId),
  };
  if (p.full && oldest !== undefined) meta.next_results = `?max_id=${oldest - 1}&q=${q}&count=${p.count}&include_entities=1`;
  return meta;
}
