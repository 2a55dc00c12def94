import type { PushSubscriptionRow } from '../../store/push-subscriptions.js';
import { alertsOf } from '../../services/web-push.js';

/** Mastodon's WebPushSubscription; the id is a number, as Mastodon sends it. */
export function mastodonPushSubscription(row: PushSubscriptionRow, serverKey: string) {
  return { id: row.id, endpoint: row.endpoint, standard: row.standard === 1, alerts: alertsOf(row), server_key: serverKey, policy: row.policy };
}
