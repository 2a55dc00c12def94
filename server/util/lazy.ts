import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded on first use instead of at startup. Sharp, the HTML sanitiser, the Markdown and
 * BBCode renderers, the XML builder and the body parser together take most of a second to load,
 * and none is needed before the first request that uses it. Loads the package's CommonJS build.
 */
export function lazyPackage<T>(name: string, init?: (m: T) => void): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      loaded = require(name) as T;
      init?.(loaded);
    }
    return loaded;
  };
}
