import { stmt, type Db } from '../db/open.js';
import { nowDb } from '../util/time.js';

export interface PushSubscriptionRow {
  id: number;
  token_id: number;
  channel_id: number;
  endpoint: string;
  key_p256dh: string;
  key_auth: string;
  standard: number;
  /** JSON object: notification type -> boolean. */
  alerts: string;
  policy: string;
  access_token: string;
  created: string;
}

export type NewPushSubscription = Omit<PushSubscriptionRow, 'id' | 'created'>;

/** Stores the token's subscription in place of the one it had, if any. */
export function replacePushSubscription(db: Db, s: NewPushSubscription): PushSubscriptionRow {
  return db.transaction(() => {
    stmt(db, 'DELETE FROM push_subscription WHERE token_id = ?').run(s.token_id);
    const row = { ...s, created: nowDb() };
    const id = Number(
      stmt(
        db,
        `INSERT INTO push_subscription (token_id, channel_id, endpoint, key_p256dh, key_auth, standard, alerts, policy, access_token, created)
         VALUES (@token_id, @channel_id, @endpoint, @key_p256dh, @key_auth, @standard, @alerts, @policy, @access_token, @created)`,
      ).run(row).lastInsertRowid,
    );
    return { ...row, id };
  })();
}

export function pushSubscriptionOfToken(db: Db, tokenId: number): PushSubscriptionRow | undefined {
  return stmt<[number], PushSubscriptionRow>(db, 'SELECT * FROM push_subscription WHERE token_id = ?').get(tokenId);
}

export function pushSubscriptionById(db: Db, id: number): PushSubscriptionRow | undefined {
  return stmt<[number], PushSubscriptionRow>(db, 'SELECT * FROM push_subscription WHERE id = ?').get(id);
}

export function pushSubscriptionsOfChannel(db: Db, channelId: number): PushSubscriptionRow[] {
  return stmt<[number], PushSubscriptionRow>(db, 'SELECT * FROM push_subscription WHERE channel_id = ? ORDER BY id').all(channelId);
}

export function updatePushSubscriptionData(db: Db, id: number, alerts: string, policy: string): void {
  stmt(db, 'UPDATE push_subscription SET alerts = ?, policy = ? WHERE id = ?').run(alerts, policy, id);
}

export function deletePushSubscriptionOfToken(db: Db, tokenId: number): void {
  stmt(db, 'DELETE FROM push_subscription WHERE token_id = ?').run(tokenId);
}

export function deletePushSubscription(db: Db, id: number): void {
  stmt(db, 'DELETE FROM push_subscription WHERE id = ?').run(id);
}
