/**
 * Whether every RFC 9421 signature a request carries (its Signature-Input) covers what the request
 * is about: its method and target, and its body (content-digest) when it has one. Fedify checks
 * only what a signature covers, so one that leaves these out would vouch for another request: any
 * body, any object of the same server.
 */
export function rfc9421Covers(signatureInput: string, method: string): boolean {
  const labels = [...signatureInput.matchAll(/[\w-]+=\(([^)]*)\)/g)].map((m) => new Set([...m[1]!.matchAll(/"([^"]+)"/g)].map((c) => c[1]!.toLowerCase())));
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return (
    labels.length > 0 &&
    labels.every((c) => c.has('@method') && (c.has('@target-uri') || c.has('@request-target') || (c.has('@path') && (c.has('@authority') || c.has('host')))) && (!hasBody || c.has('content-digest')))
  );
}
