import type { ApiRequest } from '../../../../http/api.js';
import { HttpError, notFound } from '../../../../http/errors.js';
import type { MastodonRoute } from '../../admit.js';
import { bearerToken } from '../../../../auth/bearer.js';
import { lookupBearer } from '../../../../services/oauth2.js';
import { deletePushSubscriptionOfToken, pushSubscriptionOfToken, type PushSubscriptionRow } from '../../../../store/push-subscriptions.js';
import {
  changeSubscription, checkSubscriptionInput, PUSH_ALERTS, PUSH_POLICIES, PushInputError, subscribe, vapidKeys, type PushData, type PushPolicy,
} from '../../../../services/web-push.js';
import { mastodonPushSubscription } from '../../../../serializers/mastodon/push-subscription.js';

/** The caller's token: a subscription belongs to one. */
function callerToken(req: ApiRequest): { tokenId: number; token: string; channelId: number } {
  const token = bearerToken(req.ctx);
  const row = token ? lookupBearer(req.hub.db, token) : undefined;
  const channelId = req.user().channel.channel_id;
  if (!token || !row || row.channel_id !== channelId) throw new HttpError(403, 'Web Push subscriptions belong to an OAuth access token');
  return { tokenId: row.id, token, channelId };
}

/**
 * A nested parameter (subscription[keys][auth], data[alerts][mention]) as an object, whether it came
 * as JSON, as a nested form the body parser read, or as flat bracketed names.
 */
function nested(req: ApiRequest, name: string): Record<string, unknown> {
  const values = req.params.values;
  let out: Record<string, unknown> = {};
  const whole = req.params.str(name);
  if (whole?.startsWith('{')) {
    try {
      const v = JSON.parse(whole) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) out = v as Record<string, unknown>;
    } catch {
      throw new HttpError(422, `Validation failed: ${name} is not readable`);
    }
  }
  for (const key of Object.keys(values)) {
    if (!key.startsWith(`${name}[`)) continue;
    const path = [...key.slice(name.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
    if (path.some((step) => step === '__proto__' || step === 'constructor' || step === 'prototype')) continue;
    let at = out;
    path.forEach((step, i) => {
      if (i === path.length - 1) at[step] = req.params.str(key);
      else at = (Object.hasOwn(at, step) && at[step] && typeof at[step] === 'object' ? at[step] : (at[step] = {})) as Record<string, unknown>;
    });
  }
  return out;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const truthy = (v: unknown): boolean => v === true || v === 1 || (typeof v === 'string' && ['true', '1', 't', 'on', 'yes'].includes(v.trim().toLowerCase()));

/** data[alerts][type] and data[policy] (also policy alone, as some clients send it); unnamed alerts are off. */
function pushData(req: ApiRequest): PushData {
  const data = nested(req, 'data');
  const given = data.alerts && typeof data.alerts === 'object' ? (data.alerts as Record<string, unknown>) : {};
  const alerts = Object.fromEntries(PUSH_ALERTS.map((a) => [a, truthy(given[a])]));
  const policy = text(data.policy) || req.params.str('policy') || 'all';
  if (!(PUSH_POLICIES as readonly string[]).includes(policy)) throw new HttpError(422, `Validation failed: Policy must be one of ${PUSH_POLICIES.join(', ')}`);
  return { alerts, policy: policy as PushPolicy };
}

function answer(req: ApiRequest, row: PushSubscriptionRow) {
  return mastodonPushSubscription(row, vapidKeys(req.hub.db).publicKey);
}

function current(req: ApiRequest): PushSubscriptionRow {
  const row = pushSubscriptionOfToken(req.hub.db, callerToken(req).tokenId);
  if (!row) throw notFound('Record not found');
  return row;
}

/** POST /api/v1/push/subscription: the token's subscription, replacing the one it had. */
export const pushSubscribeRoute: MastodonRoute = {
  path: 'push/subscription',
  methods: ['POST'],
  auth: 'user',
  scope: 'push',
  async handler(req) {
    const owner = callerToken(req);
    const s = nested(req, 'subscription');
    const keys = s.keys && typeof s.keys === 'object' ? (s.keys as Record<string, unknown>) : {};
    try {
      const input = await checkSubscriptionInput({ endpoint: text(s.endpoint).trim(), p256dh: text(keys.p256dh), auth: text(keys.auth), standard: truthy(s.standard), data: pushData(req) });
      return answer(req, subscribe(req.hub.db, owner, input));
    } catch (e) {
      if (e instanceof PushInputError) throw new HttpError(422, e.message);
      throw e;
    }
  },
};

/** GET /api/v1/push/subscription. */
export const pushSubscriptionRoute: MastodonRoute = {
  path: 'push/subscription',
  methods: ['GET'],
  auth: 'user',
  scope: 'push',
  handler: (req) => answer(req, current(req)),
};

/** PUT /api/v1/push/subscription: new alerts and policy (those not given are off, and 'all'). */
export const pushSubscriptionUpdateRoute: MastodonRoute = {
  path: 'push/subscription',
  methods: ['PUT'],
  auth: 'user',
  scope: 'push',
  handler: (req) => answer(req, changeSubscription(req.hub.db, current(req), pushData(req))),
};

/** DELETE /api/v1/push/subscription. */
export const pushUnsubscribeRoute: MastodonRoute = {
  path: 'push/subscription',
  methods: ['DELETE'],
  auth: 'user',
  scope: 'push',
  handler(req) {
    deletePushSubscriptionOfToken(req.hub.db, callerToken(req).tokenId);
    return {};
  },
};
