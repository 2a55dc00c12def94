import { ATTRIBUTES, TEXT } from '../../http/xml.js';
import { toDbDate, twitterDate } from '../../util/time.js';

/**
 * The hub counts no API calls per client (only failed logins are throttled), so the limit reported
 * is a fixed allowance that is never used up: remaining always equals the hourly limit.
 */
export const HOURLY_LIMIT = 3600;

export interface RateLimit {
  hourlyLimit: number;
  remaining: number;
  /** Unix seconds when the window restarts. */
  resetAt: number;
}

/** The unmetered allowance, with a window ending one hour after `now`. */
export function unmeteredRateLimit(now: Date): RateLimit {
  return { hourlyLimit: HOURLY_LIMIT, remaining: HOURLY_LIMIT, resetAt: Math.floor(now.getTime() / 1000) + 3600 };
}

export function rateLimitJson(r: RateLimit) {
  return {
    reset_time_in_seconds: r.resetAt,
    remaining_hits: r.remaining,
    hourly_limit: r.hourlyLimit,
    reset_time: twitterDate(toDbDate(new Date(r.resetAt * 1000))),
  };
}

/** XML form: root `hash`, dashed names with type attributes (StatusNet). */
export function rateLimitXml(r: RateLimit) {
  const typed = (type: string, value: string | number) => ({ [ATTRIBUTES]: { type }, [TEXT]: value });
  return {
    'remaining-hits': typed('integer', r.remaining),
    'hourly-limit': typed('integer', r.hourlyLimit),
    'reset-time': typed('datetime', new Date(r.resetAt * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')),
    reset_time_in_seconds: typed('integer', r.resetAt),
  };
}
