import { dnsLookup, outboundUrlProblem, type HostLookup } from './public-address.js';

export interface DeliveryGuardOptions {
  /** Whether http and private addresses are allowed (read at each check). */
  insecure: () => boolean;
  /** How long a host's verdict is kept. */
  ttlMs?: number;
  lookup?: HostLookup;
}

const DEFAULT_TTL_MS = 60_000;
const MAX_HOSTS = 1000;

/** The inbox a queued message of Fedify's delivers to, when it is a delivery. */
export function deliveryInbox(message: unknown): string | undefined {
  const m = message as { type?: unknown; inbox?: unknown } | null;
  return m?.type === 'outbox' && typeof m.inbox === 'string' ? m.inbox : undefined;
}

/**
 * Judges each delivery's inbox just before it is sent: an inbox was checked when its actor was
 * remembered, but its name may point at this machine or the local network by now. A host's verdict
 * is kept for a minute, so that a burst of deliveries asks DNS once.
 */
export class DeliveryGuard {
  private readonly verdicts = new Map<string, { problem: string | undefined; until: number }>();

  constructor(private readonly o: DeliveryGuardOptions) {}

  /** Why a delivery to this inbox may not be sent now, or undefined. */
  async problem(inbox: string): Promise<string | undefined> {
    let url: URL;
    try {
      url = new URL(inbox);
    } catch {
      return `${inbox} is not a URL`;
    }
    const insecure = this.o.insecure();
    const key = `${insecure ? 'insecure' : 'secure'} ${url.protocol}//${url.host}`;
    const now = Date.now();
    const known = this.verdicts.get(key);
    if (known && known.until > now) return known.problem;
    const problem = await outboundUrlProblem(url, insecure, this.o.lookup ?? dnsLookup);
    this.verdicts.delete(key);
    this.verdicts.set(key, { problem, until: now + (this.o.ttlMs ?? DEFAULT_TTL_MS) });
    if (this.verdicts.size > MAX_HOSTS) this.verdicts.delete(this.verdicts.keys().next().value!);
    return problem;
  }
}
