/** A database date (UTC 'YYYY-MM-DD HH:MM:SS') as Mastodon's ISO 8601 with milliseconds. */
export function isoDate(dbDate: string): string {
  const d = new Date(`${dbDate.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1970 ? '1970-01-01T00:00:00.000Z' : d.toISOString();
}

/** Mastodon's date-only form (last_status_at). */
export function isoDay(dbDate: string): string {
  return isoDate(dbDate).slice(0, 10);
}
