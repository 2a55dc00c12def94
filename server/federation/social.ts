import type { Db } from '../db/open.js';
import { getPConfig } from '../store/config.js';

/** Whether a channel approves its followers by hand (Mastodon's locked account). */
export function approvesFollowersByHand(db: Db, channelId: number): boolean {
  return getPConfig(db, channelId, 'system', 'autoperms') === '0';
}
