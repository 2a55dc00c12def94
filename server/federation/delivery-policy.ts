/** How the hub retries deliveries to other servers (tests and benchmarks shorten the waits). */
export interface DeliveryPolicy {
  /** The wait before the first retry of a failed delivery; each next wait is twice as long (plus up to as much again, at random). */
  retryInitialMs: number;
  /** The longest wait between two tries. */
  retryMaxMs: number;
  /** Retries of one delivery before it is given up. */
  maxRetries: number;
  /**
   * A host that failed five times within ten minutes (no answer, or 5xx) is left alone this long;
   * its deliveries wait meanwhile and one of them then probes it (Fedify's circuit breaker).
   */
  hostRecoveryMs: number;
}

/**
 * Remote servers are down for hours or days (a desktop asleep, a server moving): try for about
 * six days, the waits doubling from 30 seconds up to 12 hours.
 */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  retryInitialMs: 30_000,
  retryMaxMs: 12 * 3600_000,
  maxRetries: 20,
  hostRecoveryMs: 30 * 60_000,
};
