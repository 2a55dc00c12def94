import type { Hub, Logger } from '../../server/hub.js';

export interface Shutdown {
  /** Stops the watchers, lets requests in flight finish and closes the database. The same promise on every call. */
  run(): Promise<void>;
  readonly started: boolean;
  readonly finished: boolean;
}

/**
 * One clean way out for every exit path (Quit, the OS shutting down, signals): whichever comes
 * first runs it, the others wait for the same promise.
 */
export function createShutdown(hub: Hub, opts: { before?: Array<() => void>; log?: Logger } = {}): Shutdown {
  let promise: Promise<void> | undefined;
  let finished = false;
  return {
    run() {
      promise ??= (async () => {
        for (const step of opts.before ?? []) {
          try {
            step();
          } catch (err) {
            opts.log?.error('while shutting down:', err);
          }
        }
        try {
          await hub.close();
        } catch (err) {
          opts.log?.error('closing the hub failed:', err);
        } finally {
          finished = true;
        }
      })();
      return promise;
    },
    get started() {
      return promise !== undefined;
    },
    get finished() {
      return finished;
    },
  };
}
