import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 64;

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFC'), salt, KEYLEN, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** A salted scrypt hash in the self-describing form 'scrypt$N$r$p$salt$hash' (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** The hash of a random password nobody knows, with this file's parameters. */
const DUMMY_HASH = 'scrypt$16384$8$1$/GEXsNfr83t7PyQD+LjtzA==$kBQOOs3Sx4ercdRHAsh8SpaQQppNzX94cfbIS5xhFwOVo3IuV4sffXNXw4E4+bevyDsubMaupnaiS2Z6Yn56dQ==';

/**
 * Checks a password for a login that may not exist: without an account the password is hashed
 * against a dummy hash all the same, so that the answer takes as long for an unknown name or email
 * as for a known one with a wrong password.
 */
export async function verifyLoginPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (stored !== undefined) return verifyPassword(password, stored);
  await verifyPassword(password, DUMMY_HASH);
  return false;
}

export const MIN_PASSWORD_LENGTH = 6;

export function passwordProblem(password: string | undefined): string | undefined {
  if (!password) return 'a password is required';
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > 1024) return 'the password is too long';
  return undefined;
}
