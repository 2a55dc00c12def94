/** Dates from both APIs: Twitter's "Wed Oct 10 20:19:24 +0000 2018" and "YYYY-MM-DD HH:MM:SS" (UTC). */
export function parseDate(value: string | number | undefined): Date | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'number') return new Date(value * 1000);
  const sql = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value);
  const d = sql ? new Date(Date.UTC(+sql[1]!, +sql[2]! - 1, +sql[3]!, +sql[4]!, +sql[5]!, +sql[6]!)) : new Date(value);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1000 ? undefined : d;
}

export function relativeTime(value: string | number | undefined, now = Date.now()): string {
  const d = parseDate(value);
  if (!d) return '';
  const s = Math.round((now - d.getTime()) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 7 * 86400) return `${Math.round(s / 86400)} d ago`;
  return d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: d.getFullYear() === new Date(now).getFullYear() ? undefined : 'numeric' });
}

export function fullTime(value: string | number | undefined): string {
  return parseDate(value)?.toLocaleString() ?? '';
}

export function Time({ value }: { value: string | number | undefined }) {
  const d = parseDate(value);
  if (!d) return null;
  return (
    <time dateTime={d.toISOString()} title={d.toLocaleString()}>
      {relativeTime(value)}
    </time>
  );
}
