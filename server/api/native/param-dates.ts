import type { ParamReader } from '../../http/params.js';
import { badRequest } from '../../http/errors.js';
import { parseDateParam, toDbDate } from '../../util/time.js';

/**
 * A datetime parameter as a stored UTC datetime; undefined when absent or empty, 400 when it is
 * not a date. Times without an offset are taken as UTC.
 */
export function dateParam(params: ParamReader, name: string): string | undefined {
  const v = params.str(name)?.trim();
  if (!v) return undefined;
  const d = parseDateParam(v);
  if (!d) throw badRequest(`parameter ${name} must be a datetime such as 2024-01-31 10:00:00`);
  return toDbDate(d);
}
