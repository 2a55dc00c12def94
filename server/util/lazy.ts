import { createRequire } from 'node:module';
import { HttpError } from '../http/errors.js';

const nodeRequire = createRequire(import.meta.url);

/** Errors of a process out of file handles: they pass, so they are worth a retry, not a 500. */
const OUT_OF_HANDLES = new Set(['EMFILE', 'ENFILE']);

/**
 * A package loaded on first use instead of at startup. Sharp, the HTML sanitiser, the Markdown and
 * BBCode renderers and the XML builder together take most of a second to load, and none is needed
 * before the first request that uses it. Loads the package's CommonJS build. Only a package that
 * loaded (and whose init ran) is kept: a load that failed, say for want of file handles, is tried
 * again on the next use, and meanwhile answers 503.
 */
export function lazyPackage<T>(name: string, init?: (m: T) => void, load: (name: string) => unknown = nodeRequire): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      let m: T;
      try {
        m = load(name) as T;
        init?.(m);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code && OUT_OF_HANDLES.has(code)) throw new HttpError(503, 'The hub is out of file handles for the moment; try again shortly', { 'Retry-After': '5' });
        throw err;
      }
      loaded = m;
    }
    return loaded;
  };
}
