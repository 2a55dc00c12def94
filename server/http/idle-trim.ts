import type { Middleware } from 'koa';
import { trimMalloc } from '../util/allocator.js';

/** How long the hub goes without requests before the memory they freed is given back. */
const IDLE_MS = 2000;

export interface IdleTrimmer {
  /** Notes each request. */
  middleware: Middleware;
  /** One check, as the timer makes it every idleMs: trims once after a period with requests and one without. */
  check(): void;
  stop(): void;
}

/**
 * Returns memory to the system once requests stop. Under load the allocator keeps what requests
 * freed, for reuse; a desktop hub is idle most of the time, and memory it keeps is memory the rest
 * of the desktop does not have. Measured after 30 photo uploads: 139 MB resident, 90 MB once trimmed.
 */
export function idleTrimmer(idleMs = IDLE_MS, trim: () => unknown = trimMalloc): IdleTrimmer {
  let requests = false;
  let trimmed = true;
  const check = () => {
    if (requests) {
      requests = false;
      trimmed = false;
    } else if (!trimmed) {
      trimmed = true;
      trim();
    }
  };
  const timer = setInterval(check, idleMs).unref();
  return {
    middleware: (_ctx, next) => {
      requests = true;
      return next();
    },
    check,
    stop: () => clearInterval(timer),
  };
}
