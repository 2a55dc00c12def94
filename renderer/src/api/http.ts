/**
 * The one place where the UI talks HTTP to the hub. Requests carry the session cookie (same
 * origin) plus the X-CSRF-Token header, which is what makes the cookie count for the APIs.
 */

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Params = Record<string, string | number | boolean | undefined | null | Array<string | number>>;

let csrfToken = '';
let onSessionLost: (() => void) | undefined;

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when an API answers 401: the session ended (logged out elsewhere, or expired). */
export function whenSessionLost(handler: () => void): void {
  onSessionLost = handler;
}

/** Says that the session ended, found otherwise than by a 401 (the live stream's check). */
export function sessionLost(): void {
  onSessionLost?.();
}

export const COMPAT = '/api/';
export const NATIVE = '/api/z/1.0/';

export function toSearchParams(params: Params = {}): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) out.append(key, String(v));
    else out.append(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return out;
}

function withQuery(path: string, query?: Params): string {
  const qs = toSearchParams(query).toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  // X-Requested-With: the hub then answers 401 without the Basic challenge that opens the browser's own login dialog.
  return { Accept: 'application/json', 'X-CSRF-Token': csrfToken, 'X-Requested-With': 'XMLHttpRequest', ...extra };
}

/** Turns any of the hub's error bodies (compat, native, web) into a sentence for a person. */
export function errorMessage(status: number, body: unknown, fallback = ''): string {
  let message = '';
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['error', 'message']) {
      if (typeof b[key] === 'string' && b[key]) {
        message = b[key] as string;
        break;
      }
    }
  } else if (typeof body === 'string' && body.length < 300 && !body.trimStart().startsWith('<')) {
    message = body;
  }
  if (status === 401) return 'You are not logged in any more. Please log in again.';
  if (status === 403) return message ? `Not allowed: ${message}` : 'You are not allowed to do that.';
  if (status === 404 && /not implemented/i.test(message)) return `This part of the hub is not available yet (${message.replace(/^not implemented:\s*/i, '')}).`;
  if (status === 413) return 'That file is too large for the hub.';
  if (status >= 500) return `The hub ran into a problem${message ? `: ${message}` : ''}. Please try again.`;
  if (message) return message.charAt(0).toUpperCase() + message.slice(1);
  return fallback || `The hub answered with an error (${status}).`;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function failIfError(status: number, body: unknown): void {
  if (status >= 200 && status < 300) {
    // Native endpoints may report failure inside a 200.
    if (body && typeof body === 'object' && !Array.isArray(body) && (body as { success?: unknown }).success === false) {
      const message = (body as { message?: unknown }).message;
      throw new ApiError(typeof message === 'string' && message ? errorMessage(400, body) : 'The hub could not do that.', status);
    }
    return;
  }
  if (status === 401) onSessionLost?.();
  throw new ApiError(errorMessage(status, body), status);
}

async function send<T>(method: string, path: string, init: { query?: Params; body?: BodyInit; headers?: Record<string, string> }): Promise<T> {
  let res: Response;
  try {
    res = await fetch(withQuery(path, init.query), { method, credentials: 'same-origin', headers: headers(init.headers), body: init.body });
  } catch {
    throw new ApiError('Hearth could not be reached. Is the hub still running?', 0);
  }
  const body = await readBody(res);
  failIfError(res.status, body);
  return body as T;
}

export function get<T>(path: string, query?: Params): Promise<T> {
  return send<T>('GET', path, { query });
}

/** POST as application/x-www-form-urlencoded (repeated keys for arrays). */
export function post<T>(path: string, form: Params = {}, method = 'POST'): Promise<T> {
  return send<T>(method, path, { body: toSearchParams(form), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
}

/** A request with parameters in the query string only (DELETE endpoints). */
export function call<T>(method: string, path: string, query: Params = {}): Promise<T> {
  return send<T>(method, path, { query });
}

export function postJson<T>(path: string, json: unknown): Promise<T> {
  return send<T>('POST', path, { body: JSON.stringify(json), headers: { 'Content-Type': 'application/json' } });
}

export interface UploadHandle<T> {
  promise: Promise<T>;
  abort(): void;
}

/**
 * A multipart POST through XMLHttpRequest, because fetch() cannot report upload progress.
 * `onProgress` receives a fraction between 0 and 1.
 */
export function upload<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): UploadHandle<T> {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open('POST', path);
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(headers())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(e.total ? e.loaded / e.total : 1);
    };
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        /* not JSON: keep the text */
      }
      try {
        failIfError(xhr.status, body);
        onProgress?.(1);
        resolve(body as T);
      } catch (err) {
        reject(err);
      }
    };
    xhr.onerror = () => reject(new ApiError('The upload was interrupted: Hearth could not be reached.', 0));
    xhr.onabort = () => reject(new ApiError('The upload was cancelled.', 0));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

export function describeError(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
