import { STATUS_CODES } from 'node:http';

/** An error that becomes an HTTP response with this status; the message is shown to the client. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message?: string,
    public readonly headers: Record<string, string> = {},
  ) {
    super(message ?? STATUS_CODES[status] ?? 'Error');
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const unauthorized = (message = 'This API requires login') =>
  new HttpError(401, message, { 'WWW-Authenticate': 'Basic realm="Hearth"' });
export const methodNotAllowed = (allowed: string[]) =>
  new HttpError(405, `Method not allowed; allowed: ${allowed.join(', ')}`, { Allow: allowed.join(', ') });

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * Converts anything thrown while handling a request into an HttpError. Errors raised by the body
 * parser and by libraries carry a status or an expose flag; anything else is an internal error,
 * whose details are logged but never sent.
 */
export function toHttpError(err: unknown): { error: HttpError; internal: boolean } {
  if (err instanceof HttpError) return { error: err, internal: false };
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; code?: string | number; httpCode?: number };
  // formidable (multipart) errors: size limits → 413, anything else about the body → 400.
  if (typeof e?.httpCode === 'number' || (typeof e?.code === 'number' && e.code >= 1000 && e.code < 1100)) {
    const status = e.httpCode === 413 || /maxFileSize|maxTotalFileSize|maxFieldsSize|exceeded|too large/i.test(e.message ?? '') ? 413 : 400;
    return { error: new HttpError(status, status === 413 ? 'Upload too large' : `Malformed request body: ${e.message}`), internal: false };
  }
  // Out of file handles: it passes once other requests end, so the client should try again.
  if (e?.code === 'EMFILE' || e?.code === 'ENFILE') return { error: new HttpError(503, 'The hub is out of file handles for the moment; try again shortly', { 'Retry-After': '5' }), internal: true };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = status === 413 ? 'Request body too large' : e.expose && e.message ? e.message : reasonPhrase(status);
    return { error: new HttpError(status, message), internal: false };
  }
  return { error: new HttpError(500, 'Internal error'), internal: true };
}
