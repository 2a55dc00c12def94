import type { Hub } from '../../hub-context.js';
import type { ChannelRow, ItemRow } from '../../store/rows.js';
import { getNotificationRow, getMarkers } from '../../store/mastodon.js';
import { deleteNotificationsById, notificationRun, notificationsCreatedBetween } from '../../store/notification-groups.js';
import { isoDate } from '../../serializers/mastodon/dates.js';
import type { MastodonAccount } from '../../serializers/mastodon/account.js';
import type { MastodonStatus } from '../../serializers/mastodon/status.js';
import { loadAccounts } from './accounts.js';
import { loadMastodonStatuses } from './statuses.js';
import { ntypesFor, typeNotifications, type MastodonType, type TypedNotification } from './notifications.js';
import { GROUPABLE_TYPES, groupKeyOf, parseGroupKey } from './notification-keys.js';

/** Mastodon's NotificationGroup. The page_* fields only in a page of groups. */
export interface NotificationGroup {
  group_key: string;
  notifications_count: number;
  type: MastodonType;
  most_recent_notification_id: string;
  page_min_id?: string;
  page_max_id?: string;
  latest_page_notification_at?: string;
  sample_account_ids: string[];
  status_id?: string;
}

/** An account as expand_accounts=partial_avatars shows the ones it need not show in full. */
export type PartialAccount = Pick<MastodonAccount, 'id' | 'acct' | 'locked' | 'bot' | 'url' | 'avatar' | 'avatar_static'>;

/** Mastodon's GroupedNotificationsResults. */
export interface GroupedNotifications {
  accounts: MastodonAccount[];
  partial_accounts?: PartialAccount[];
  statuses: MastodonStatus[];
  notification_groups: NotificationGroup[];
}

export interface GroupQuery {
  types: readonly MastodonType[];
  /** The types to group; the others come one notification per group. */
  grouped: readonly MastodonType[];
  limit: number;
  maxId?: number;
  sinceId?: number;
  minId?: number;
  /** Only notifications by this identity (xchan hash). */
  actor?: string;
}

/** The accounts a group shows at most (as Mastodon). */
const SAMPLE_ACCOUNTS = 8;
/** Notifications read at a time, and at most, while looking for a page of groups. */
const BATCH = 200;
const MAX_SCAN = 5000;

interface Representative {
  n: TypedNotification;
  key: string;
}

/** Ids a page covers: a group counts its notifications up to `to`; its page ids lie in [from, to]. */
interface PageRange {
  from: number;
  to: number;
}

/** The groupable types among those a client names; all of them when it names none. */
export function groupedTypes(named: string[] | undefined): MastodonType[] {
  return named === undefined ? [...GROUPABLE_TYPES] : GROUPABLE_TYPES.filter((t) => named.includes(t));
}

/**
 * One notification per group, newest first, the way Mastodon pages groups: walking the channel's
 * notifications down from max_id (or up from min_id), each group is represented by the first of its
 * notifications met, until `limit` groups are found.
 */
function representatives(hub: Hub, channel: ChannelRow, q: GroupQuery): { reps: Representative[]; range?: PageRange; end: boolean } {
  const ntypes = ntypesFor(q.types);
  if (!ntypes.length) return { reps: [], end: true };
  const upward = q.minId !== undefined;
  let above = Math.max(q.minId ?? 0, q.sinceId ?? 0);
  let below = q.maxId ?? Number.MAX_SAFE_INTEGER;
  const seen = new Set<string>();
  const reps: Representative[] = [];
  let full = false;
  let end = false;
  for (let scanned = 0; scanned < MAX_SCAN && !full; ) {
    const rows = notificationRun(hub.db, channel.channel_id, { ntypes, above, below, order: upward ? 'asc' : 'desc', limit: BATCH });
    scanned += rows.length;
    for (const n of typeNotifications(hub, channel, rows, q.types)) {
      if (q.actor !== undefined && n.row.xchan !== q.actor) continue;
      const key = groupKeyOf(n, q.grouped);
      if (seen.has(key)) continue;
      seen.add(key);
      reps.push({ n, key });
      if ((full = reps.length === q.limit)) break;
    }
    if ((end = rows.length < BATCH)) break;
    if (upward) above = rows[rows.length - 1]!.id;
    else below = rows[rows.length - 1]!.id;
  }
  if (upward) reps.reverse();
  end &&= !full;
  if (!reps.length) return { reps, end };
  const newest = reps[0]!.n.row.id;
  const oldest = reps[reps.length - 1]!.n.row.id;
  // A page that reached the end it walked towards covers everything up to the bound asked for.
  if (!end) return { reps, range: { from: oldest, to: newest }, end };
  return { reps, range: upward ? { from: oldest, to: (q.maxId ?? Number.MAX_SAFE_INTEGER) - 1 } : { from: (q.sinceId ?? 0) + 1, to: newest }, end };
}

/** The notifications of groups, newest first, read once per window of time. */
class GroupMembers {
  private windows = new Map<string, Map<string, TypedNotification[]>>();

  constructor(
    private readonly hub: Hub,
    private readonly channel: ChannelRow,
  ) {}

  of(key: string): TypedNotification[] {
    const k = parseGroupKey(key);
    if (!k) return [];
    if (k.kind === 'ungrouped') {
      const row = getNotificationRow(this.hub.db, this.channel.channel_id, k.id);
      return row ? typeNotifications(this.hub, this.channel, [row]) : [];
    }
    const windowId = `${k.type} ${k.from}`;
    let byKey = this.windows.get(windowId);
    if (!byKey) {
      byKey = new Map();
      const rows = notificationsCreatedBetween(this.hub.db, this.channel.channel_id, ntypesFor([k.type]), k.from, k.to);
      for (const n of typeNotifications(this.hub, this.channel, rows, [k.type])) {
        const own = groupKeyOf(n);
        const list = byKey.get(own);
        if (list) list.push(n);
        else byKey.set(own, [n]);
      }
      this.windows.set(windowId, byKey);
    }
    return byKey.get(key) ?? [];
  }
}

