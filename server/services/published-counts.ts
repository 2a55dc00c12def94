import type { Db } from '../db/open.js';
import { localCounts } from '../store/stats.js';

/** Counting reads every thread top (about 90 ms for 40,000 posts), and anyone on the network may ask. */
const RECOUNT_AFTER_MS = 60_000;

const counted = new WeakMap<Db, { at: number; counts: ReturnType<typeof localCounts> }>();

/**
 * The hub's published numbers (NodeInfo, the Mastodon API's instance): channels and public posts,
 * counted again at most once a minute. Apps read them at every start and show them as they are.
 */
export function publishedCounts(db: Db, now = Date.now()): ReturnType<typeof localCounts> {
  const last = counted.get(db);
  if (last && now - last.at < RECOUNT_AFTER_MS && now >= last.at) return last.counts;
  const counts = localCounts(db);
  counted.set(db, { at: now, counts });
  return counts;
}
