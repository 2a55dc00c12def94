import { Activity } from '@fedify/vocab';

let installed = false;

/**
 * Fedify reads a received activity twice in a row from the same JSON object: once to look for
 * Object Integrity Proofs (there are none in an HTTP-signed activity, so it finds nothing) and,
 * once the HTTP signature held, again to hand it to the listener; each reading expands its
 * JSON-LD (about 0.2 ms of CPU for a Create). The second reading of the same object with the
 * same document loader and base URL (both readings load contexts through the same loader, the
 * request's) gets the first one's result; reading a new object, or with another loader, parses
 * as before. The memo is held by the JSON object (weakly): it goes with the
 * request. Fedify 2.3.6 has no option for it, so its reader is wrapped, once.
 */
export function parseActivitiesOnce(): void {
  if (installed) return;
  installed = true;
  const parse = Activity.fromJsonLd;
  const parsed = new WeakMap<object, { loader: unknown; base: string | undefined; activity: ReturnType<typeof parse> }>();
  // A function of its own `this`: every kind of activity reads its common part through it (as
  // super.fromJsonLd), and that reading must go on as before.
  Activity.fromJsonLd = function (this: typeof Activity, json, options) {
    if (this !== Activity || typeof json !== 'object' || json === null) return parse.call(this, json, options);
    const loader = options?.documentLoader;
    const base = options?.baseUrl?.href;
    const known = parsed.get(json);
    if (known && known.loader === loader && known.base === base) return known.activity;
    const activity = parse.call(this, json, options);
    // One that does not parse is not remembered (its error goes to its caller).
    activity.catch(() => parsed.delete(json));
    parsed.set(json, { loader, base, activity });
    return activity;
  };
}
