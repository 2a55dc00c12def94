/** How many backups to keep: the newest of each of the last `daily` days and of the last `weekly` weeks. */
export interface RetentionPolicy {
  daily: number;
  weekly: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { daily: 7, weekly: 4 };

const day = (d: Date) => `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
/** The week a date is in, named by its Monday (weeks begin on Monday, as ISO 8601 has them). */
function week(d: Date): string {
  const monday = new Date(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7));
  return day(monday);
}

/**
 * The backups to keep: the newest one of each of the `daily` most recent days that have one, and
 * of each of the `weekly` most recent weeks that have one (in local time). The newest backup is
 * always kept.
 */
export function backupsToKeep(backups: { id: string; created: Date }[], policy: RetentionPolicy): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.created.getTime() - a.created.getTime() || (a.id < b.id ? 1 : -1));
  const keep = new Set<string>();
  if (newestFirst[0]) keep.add(newestFirst[0].id);
  for (const [period, count] of [
    [day, policy.daily],
    [week, policy.weekly],
  ] as const) {
    const seen = new Set<string>();
    for (const b of newestFirst) {
      const p = period(b.created);
      if (seen.has(p)) continue;
      if (seen.size >= count) break;
      seen.add(p);
      keep.add(b.id);
    }
  }
  return keep;
}
