import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import type { Hub } from '../hub-context.js';
import type { ChannelRow } from '../store/rows.js';
import { getChannel } from '../store/channels.js';
import { getNotificationRow } from '../store/mastodon.js';
import { follows, followStates } from '../store/social-graph.js';
import { deletePushSubscription, pushSubscriptionById, pushSubscriptionsOfChannel, type PushSubscriptionRow } from '../store/push-subscriptions.js';
import { htmlToText } from '../content/render.js';
import { checkOutboundUrl, publicLookup } from '../http/outbound.js';
import { renderNotifications, type MastodonNotification } from './mastodon/notifications.js';
import { alertsOf, vapidKeys } from './web-push.js';

/** Whether the subscription wants this notification: its alert for the type, and its policy towards who acted. */
function wants(hub: Hub, channel: ChannelRow, row: PushSubscriptionRow, n: MastodonNotification, actor: string): boolean {
  if (!(alertsOf(row) as Record<string, boolean>)[n.type]) return false;
  switch (row.policy) {
    case 'all':
      return true;
    case 'followed':
      return follows(hub.db, channel.channel_id, actor);
    case 'follower':
      return followStates(hub.db, channel.channel_id, channel.channel_hash, [actor]).get(actor)?.followedBy ?? false;
    default:
      return false;
  }
}

const TITLES: Record<string, (name: string) => string> = {
  mention: (name) => `${name} mentioned you`,
  status: (name) => `${name} posted`,
  reblog: (name) => `${name} boosted your post`,
  follow: (name) => `${name} follows you now`,
  follow_request: (name) => `${name} asks to follow you`,
  favourite: (name) => `${name} favourited your post`,
};

const BODY_CHARS = 140;

/** What the app shows (the payload Mastodon sends): who, what, a line of text, and the token to fetch the rest with. */
export function pushPayload(row: PushSubscriptionRow, n: MastodonNotification) {
  const name = n.account.display_name || n.account.username;
  const text = n.status ? n.status.spoiler_text || htmlToText(n.status.content) : htmlToText(n.account.note);
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return {
    access_token: row.access_token,
    preferred_locale: 'en',
    notification_id: Number(n.id),
    notification_type: n.type,
    icon: n.account.avatar_static,
    title: (TITLES[n.type] ?? ((who: string) => who))(name),
    body: chars.length > BODY_CHARS ? `${chars.slice(0, BODY_CHARS - 1).join('')}…` : chars.join(''),
  };
}

/** How long one push may take, connecting included. */
const SEND_TIMEOUT_MS = 10_000;
/** Pushes in flight at once, and waiting at most (beyond that, new ones are dropped). */
const CONCURRENCY = 4;
const MAX_WAITING = 1000;
/** How long a push service keeps a message for a device that is off (Mastodon's 48 hours). */
const TTL_SECONDS = 48 * 3600;

const agents = { http: new http.Agent({ lookup: publicLookup }), https: new https.Agent({ lookup: publicLookup }) };

/**
 * Posts an encrypted message; its HTTP status. A host name's addresses are checked as the socket
 * resolves them (publicLookup); literal addresses are never looked up: checkOutboundUrl judged them.
 */
