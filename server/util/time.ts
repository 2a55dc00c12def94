/** Datetimes are stored and returned as UTC 'YYYY-MM-DD HH:MM:SS'. */
export const NULL_DATE = '0001-01-01 00:00:00';

export function toDbDate(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

export function nowDb(): string {
  return toDbDate(new Date());
}

/** Parses a datetime parameter ('2024-01-31', '2024-01-31 10:00[:00]', ISO 8601); undefined if invalid. */
export function parseDateParam(value: string): Date | undefined {
  const v = value.trim();
  if (!v) return undefined;
  let d: Date;
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) d = new Date(`${v}T00:00:00Z`);
  else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(v)) d = new Date(`${v.replace(' ', 'T')}Z`);
  else if (/^\d{4}-\d{2}-\d{2}T/.test(v)) d = new Date(v);
  else if (/^\d{9,11}$/.test(v)) d = new Date(Number(v) * 1000);
  else return undefined;
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** Parses a stored 'YYYY-MM-DD HH:MM:SS' UTC value. */
export function fromDbDate(value: string): Date {
  return new Date(`${value.replace(' ', 'T')}Z`);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const STORED_DATE = /^(\d{4})-(\d\d)-(\d\d) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;
const DAY_MS = 86_400_000;

/** Twitter's created_at form: 'Wed Oct 10 20:19:24 +0000 2018'. */
export function twitterDate(dbDate: string): string {
  // A stored date already has every field but the weekday in Twitter's form; parsing the text into
  // a Date cost more than the rest of a status.
  const m = STORED_DATE.exec(dbDate);
  if (m) {
    const year = Number(m[1]);
    const month = Number(m[2]);
    const day = Number(m[3]);
    const days = Date.UTC(year, month - 1, day) / DAY_MS;
    // Years below 100 (Date.UTC reads them as 19xx) and days a month does not have take the long way.
    if (year >= 100 && month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month, 0)).getUTCDate() >= day) {
      return `${DAYS[(((days + 4) % 7) + 7) % 7]} ${MONTHS[month - 1]} ${m[3]} ${m[4]}:${m[5]}:${m[6]} +0000 ${year}`;
    }
  }
  const d = fromDbDate(dbDate);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000 ${d.getUTCFullYear()}`;
}
