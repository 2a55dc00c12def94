import type { Context } from 'koa';
import { isOwnerLoopback } from '../http/client-address.js';
import { HttpError } from '../http/errors.js';
import { RateLimit } from '../http/rate-limit.js';

export interface InboxLimits {
  /** Activities one remote server (the host of the key that signed them) may deliver in a minute. */
  perHostPerMinute: number;
  /** POSTs to the inboxes one client address may make in a minute; the owner's loopback has no such cap. */
  perAddressPerMinute: number;
}

/**
 * A busy server delivering to a personal hub sends a few activities a second at its peaks (a post
 * of the hub's going round there); beyond these it is told to come back later (it will).
 */
export const DEFAULT_INBOX_LIMITS: InboxLimits = { perHostPerMinute: 1200, perAddressPerMinute: 2400 };

/** The host of the key a request says it is signed with (draft-cavage Signature or RFC 9421 Signature-Input), if any. */
export function signingHost(ctx: Context): string | undefined {
  const header = ctx.get('signature-input') || ctx.get('signature');
  const keyId = /keyid="([^"]+)"/i.exec(header)?.[1];
  if (!keyId) return undefined;
  try {
    return new URL(keyId).host.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * What an inbox POST meets before Fedify reads it: an unsigned one is refused at once (nothing is
 * read or fetched for it), a client address or a remote server over its rate gets 429 with
 * Retry-After. A server's count goes up only with activities whose signature held (so that nobody
 * can spend another server's share by naming its key).
 */
export class InboxGuard {
  private readonly perHost: RateLimit;
  private readonly perAddress: RateLimit;

  constructor(limits: Partial<InboxLimits> = {}) {
    const l = { ...DEFAULT_INBOX_LIMITS, ...limits };
    this.perHost = new RateLimit({ max: l.perHostPerMinute, windowMs: 60_000 }, 'Too many activities from your server; try again later');
    this.perAddress = new RateLimit({ max: l.perAddressPerMinute, windowMs: 60_000 }, 'Too many requests; try again later');
  }

  /** Throws the answer to a POST that may not go on; else the signing host, to count once answered. */
  admit(ctx: Context): string {
    const address = ctx.ip;
    if (!isOwnerLoopback(address)) {
      this.perAddress.check(address);
      this.perAddress.count(address);
    }
    const host = signingHost(ctx);
    if (!host) throw new HttpError(401, 'Activities must carry an HTTP signature');
    this.perHost.check(`host ${host}`);
    return host;
  }

  /** Counts an activity of `host` once Fedify took it (a 2xx: its signature verified). */
  answered(host: string, status: number): void {
    if (status >= 200 && status < 300) this.perHost.count(`host ${host}`);
  }
}
