import { signRequest } from '@fedify/fedify/sig';
import { preloadedContexts, type DocumentLoader, type RemoteDocument } from '@fedify/vocab-runtime';
import { outboundUrlProblem } from './public-address.js';

/** Limits on every document the hub fetches from other servers. */
export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 };

export class FetchRefused extends Error {}

const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams";q=0.9, application/json;q=0.5';

/** Reads at most `max` bytes of a body; refuses a longer one. */
async function readCapped(response: Response, max: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > max) throw new FetchRefused(`the document is larger than ${max} bytes`);
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw new FetchRefused(`the document is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * GETs a URL as the federation does: only http(s) to public addresses (unless insecure), each
 * redirect checked again, the whole answer within the time limit and the size cap. `sign` signs
 * each request (the first try and, when refused with 401, `sign` is asked again with `retry`).
 */
export async function guardedGet(
  url: string,
  o: { insecure: boolean; limits?: FetchLimits; accept?: string; userAgent?: string; sign?: (request: Request, retry: boolean) => Promise<Request> },
): Promise<{ url: string; response: Response; text: string }> {
  const limits = o.limits ?? DEFAULT_FETCH_LIMITS;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const problem = await outboundUrlProblem(current, o.insecure);
    if (problem) throw new FetchRefused(`${current.href}: ${problem}`);
    const headers = { accept: o.accept ?? ACCEPT, ...(o.userAgent ? { 'user-agent': o.userAgent } : {}) };
    const plain = () => new Request(current, { headers, redirect: 'manual', signal });
    let response = await fetch(o.sign ? await o.sign(plain(), false) : plain());
    if (response.status === 401 && o.sign) {
      await response.body?.cancel();
      response = await fetch(await o.sign(plain(), true));
    }
    if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
      await response.body?.cancel();
      if (hop >= limits.maxRedirects) throw new FetchRefused(`${url}: too many redirects`);
      current = new URL(response.headers.get('location')!, current);
      continue;
    }
    const text = await readCapped(response, limits.maxBytes);
    return { url: current.href, response, text };
  }
}

/**
 * A preloaded JSON-LD context, marked static: jsonld keeps a context so marked once it has
 * processed it, for every later document (unmarked, it processed the ActivityStreams context anew
 * for each activity, a few milliseconds each time).
 */
function preloaded(url: string): RemoteDocument {
  return { contextUrl: null, document: preloadedContexts[url], documentUrl: url, tag: 'static' } as RemoteDocument;
}

/** A Fedify document loader over guardedGet; JSON-LD contexts come from Fedify's preloaded copies. */
export function guardedDocumentLoader(o: { insecure: boolean; limits?: FetchLimits; userAgent?: string; identity?: { keyId: URL; privateKey: CryptoKey } }): DocumentLoader {
  const identity = o.identity;
  const sign = identity
    ? (request: Request, retry: boolean) => signRequest(request, identity.privateKey, identity.keyId, { spec: retry ? 'rfc9421' : 'draft-cavage-http-signatures-12' })
    : undefined;
  return async (url: string): Promise<RemoteDocument> => {
    if (url in preloadedContexts) return preloaded(url);
    const { url: finalUrl, response, text } = await guardedGet(url, { ...o, sign });
    if (!response.ok) throw new FetchRefused(`${url}: HTTP ${response.status}`);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw new FetchRefused(`${url}: not JSON`);
    }
    return { contextUrl: null, document, documentUrl: finalUrl };
  };
}