function post(endpoint: URL, headers: Record<string, string | number>, body: Buffer | null, signal: AbortSignal): Promise<number> {
  const secure = endpoint.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(endpoint, { method: 'POST', headers, agent: secure ? agents.https : agents.http, signal }, (res) => {
      // The status is all that matters; the rest of the answer is read and dropped (or cut off by the signal).
      resolve(res.statusCode ?? 0);
      res.on('error', () => undefined);
      res.resume();
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

/**
 * Sends each new notification to the Web Push subscriptions of its channel that want it, in the
 * background: the request that caused it does not wait. A subscription the push service says is
 * gone (404, 410) is deleted.
 */
export class WebPushSender {
  private waiting: (() => Promise<void>)[] = [];
  private running = new Set<Promise<void>>();
  private readonly stop = new AbortController();
  private lastDropWarning = 0;

  constructor(private readonly hub: Hub) {
    hub.events.on('notification', (uid: number, id: number) => this.onNotification(uid, id));
    hub.onClose(() => this.close());
  }

  private onNotification(uid: number, id: number): void {
    if (this.stop.signal.aborted || !this.hub.db.open) return;
    const subscriptions = pushSubscriptionsOfChannel(this.hub.db, uid);
    if (subscriptions.length) this.enqueue(() => this.deliver(uid, id));
  }

  private enqueue(job: () => Promise<void>): void {
    if (this.waiting.length >= MAX_WAITING) {
      const now = Date.now();
      if (now - this.lastDropWarning > 60_000) this.hub.log.warn('web push: too many messages waiting, dropping new ones');
      this.lastDropWarning = now;
      return;
    }
    this.waiting.push(job);
    this.pump();
  }

  private pump(): void {
    while (this.running.size < CONCURRENCY && this.waiting.length && !this.stop.signal.aborted) {
      const job = this.waiting.shift()!;
      const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(job)
        .catch((e: Error) => this.hub.log.warn(`web push: ${e.message}`))
        .finally(() => {
          this.running.delete(run);
          this.pump();
        });
      this.running.add(run);
    }
  }

  /** Renders the notification once per subscription that wants it, and queues each push. */
  private async deliver(uid: number, id: number): Promise<void> {
    const db = this.hub.db;
    if (!db.open) return;
    const channel = getChannel(db, uid);
    const row = channel && getNotificationRow(db, uid, id);
    const n = channel && row ? renderNotifications(this.hub, channel, [row])[0] : undefined;
    if (!channel || !row || !n) return;
    for (const s of pushSubscriptionsOfChannel(db, uid)) {
      if (wants(this.hub, channel, s, n, row.xchan)) this.enqueue(() => this.send(s, n));
    }
  }

  private async send(queued: PushSubscriptionRow, n: MastodonNotification): Promise<void> {
    // Unless it went in the meantime (unsubscribed, or its token revoked).
    const s = this.hub.db.open ? pushSubscriptionById(this.hub.db, queued.id) : undefined;
    if (!s) return;
    let endpoint: URL;
    try {
      endpoint = checkOutboundUrl(s.endpoint);
    } catch (e) {
      this.hub.log.warn(`web push: endpoint refused: ${(e as Error).message}`);
      return;
    }
    const keys = vapidKeys(this.hub.db);
    const details = webpush.generateRequestDetails({ endpoint: s.endpoint, keys: { p256dh: s.key_p256dh, auth: s.key_auth } }, JSON.stringify(pushPayload(s, n)), {
      vapidDetails: { subject: vapidSubject(this.hub), publicKey: keys.publicKey, privateKey: keys.privateKey },
      contentEncoding: s.standard ? 'aes128gcm' : 'aesgcm',
      TTL: TTL_SECONDS,
      urgency: 'normal',
    });
    const signal = AbortSignal.any([this.stop.signal, AbortSignal.timeout(SEND_TIMEOUT_MS)]);
    const status = await post(endpoint, details.headers as Record<string, string | number>, details.body, signal);
    if (status === 404 || status === 410) {
      if (this.hub.db.open) deletePushSubscription(this.hub.db, s.id);
    } else if (status < 200 || status > 299) {
      this.hub.log.warn(`web push: ${endpoint.host} answered ${status}`);
    }
  }

  private async close(): Promise<void> {
    this.stop.abort();
    this.waiting = [];
    await Promise.allSettled([...this.running]);
  }
}

/**
 * Who sends (RFC 8292's subject), for the push service to reach: the hub's address when it has a
 * public https one; else no contact (the owner's email is not handed to push services).
 */
function vapidSubject(hub: Hub): string {
  const base = new URL(hub.baseUrl);
  return base.protocol === 'https:' && base.hostname !== 'localhost' ? base.origin : 'mailto:hearth@invalid';
}

const senders = new WeakMap<Hub, WebPushSender>();

/** Starts sending the hub's notifications by Web Push (once per hub). */
export function startWebPush(hub: Hub): void {
  if (!senders.has(hub)) senders.set(hub, new WebPushSender(hub));
}
