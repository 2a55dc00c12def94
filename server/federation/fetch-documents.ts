import { signRequest } from '@fedify/fedify/sig';
import { FetchError, preloadedContexts, type DocumentLoader, type RemoteDocument } from '@fedify/vocab-runtime';
import { outboundUrlProblem, type HostLookup } from './public-address.js';
import { pinnedTransport } from './pinned-transport.js';

/** Limits on every document the hub fetches from other servers. */
export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 };

/**
 * A fetch refused (an address not allowed, too large, too slow) or answered with an error. A
 * FetchError of Fedify's: the status it carries tells Fedify a key that is gone (410) from one
 * that could not be fetched.
 */
export class FetchRefused extends FetchError {
  constructor(url: string | URL, message: string, status?: number) {
    super(url, message, status === undefined ? undefined : new Response(null, { status }));
    this.name = 'FetchRefused';
  }
}

/**
 * How guardedGet resolves names to judge them, and reaches the network (by default over sockets
 * that connect only to addresses the rules allow); tests put their own in place.
 */
export interface FetchSeams {
  lookup?: HostLookup;
  transport?: (request: Request) => Promise<Response>;
}

const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams";q=0.9, application/json;q=0.5';

/** Reads at most `max` bytes of a body; refuses a longer one. */
async function readCapped(url: URL, response: Response, max: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > max) {
    await response.body?.cancel();
    throw new FetchRefused(url, `${url.href}: the document is larger than ${max} bytes`);
  }
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      throw new FetchRefused(url, `${url.href}: the document is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

type GetOptions = { insecure: boolean; limits?: FetchLimits; accept?: string; userAgent?: string; sign?: (request: Request, retry: boolean) => Promise<Request> };

/**
 * GETs a URL as the federation does: only http(s) to public addresses (unless insecure), each
 * redirect checked again, the whole answer within the time limit and the size cap. `sign` signs
 * each request (the first try and, when refused with 401, `sign` is asked again with `retry`).
 */
export async function guardedGet(url: string, o: GetOptions & FetchSeams): Promise<{ url: string; response: Response; text: string }> {
  const { body, ...rest } = await guardedGetBytes(url, o);
  return { ...rest, text: body.toString('utf8') };
}

/** guardedGet, the answer as bytes (a picture). */
export async function guardedGetBytes(url: string, o: GetOptions & FetchSeams): Promise<{ url: string; response: Response; body: Buffer }> {
  const limits = o.limits ?? DEFAULT_FETCH_LIMITS;
  const send = o.transport ?? pinnedTransport(o.insecure, o.lookup);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let current = new URL(url);
  try {
    for (let hop = 0; ; hop++) {
      const problem = await outboundUrlProblem(current, o.insecure, o.lookup);
      if (problem) throw new FetchRefused(current, `${current.href}: ${problem}`);
      const headers = { accept: o.accept ?? ACCEPT, ...(o.userAgent ? { 'user-agent': o.userAgent } : {}) };
      const plain = () => new Request(current, { headers, redirect: 'manual', signal });
      let response = await send(o.sign ? await o.sign(plain(), false) : plain());
      if (response.status === 401 && o.sign) {
        await response.body?.cancel();
        response = await send(await o.sign(plain(), true));
      }
      if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
        await response.body?.cancel();
        if (hop >= limits.maxRedirects) throw new FetchRefused(url, `${url}: too many redirects`);
        current = new URL(response.headers.get('location')!, current);
        continue;
      }
      const body = await readCapped(current, response, limits.maxBytes);
      return { url: current.href, response, body };
    }
  } catch (err) {
    if (err instanceof FetchError) throw err;
    // A timeout, a refused connection, a broken answer: a failed fetch (worth another try later),
    // as Fedify understands one.
    throw new FetchError(current, `${current.href}: ${signal.aborted ? `no complete answer within ${limits.timeoutMs} ms` : (err as Error).message}`);
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
export function guardedDocumentLoader(o: { insecure: boolean; limits?: FetchLimits; userAgent?: string; identity?: { keyId: URL; privateKey: CryptoKey } } & FetchSeams): DocumentLoader {
  const identity = o.identity;
  const sign = identity
    ? (request: Request, retry: boolean) => signRequest(request, identity.privateKey, identity.keyId, { spec: retry ? 'rfc9421' : 'draft-cavage-http-signatures-12' })
    : undefined;
  return async (url: string): Promise<RemoteDocument> => {
    if (url in preloadedContexts) return preloaded(url);
    const { url: finalUrl, response, text } = await guardedGet(url, { ...o, sign });
    if (!response.ok) throw new FetchRefused(url, `${url}: HTTP ${response.status}`, response.status);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw new FetchRefused(url, `${url}: not JSON`);
    }
    return { contextUrl: null, document, documentUrl: finalUrl };
  };
}
