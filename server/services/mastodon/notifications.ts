import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow, NotifyRow } from '../../store/rows.js';
import { itemsByIds, visibleAmong } from '../../store/item-batch.js';
import { itemByUidMid, notificationPage } from '../../store/mastodon.js';
import { getConnection } from '../../store/connections.js';
import { isoDate } from '../../serializers/mastodon/dates.js';
import type { MastodonStatus } from '../../serializers/mastodon/status.js';
import type { MastodonAccount } from '../../serializers/mastodon/account.js';
import { NOTIFY } from '../notifications.js';
import { groupKeyOf } from './notification-keys.js';
import { VERB } from '../verbs.js';
import { FOLLOW_NOTIFY_VERB } from '../connections.js';
import { loadAccounts } from './accounts.js';
import { loadMastodonStatuses } from './statuses.js';

/** Mastodon's notification types the hub's notifications are. */
export const MASTODON_TYPES = ['mention', 'status', 'reblog', 'follow', 'follow_request', 'favourite'] as const;
export type MastodonType = (typeof MASTODON_TYPES)[number];

/** Which stored kinds (notify.ntype) can become each type. */
const NTYPES: Record<MastodonType, number[]> = {
  mention: [NOTIFY.TAGSELF, NOTIFY.COMMENT, NOTIFY.WALL, NOTIFY.MAIL],
  status: [NOTIFY.POST],
  reblog: [NOTIFY.LIKE],
  follow: [NOTIFY.INTRO],
  follow_request: [NOTIFY.INTRO],
  favourite: [NOTIFY.LIKE],
};

/** The stored kinds that can become any of these types. */
export function ntypesFor(types: readonly MastodonType[]): number[] {
  return [...new Set(types.flatMap((t) => NTYPES[t]))];
}

/** The types a client asks for: `types` when given (unknown names ignored), else all; less `exclude`. */
export function wantedTypes(types: string[] | undefined, exclude: string[]): MastodonType[] {
  const base = types === undefined ? [...MASTODON_TYPES] : MASTODON_TYPES.filter((t) => types.includes(t));
  return base.filter((t) => !exclude.includes(t));
}

export interface MastodonNotification {
  id: string;
  type: MastodonType;
  created_at: string;
  group_key: string;
  account: MastodonAccount;
  status?: MastodonStatus;
}

/** The type one stored notification is for `channel`, or undefined when Mastodon has none for it. */
function typeOf(hub: Hub, channel: ChannelRow, n: NotifyRow): MastodonType | undefined {
  if (n.ntype === NOTIFY.LIKE && n.verb === VERB.LIKE) return 'favourite';
  if (n.ntype === NOTIFY.LIKE && n.verb === VERB.SHARE) return 'reblog';
  if (n.ntype === NOTIFY.TAGSELF || n.ntype === NOTIFY.COMMENT || n.ntype === NOTIFY.WALL) return 'mention';
  // A direct message that is a post (services/mailbox.ts) is a mention of its recipient.
  if (n.ntype === NOTIFY.MAIL) return n.iid ? 'mention' : undefined;
  if (n.ntype === NOTIFY.POST) return 'status';
  if (n.ntype === NOTIFY.INTRO) return n.verb === FOLLOW_NOTIFY_VERB ? 'follow' : requestType(hub, channel, n.xchan);
  return undefined;
}

/** A follow request's notification: a request while it waits, a follow once accepted, nothing once withdrawn or rejected. */
function requestType(hub: Hub, channel: ChannelRow, xchan: string): MastodonType | undefined {
  const c = getConnection(hub.db, channel.channel_id, xchan);
  if (!c || c.abook_blocked) return undefined;
  if (c.abook_pending) return c.abook_ignored ? undefined : 'follow_request';
  return 'follow';
}

export interface NotificationQuery {
  limit: number;
  maxId?: number;
  sinceId?: number;
  minId?: number;
  types: MastodonType[];
  accountId?: number;
}

/**
 * A page of the channel's notifications as Mastodon's. Those about items the channel may no
 * longer see (deleted, or the audience changed) are left out; so are kinds Mastodon has no type for.
 */
export function loadNotifications(hub: Hub, channel: ChannelRow, q: NotificationQuery): MastodonNotification[] {
  const ntypes = ntypesFor(q.types);
  if (!ntypes.length) return [];
  const rows = notificationPage(hub.db, channel.channel_id, { ...q, limit: q.limit * 2, ntypes });
  const shown = renderNotifications(hub, channel, rows, q.types);
  // With min_id the rows are those just above it: the page is the oldest of them.
  return q.minId !== undefined ? shown.slice(-q.limit) : shown.slice(0, q.limit);
}

/** One stored notification as Mastodon sees it: its type, and the item its status shows (not for follows). */
export interface TypedNotification {
  row: NotifyRow;
  type: MastodonType;
  item?: ItemRow;
}

/**
 * The stored notifications Mastodon shows to `channel`, typed: kinds without a type are left out,
 * and so are those about items the channel may no longer see (deleted, or the audience changed).
 */
export function typeNotifications(hub: Hub, channel: ChannelRow, rows: NotifyRow[], types: readonly MastodonType[] = MASTODON_TYPES): TypedNotification[] {
  const typed = rows.map((n) => ({ n, type: typeOf(hub, channel, n) })).filter((r): r is { n: NotifyRow; type: MastodonType } => r.type !== undefined && types.includes(r.type));
  // The status of a favourite is the liked item; of a mention or a reblog, the item itself (a reblog's is the shared one).
  const itemIds = typed.filter((r) => r.type !== 'follow' && r.type !== 'follow_request' && r.n.iid).map((r) => r.n.iid);
  const rawItems = new Map(itemsByIds(hub.db, itemIds).map((i) => [i.id, i]));
  const statusItem = new Map<number, ItemRow>();
  for (const r of typed) {
    const raw = rawItems.get(r.n.iid);
    if (!raw) continue;
    const target = r.type === 'favourite' ? itemByUidMid(hub.db, raw.uid, raw.thr_parent) : raw;
    if (target && !target.item_deleted) statusItem.set(r.n.id, target);
  }
  const visible = visibleAmong(hub.db, [...new Set([...statusItem.values()].map((i) => i.id))], channel.channel_hash);
  return typed
    .filter((r) => (r.type === 'follow' || r.type === 'follow_request' ? true : visible.has(statusItem.get(r.n.id)?.id ?? 0)))
    .map((r) => ({ row: r.n, type: r.type, item: statusItem.get(r.n.id) }));
}

export function renderNotifications(hub: Hub, channel: ChannelRow, rows: NotifyRow[], types: readonly MastodonType[] = MASTODON_TYPES): MastodonNotification[] {
  const shown = typeNotifications(hub, channel, rows, types);
  const items = [...new Map(shown.map((r) => r.item).filter((i): i is ItemRow => i !== undefined).map((i) => [i.id, i])).values()];
  const statuses = new Map(loadMastodonStatuses(hub, channel, items).map((s) => [s.id, s]));
  const accounts = loadAccounts(hub, channel, shown.map((r) => r.row.xchan));
  const out: MastodonNotification[] = [];
  for (const r of shown) {
    const account = accounts.get(r.row.xchan);
    if (!account) continue;
    const n: MastodonNotification = { id: String(r.row.id), type: r.type, created_at: isoDate(r.row.created), group_key: groupKeyOf(r), account };
    if (r.item) n.status = statuses.get(String(r.item.id));
    out.push(n);
  }
  return out;
}
