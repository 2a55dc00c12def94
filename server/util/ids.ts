import { randomBytes, randomUUID } from 'node:crypto';

/** 64 lowercase hex characters (attach hashes, storage keys). */
export function randomHex64(): string {
  return randomBytes(32).toString('hex');
}

export function randomToken(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

/**
 * A time-ordered UUID (version 7, RFC 9562): 48 bits of Unix milliseconds, then random bits.
 * Item uuids and message ids are indexed; ids that grow with time are appended at the end of
 * those B-trees instead of landing on a random page each, which kept every post's commit writing
 * several scattered index pages. The random part comes from randomUUID's pooled entropy.
 */
export function uuid(): string {
  const time = Date.now().toString(16).padStart(12, '0');
  const random = randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
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

/** The ActivityPub id of an item: its own id for items from elsewhere, /item/<uuid> for the hub's own. */
export function objectIdOf(baseUrl: string, item: { mid: string; uuid: string }): string {
  return /^https?:\/\//.test(item.mid) ? item.mid : `${baseUrl}/item/${item.uuid}`;
}
