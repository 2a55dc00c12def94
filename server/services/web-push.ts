import { createECDH } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import webpush from 'web-push';
import type { Db } from '../db/open.js';
import { getConfig, setConfig } from '../store/config.js';
import { replacePushSubscription, updatePushSubscriptionData, type PushSubscriptionRow } from '../store/push-subscriptions.js';
import { checkOutboundHost, checkOutboundUrl, hostOf, OutboundRefused } from '../http/outbound.js';

/** The notification types a subscription can ask to be told of (Mastodon's alerts). */
export const PUSH_ALERTS = ['mention', 'status', 'reblog', 'follow', 'follow_request', 'favourite', 'poll', 'update'] as const;
export const PUSH_POLICIES = ['all', 'followed', 'follower', 'none'] as const;
export type PushPolicy = (typeof PUSH_POLICIES)[number];

/** What a client gives when it subscribes or changes its subscription. */
export interface PushSubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  /** RFC 8291's aes128gcm; else the aesgcm of the earlier drafts, which Mastodon apps decrypt. */
  standard: boolean;
  data: PushData;
}

export interface PushData {
  alerts: Partial<Record<(typeof PUSH_ALERTS)[number], boolean>>;
  policy: PushPolicy;
}

/** Input a subscription cannot take (422). */
export class PushInputError extends Error {}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const vapidCache = new WeakMap<Db, VapidKeys>();

/** The hub's VAPID key pair (RFC 8292), made once and kept in the config table; the public half is what apps see. */
export function vapidKeys(db: Db): VapidKeys {
  const cached = vapidCache.get(db);
  if (cached) return cached;
  const read = (): VapidKeys | undefined => {
    const publicKey = getConfig(db, 'webpush', 'vapid_public_key');
    const privateKey = getConfig(db, 'webpush', 'vapid_private_key');
    return publicKey && privateKey ? { publicKey, privateKey } : undefined;
  };
  const keys =
    read() ??
    db.transaction(() => {
      const existing = read();
      if (existing) return existing;
      const made = webpush.generateVAPIDKeys();
      setConfig(db, 'webpush', 'vapid_public_key', made.publicKey);
      setConfig(db, 'webpush', 'vapid_private_key', made.privateKey);
      return made;
    })();
  vapidCache.set(db, keys);
  return keys;
}

/** Bytes of a base64 or base64url text; undefined for anything else. */
function base64Bytes(s: string): Buffer | undefined {
  const t = s.trim().replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/_-]*$/.test(t)) return undefined;
  return Buffer.from(t.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url');
}

/** How long subscribing waits for the endpoint's host name to resolve. */
const LOOKUP_WAIT_MS = 3000;

/** Checks what a client subscribes with: a public https endpoint, a P-256 public key and a 16-byte secret. */
export async function checkSubscriptionInput(input: PushSubscriptionInput): Promise<PushSubscriptionInput> {
  if (!input.endpoint) throw new PushInputError("Validation failed: Endpoint can't be blank");
  if (input.endpoint.length > 2048) throw new PushInputError('Validation failed: Endpoint is too long');
  let url: URL;
  try {
    url = checkOutboundUrl(input.endpoint);
  } catch (e) {
    throw new PushInputError(`Validation failed: Endpoint ${(e as Error).message}`);
  }
  // A name that does not resolve now (or not soon) may later: it is checked again at each sending.
  const looked = await Promise.race([
    checkOutboundHost(hostOf(url)).then(
      () => undefined,
      (e: Error) => e,
    ),
    sleep(LOOKUP_WAIT_MS, undefined, { ref: false }),
  ]);
  if (looked instanceof OutboundRefused) throw new PushInputError(`Validation failed: Endpoint ${looked.message}`);
  const key = base64Bytes(input.p256dh);
  if (!key || key.length !== 65 || key[0] !== 4 || !onCurve(key)) throw new PushInputError('Validation failed: Key p256dh is not a P-256 public key');
  const auth = base64Bytes(input.auth);
  if (!auth || auth.length < 16 || auth.length > 64) throw new PushInputError('Validation failed: Key auth must be a secret of 16 bytes');
  return { ...input, p256dh: key.toString('base64url'), auth: auth.toString('base64url') };
}

/** Whether an uncompressed point lies on P-256 (an ECDH with it succeeds). */
function onCurve(key: Buffer): boolean {
  try {
    const probe = createECDH('prime256v1');
    probe.generateKeys();
    probe.computeSecret(key);
    return true;
  } catch {
    return false;
  }
}

/** The token's subscription, in place of any it had. */
export function subscribe(db: Db, owner: { tokenId: number; token: string; channelId: number }, input: PushSubscriptionInput): PushSubscriptionRow {
  return replacePushSubscription(db, {
    token_id: owner.tokenId,
    channel_id: owner.channelId,
    endpoint: input.endpoint,
    key_p256dh: input.p256dh,
    key_auth: input.auth,
    standard: input.standard ? 1 : 0,
    alerts: JSON.stringify(input.data.alerts),
    policy: input.data.policy,
    access_token: owner.token,
  });
}

export function changeSubscription(db: Db, row: PushSubscriptionRow, data: PushData): PushSubscriptionRow {
  const alerts = JSON.stringify(data.alerts);
  updatePushSubscriptionData(db, row.id, alerts, data.policy);
  return { ...row, alerts, policy: data.policy };
}

export function alertsOf(row: PushSubscriptionRow): Record<(typeof PUSH_ALERTS)[number], boolean> {
  let stored: Record<string, unknown> = {};
  try {
    stored = JSON.parse(row.alerts) as Record<string, unknown>;
  } catch {
    // An unreadable row asks for nothing.
  }
  return Object.fromEntries(PUSH_ALERTS.map((a) => [a, stored[a] === true])) as Record<(typeof PUSH_ALERTS)[number], boolean>;
}
