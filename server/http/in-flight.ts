import type { Middleware } from 'koa';

export interface InFlight {
  middleware: Middleware;
  /** Requests being answered now. */
  count(): number;
}

/** Counts the requests being answered (background work, the federation's deliveries, gives way to them). */
export function requestsInFlight(): InFlight {
  let n = 0;
  return {
    middleware: async (_ctx, next) => {
      n++;
      try {
        await next();
      } finally {
        n--;
      }
    },
    count: () => n,
  };
}
