import { CryptographicKey } from '@fedify/vocab';

const MAX_KEYS = 1000;
let installed = false;

/**
 * Fedify reads a remote server's public key from its key cache anew for every signed request:
 * a JSON-LD expansion and an SPKI import each time (about 0.6 ms, a sixth of taking a Create).
 * The same stored key gives the same key object; this keeps the last thousand, by their JSON text
 * (and base URL). Fedify 2.3.6 has no option for it, so its reader is wrapped, once.
 */
export function rememberParsedKeys(): void {
  if (installed) return;
  installed = true;
  const parse = CryptographicKey.fromJsonLd.bind(CryptographicKey);
  const known = new Map<string, Promise<CryptographicKey>>();
  CryptographicKey.fromJsonLd = (json, options) => {
    const key = `${options?.baseUrl?.href ?? ''} ${JSON.stringify(json)}`;
    let parsed = known.get(key);
    if (parsed) {
      known.delete(key);
      known.set(key, parsed);
      return parsed;
    }
    parsed = parse(json, options);
    // A key that does not parse is not remembered (its error goes to its caller).
    parsed.catch(() => known.delete(key));
    known.set(key, parsed);
    if (known.size > MAX_KEYS) known.delete(known.keys().next().value!);
    return parsed;
  };
}
