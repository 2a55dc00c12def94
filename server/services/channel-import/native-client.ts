/**
 * A small client of the native API (api/z/1.0) of another hub — a Hubzilla or a Hearth — with the
 * calls a channel import makes. Answers are read as JSON; integers may come as numbers (Hubzilla on
 * PHP 8) or as strings of digits (Hearth, older Hubzilla), so readers use num() and str().
 */

/** Why the source hub could not be read; the message is for the person importing. */
export class SourceError extends Error {}

export type Json = Record<string, unknown>;

export interface ClientOptions {
  /** Stops requests in flight when the import is interrupted. */
  signal?: AbortSignal;
  /** Per-request limit, the whole answer included; a request that takes longer is tried again. */
  timeoutMs?: number;
  /** Largest answer read (bytes); a larger one is refused, not read on. */
  maxAnswerBytes?: number;
  /** How often a request that failed on the network or with a 5xx is tried again. */
  retries?: number;
  fetch?: typeof fetch;
}

export function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : 0;
  return Number.isFinite(n) ? n : 0;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** Time the source has for one answer, unless told otherwise. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Largest answer of the source that is read: a document of the native API (a page of items, a
 * chunk of a file, the list of files) is far below it; JSON parsed takes several times its size
 * in memory, so the hub's memory stays bounded by what it allows.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const mb = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MB`;

/** The hub's base URL from what a person typed: a host, a URL, or the API's own address. */
export function normaliseSourceUrl(input: string): string {
  const trimmed = input.trim();
  if (!trimmed) throw new SourceError('the address of the hub to import from is missing');
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    throw new SourceError(`not the address of a hub: ${input}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceError(`the hub's address must start with http:// or https://: ${input}`);
  const path = url.pathname.replace(/\/api\/z\/1\.0(\/.*)?$/, '').replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

export class NativeClient {
  readonly baseUrl: string;
  private readonly auth: string;
  private readonly opts: Required<Omit<ClientOptions, 'signal'>> & { signal?: AbortSignal };

  constructor(baseUrl: string, user: string, password: string, opts: ClientOptions = {}) {
    this.baseUrl = normaliseSourceUrl(baseUrl);
    this.auth = 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
    this.opts = {
      signal: opts.signal,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxAnswerBytes: opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
      retries: opts.retries ?? 2,
      fetch: opts.fetch ?? ((input, init) => fetch(input, init)),
    };
  }

  /** The answer's text, read as it streams in and refused as soon as it is larger than allowed. */
  private async answerText(res: Response, path: string): Promise<string> {
    const max = this.opts.maxAnswerBytes;
    const tooLarge = () => new SourceError(`${this.baseUrl} answered ${path} with more than ${mb(max)}, more than an import reads`);
    const declared = Number(res.headers.get('content-length'));
    if (declared > max) {
      await res.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (!res.body) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }

  /** One native API call; undefined for an empty answer (Hubzilla's way of saying "not found"). */
  async get(path: string, params: Record<string, string | number> = {}): Promise<unknown> {
    const url = new URL(`${this.baseUrl}/api/z/1.0/${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
    for (let attempt = 0; ; attempt++) {
      this.opts.signal?.throwIfAborted();
      let res: Response;
      let text: string;
      const timeout = AbortSignal.timeout(this.opts.timeoutMs);
      try {
        const signals = [timeout, ...(this.opts.signal ? [this.opts.signal] : [])];
        res = await this.opts.fetch(url, { headers: { authorization: this.auth, accept: 'application/json' }, signal: AbortSignal.any(signals), redirect: 'follow' });
        text = await this.answerText(res, path);
      } catch (err) {
        if (this.opts.signal?.aborted) throw this.opts.signal.reason;
        if (err instanceof SourceError) throw err;
        if (attempt < this.opts.retries) {
          await sleep(500 * (attempt + 1), this.opts.signal);
          continue;
        }
        if (timeout.aborted) throw new SourceError(`${this.baseUrl} did not answer ${path} within ${Math.round(this.opts.timeoutMs / 100) / 10} s`);
        throw new SourceError(`cannot reach ${this.baseUrl}: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`);
      }
      if (res.status === 401 || res.status === 403) throw new SourceError(`${this.baseUrl} refused the nickname and password (HTTP ${res.status})`);
      if (res.status >= 500 && attempt < this.opts.retries) {
        await sleep(500 * (attempt + 1), this.opts.signal);
        continue;
      }
      if (res.status === 404 && path === 'verify') throw new SourceError(`${this.baseUrl} does not speak the native API (api/z/1.0)`);
      if (res.status >= 400) throw new SourceError(`${this.baseUrl} answered ${path} with HTTP ${res.status}${text && text.length < 200 ? `: ${text}` : ''}`);
      if (!text.trim()) return undefined;
      try {
        return JSON.parse(text);
      } catch {
        throw new SourceError(`${this.baseUrl} answered ${path} with something that is not JSON`);
      }
    }
  }

  private async object(path: string, params: Record<string, string | number> = {}): Promise<Json> {
    const v = await this.get(path, params);
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new SourceError(`${this.baseUrl} gave no usable answer to ${path}`);
    return v as Json;
  }

  /** The logged-in channel (channel_* and xchan_* fields). */
  verify(): Promise<Json> {
    return this.object('verify');
  }

  /** The channel's identity, profile, connections, groups and settings (and a Hearth's direct messages, to say they stay). */
  exportBasic(): Promise<Json> {
    return this.object('channel/export/basic', { sections: 'channel,connections,config,mail' });
  }

  /** One page (from 0) of the channel's items in the backup form. */
  exportPage(page: number, records: number): Promise<Json> {
    // Until tomorrow, as Hubzilla's own importer asks: the source's clock or time zone may be ahead.
    const until = new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
    return this.object('item/export_page', { page, records, since: '0001-01-01 00:00:00', until });
  }

  /** Every file and folder record of the channel. */
  async files(): Promise<Json[]> {
    const r = await this.object('files');
    return Array.isArray(r.results) ? (r.results as Json[]) : [];
  }

  /** Every photo scale record of the channel (album, title, description, usage); [] when it has none. */
  async photos(): Promise<Json[]> {
    const r = await this.get('photos');
    const photos = r && typeof r === 'object' ? (r as Json).photos : undefined;
    return Array.isArray(photos) ? (photos as Json[]) : [];
  }

  /** A chunk of a file: its record and the decoded bytes. */
  async filedata(hash: string, start: number, length: number): Promise<{ attach: Json; data: Buffer }> {
    const r = await this.object('filedata', { file_id: hash, start, length });
    const attach = r.attach as Json | undefined;
    if (!attach || typeof attach !== 'object') throw new SourceError(`${this.baseUrl} has no file ${hash} any more`);
    const content = str(attach.content);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(content)) throw new SourceError(`the data of file ${hash} is not base64`);
    return { attach, data: Buffer.from(content, 'base64') };
  }

  /** A photo at one scale with the items of its conversation; undefined when that scale does not exist. */
  async photo(resourceId: string, scale: number): Promise<{ photo: Json; item: Json[] } | undefined> {
    const r = await this.get('photo', { photo_id: resourceId, scale }).catch((err: unknown) => {
      if (err instanceof SourceError && /HTTP 404/.test(err.message)) return undefined;
      throw err;
    });
    if (!r || typeof r !== 'object' || !(r as Json).photo) return undefined;
    const item = (r as Json).item;
    return { photo: (r as Json).photo as Json, item: Array.isArray(item) ? (item as Json[]) : [] };
  }
}
