import assert from 'node:assert/strict';

export const DIGITS = /^\d+$/;
export const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const HEX64 = /^[0-9a-f]{64}$/;

/** Asserts the exact key list (order included) of an object. */
export function assertKeys(obj: Record<string, unknown>, keys: readonly string[], what = 'object'): void {
  assert.deepEqual(Object.keys(obj), [...keys], `${what}: keys`);
}

/** Asserts that every named field is a string of digits. */
export function assertDigitStrings(obj: Record<string, unknown>, fields: readonly string[], what = 'object'): void {
  for (const f of fields) {
    assert.equal(typeof obj[f], 'string', `${what}.${f} is a string`);
    assert.match(obj[f] as string, DIGITS, `${what}.${f} is digits`);
  }
}

export function assertDatetimes(obj: Record<string, unknown>, fields: readonly string[], what = 'object'): void {
  for (const f of fields) assert.match(String(obj[f]), DATETIME, `${what}.${f} is a datetime`);
}

/** Asserts that every field is a string. */
export function assertAllStrings(obj: Record<string, unknown>, what = 'object'): void {
  for (const [k, v] of Object.entries(obj)) assert.equal(typeof v, 'string', `${what}.${k} is a string`);
}
