import { fromDbDate, toDbDate } from '../../util/time.js';
import type { MastodonType, TypedNotification } from './notifications.js';

/** The types Mastodon groups: favourites and reblogs of one status, and follows. */
export const GROUPABLE_TYPES = ['favourite', 'reblog', 'follow'] as const;
export type GroupableType = (typeof GROUPABLE_TYPES)[number];

/** A group takes the notifications of one window of this many hours (Mastodon's groups span at most 12). */
const SPAN_HOURS = 12;
const HOUR_MS = 3_600_000;

/**
 * A notification's group key. Mastodon treats it as opaque and assumes `ungrouped-<id>` for those
 * it does not group; grouped ones here are `<type>[-<status id>]-<first hour of the window>`, hours
 * counted from 1970, so that a key follows from the notification alone and never changes.
 */
export function groupKeyOf(n: TypedNotification, grouped: readonly MastodonType[] = GROUPABLE_TYPES): string {
  if (!grouped.includes(n.type) || !(GROUPABLE_TYPES as readonly string[]).includes(n.type)) return `ungrouped-${n.row.id}`;
  const hour = Math.floor(fromDbDate(n.row.created).getTime() / HOUR_MS);
  const window = hour - (((hour % SPAN_HOURS) + SPAN_HOURS) % SPAN_HOURS);
  if (n.type === 'follow') return `follow-${window}`;
  if (!n.item) return `ungrouped-${n.row.id}`;
  return `${n.type}-${n.item.id}-${window}`;
}

/** What a group key names: one notification, or the notifications of a type (and status) in a window of time. */
export type GroupKey =
  | { kind: 'ungrouped'; id: number }
  | { kind: 'grouped'; type: GroupableType; statusId?: number; from: string; to: string };

/** Reads a group key; undefined for text that is no key this hub hands out. */
export function parseGroupKey(key: string): GroupKey | undefined {
  const single = /^ungrouped-(\d{1,15})$/.exec(key);
  if (single) return { kind: 'ungrouped', id: Number(single[1]) };
  const m = /^(favourite|reblog)-(\d{1,15})-(\d{1,8})$|^(follow)-(\d{1,8})$/.exec(key);
  if (!m) return undefined;
  const type = (m[1] ?? m[4]) as GroupableType;
  const hour = Number(m[3] ?? m[5]);
  if (hour % SPAN_HOURS !== 0) return undefined;
  const window = { from: toDbDate(new Date(hour * HOUR_MS)), to: toDbDate(new Date((hour + SPAN_HOURS) * HOUR_MS)) };
  return type === 'follow' ? { kind: 'grouped', type, ...window } : { kind: 'grouped', type, statusId: Number(m[2]), ...window };
}