function partial(a: MastodonAccount): PartialAccount {
  return { id: a.id, acct: a.acct, locked: a.locked, bot: a.bot, url: a.url, avatar: a.avatar, avatar_static: a.avatar_static };
}

/** The groups of these representatives with the accounts and statuses they name. */
function render(hub: Hub, channel: ChannelRow, reps: Representative[], range: PageRange | undefined, partialAvatars: boolean): GroupedNotifications {
  const members = new GroupMembers(hub, channel);
  const drafts = reps.map(({ n, key }) => {
    const all = key.startsWith('ungrouped-') ? [n] : members.of(key);
    const counted = (range ? all.filter((m) => m.row.id <= range.to) : all).sort((a, b) => b.row.id - a.row.id);
    if (!counted.length) counted.push(n);
    const actors = [...new Set(counted.map((m) => m.row.xchan))].slice(0, SAMPLE_ACCOUNTS);
    const group: NotificationGroup = { group_key: key, notifications_count: counted.length, type: n.type, most_recent_notification_id: String(counted[0]!.row.id), sample_account_ids: [] };
    if (range) {
      const inPage = counted.filter((m) => m.row.id >= range.from);
      const newest = inPage[0] ?? n;
      group.page_min_id = String((inPage[inPage.length - 1] ?? n).row.id);
      group.page_max_id = String(newest.row.id);
      group.latest_page_notification_at = isoDate(newest.row.created);
    }
    return { group, actors, item: n.item };
  });
  const items = [...new Map(drafts.filter((d) => d.item).map((d) => [d.item!.id, d.item!] as [number, ItemRow])).values()];
  const statuses = new Map(loadMastodonStatuses(hub, channel, items).map((s) => [s.id, s]));
  const accounts = loadAccounts(hub, channel, drafts.flatMap((d) => d.actors));
  const groups: NotificationGroup[] = [];
  const full = new Map<string, MastodonAccount>();
  const others = new Map<string, MastodonAccount>();
  const shownStatuses = new Map<string, MastodonStatus>();
  for (const d of drafts) {
    const sample = d.actors.map((h) => accounts.get(h)).filter((a): a is MastodonAccount => a !== undefined);
    const status = d.item ? statuses.get(String(d.item.id)) : undefined;
    // As the v1 list: a notification whose actor or status can no longer be shown is left out.
    if (!sample.length || (d.item && !status)) continue;
    d.group.sample_account_ids = sample.map((a) => a.id);
    if (status) {
      d.group.status_id = status.id;
      shownStatuses.set(status.id, status);
      full.set(status.account.id, status.account);
    }
    sample.forEach((a, i) => (i === 0 || !partialAvatars ? full : others).set(a.id, a));
    groups.push(d.group);
  }
  const out: GroupedNotifications = { accounts: [...full.values()], statuses: [...shownStatuses.values()], notification_groups: groups };
  if (partialAvatars) out.partial_accounts = [...others.values()].filter((a) => !full.has(a.id)).map(partial);
  return out;
}

/**
 * GET /api/v2/notifications: a page of groups, the ids of their representatives for the Link
 * header, and whether it is the last page going down (nothing older is left).
 */
export function groupedNotifications(hub: Hub, channel: ChannelRow, q: GroupQuery, opts: { partialAvatars: boolean }): { page: GroupedNotifications; ids: number[]; last: boolean } {
  const { reps, range, end } = representatives(hub, channel, q);
  return { page: render(hub, channel, reps, range, opts.partialAvatars), ids: reps.map((r) => r.n.row.id), last: end && q.minId === undefined };
}

/** One group, all its notifications counted; undefined when it has none the channel may see. */
export function notificationGroup(hub: Hub, channel: ChannelRow, key: string): GroupedNotifications | undefined {
  const latest = new GroupMembers(hub, channel).of(key)[0];
  if (!latest) return undefined;
  const page = render(hub, channel, [{ n: latest, key }], undefined, false);
  return page.notification_groups.length ? page : undefined;
}

/** The notifications of a group the channel may see, newest first. */
export function groupNotifications(hub: Hub, channel: ChannelRow, key: string): TypedNotification[] {
  return new GroupMembers(hub, channel).of(key);
}

/** Deletes the notifications of a group. */
export function dismissGroup(hub: Hub, channel: ChannelRow, key: string): void {
  const k = parseGroupKey(key);
  if (!k) return;
  if (k.kind === 'ungrouped') deleteNotificationsById(hub.db, channel.channel_id, [k.id]);
  else deleteNotificationsById(hub.db, channel.channel_id, groupNotifications(hub, channel, key).map((n) => n.row.id));
}

/** The notifications marker's id, where the owner stopped reading. */
function readUpTo(hub: Hub, channel: ChannelRow): number {
  const id = getMarkers(hub.db, channel.channel_id).find((m) => m.timeline === 'notifications')?.last_read_id ?? '';
  return /^\d{1,15}$/.test(id) ? Number(id) : 0;
}

/** How many groups (at most `limit`) lie above the notifications marker; with nothing grouped, how many notifications. */
export function unreadGroupCount(hub: Hub, channel: ChannelRow, q: Omit<GroupQuery, 'maxId' | 'sinceId' | 'minId'>): number {
  return representatives(hub, channel, { ...q, minId: readUpTo(hub, channel) }).reps.length;
}
