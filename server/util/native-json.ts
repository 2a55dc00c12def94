/**
 * JSON.stringify as the runtime has it, taken before anything replaces it. Fedify's JSON-LD
 * processor is a bundle made for browsers with core-js inside, which on a runtime without
 * JSON.rawJSON (Node 20) replaces JSON.stringify by a JavaScript wrapper calling a function for
 * every value: once the federation was loaded, every answer of the hub took about ten times as
 * long to serialise. Import this module before anything that loads Fedify; keepNativeJson() after.
 */
const nativeStringify = JSON.stringify;

export function keepNativeJson(): void {
  JSON.stringify = nativeStringify;
}
