import { randomBytes, randomUUID } from 'node:crypto';

/** 64 lowercase hex characters (attach hashes, storage keys). */
export function randomHex64(): string {
  return randomBytes(32).toString('hex');
}

export function randomToken(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

export function uuid(): string {
  return randomUUID();
}

/** Parses a positive integer id parameter; undefined when absent or malformed. */
export function parseId(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return n > 0 ? n : undefined;
}

/** Hubzilla-style access list: '<a><b>' from an array or comma-separated string. */
export function toAclString(values: string[]): string {
  return values.map((v) => v.trim()).filter(Boolean).map((v) => `<${v.replace(/[<>]/g, '')}>`).join('');
}

export function fromAclString(acl: string): string[] {
  return [...acl.matchAll(/<([^>]*)>/g)].map((m) => m[1]!);
}
