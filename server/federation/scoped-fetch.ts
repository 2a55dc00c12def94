import { AsyncLocalStorage } from 'node:async_hooks';

type Send = (request: Request) => Promise<Response>;

const scope = new AsyncLocalStorage<Send>();
let installed = false;

/**
 * Runs `fn` with every `fetch` it makes (directly or through a library, as Fedify's delivery
 * does) sent by `send` instead of the global fetch. Fedify 2.3.6 has no option for the fetch a
 * delivery uses, so the global one is wrapped, once: outside such a scope it is unchanged.
 */
export function withFetch<T>(send: Send, fn: () => T): T {
  if (!installed) {
    installed = true;
    const global = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      const scoped = scope.getStore();
      return scoped ? scoped(new Request(input, init)) : global(input, init);
    };
  }
  return scope.run(send, fn);
}
