import type { Hub } from '../../server/hub.js';
import type { ChannelRow } from '../../server/store/rows.js';
import { insertConnection } from '../../server/store/connections.js';

/** The name of the i-th seeded person: "Person 0007 Lastname" sorts and searches predictably. */
export const seededName = (i: number) => `Person ${String(i).padStart(4, '0')}`;
export const seededAddress = (i: number) => `p${i}@elsewhere.example`;
export const seededHash = (i: number) => `https://elsewhere.example/users/p${i}`;

/**
 * Gives a channel `count` connections with people of another server, straight into the store in
 * one transaction (thousands in a moment, where the HTTP APIs would take minutes).
 */
export function seedConnections(hub: Hub, channel: ChannelRow, count: number, name = seededName): void {
  const db = hub.db;
  db.transaction(() => {
    const xchan = db.prepare("INSERT OR IGNORE INTO xchan (xchan_hash, xchan_name, xchan_addr, xchan_url, xchan_network) VALUES (?, ?, ?, ?, 'activitypub')");
    for (let i = 0; i < count; i++) {
      xchan.run(seededHash(i), name(i), seededAddress(i), seededHash(i));
      insertConnection(db, { account: channel.channel_account_id, channel: channel.channel_id, xchan: seededHash(i), pending: false, myPerms: 0, theirPerms: 0 });
    }
  })();
}
