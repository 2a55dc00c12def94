import type { Context, Middleware, Next } from 'koa';
import type { koaBody as KoaBody } from 'koa-body';
import { createRequire } from 'node:module';
import { rm } from 'node:fs/promises';
import type { UploadedFile } from './params.js';
import { HttpError } from './errors.js';
import type { TmpSpace } from '../files/tmp-space.js';
import { numberUpload } from './upload-order.js';

export interface BodyLimits {
  /** Largest accepted uploaded file, in bytes. */
  maxUploadBytes: number;
  /** Largest accepted urlencoded/JSON/text body or multipart text field, in bytes. */
  maxFormBytes: number;
  /** Multipart uploads received at the same time; more are refused (503) until one ends. */
  maxUploadsInFlight: number;
  /**
   * Bytes the uploads in progress (and the files an import is fetching) may hold in the temporary
   * folder together, counted by their declared length (the largest upload when they declare none);
   * beyond it, 503 until some end.
   */
  maxTmpBytes: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  maxUploadBytes: 512 * 1024 * 1024,
  maxFormBytes: 4 * 1024 * 1024,
  maxUploadsInFlight: 32,
  maxTmpBytes: 4 * 1024 * 1024 * 1024,
};

const require = createRequire(import.meta.url);
export const PARSED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

type FormPart = { originalFilename: string | null; mimetype: string | null };

/**
 * A multipart part with a filename is a file, whatever its headers: Python's requests and other
 * common libraries send file parts without a Content-Type, which formidable would read as text.
 */
function filePartsAreFiles<P extends FormPart>(part: P, handle: (part: P) => void): void {
  if (part.originalFilename !== null && part.originalFilename !== undefined && !part.mimetype) part.mimetype = 'application/octet-stream';
  handle(part);
}

/** A body that could not be decompressed is the client's mistake (zlib names its errors Z_…). */
function parseFailure(err: Error): Error {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('Z_')) return new HttpError(400, 'Malformed request body: it could not be decompressed as its Content-Encoding says');
  return err;
}

/** Refused before the body was read: the connection closes instead of reading the rest of it. */
export function refusedBeforeBody(status: number, message: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, message, { ...headers, Connection: 'close' });
}

export function isMultipart(ctx: Context): boolean {
  return Boolean(ctx.request.is('multipart'));
}

export function hasBody(ctx: Context): boolean {
  return PARSED_METHODS.includes(ctx.method.toUpperCase()) && Boolean(ctx.request.length || ctx.get('transfer-encoding'));
}

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Parses urlencoded, JSON, text and multipart bodies for every method that carries one. Uploaded
 * files land in `tmpDir` (inside the data directory, so moving them into the store is a rename);
 * whatever a handler did not move away is removed when the request ends, whether it failed or not.
 * Built when the hub starts: loading it on the first POST meant loading it whenever that came,
 * under whatever file-handle pressure there was then.
 */
export function bodyParser(tmpDir: string, limits: BodyLimits, space: TmpSpace): Middleware {
  const { koaBody } = require('koa-body') as { koaBody: typeof KoaBody };
  const parse = koaBody({
    multipart: true,
    urlencoded: true,
    json: true,
    text: true,
    jsonStrict: false,
    // OAuth 1.0a signs urlencoded parameters exactly as sent; the raw text is kept in ctx.request.rawBody.
    includeUnparsed: true,
    formLimit: limits.maxFormBytes,
    jsonLimit: limits.maxFormBytes,
    textLimit: limits.maxFormBytes,
    parsedMethods: PARSED_METHODS as never,
    onError: (err) => {
      throw parseFailure(err);
    },
    formidable: {
      uploadDir: tmpDir,
      keepExtensions: false,
      maxFileSize: limits.maxUploadBytes,
      maxTotalFileSize: limits.maxUploadBytes,
      maxFieldsSize: limits.maxFormBytes,
      maxFiles: 100,
      allowEmptyFiles: true,
      minFileSize: 0,
      onPart: filePartsAreFiles,
      onFileBegin: numberUpload,
    },
  });
  let uploads = 0;
  return async (ctx: Context, next: Next) => {
    if (!PARSED_METHODS.includes(ctx.method.toUpperCase())) return next();
    let reservation = 0;
    if (isMultipart(ctx)) {
      const declared = ctx.request.length;
      const largest = limits.maxUploadBytes + limits.maxFormBytes;
      if (declared !== undefined && declared > largest) throw refusedBeforeBody(413, `Upload too large: at most ${mb(limits.maxUploadBytes)}`);
      reservation = Math.max(1, declared ?? largest);
      if (reservation > limits.maxTmpBytes) throw refusedBeforeBody(413, `Upload too large: the hub takes at most ${mb(limits.maxTmpBytes)} of uploads at a time`);
      if (uploads >= limits.maxUploadsInFlight) throw refusedBeforeBody(503, `Too many uploads in progress (${limits.maxUploadsInFlight}); try again when one has finished`, { 'Retry-After': '5' });
      if (!space.reserve(reservation)) throw refusedBeforeBody(503, `The space for uploads in progress (${mb(limits.maxTmpBytes)}) is taken; try again when one has finished`, { 'Retry-After': '5' });
      uploads++;
    }
    try {
      await parse(ctx, next);
    } finally {
      const files = (ctx.request as { files?: Record<string, UploadedFile | UploadedFile[]> }).files;
      if (files) {
        const all = Object.values(files).flatMap((f) => (Array.isArray(f) ? f : [f]));
        await Promise.all(all.map((f) => rm(f.filepath, { force: true }).catch(() => undefined)));
      }
      if (reservation) {
        uploads--;
        space.release(reservation);
      }
    }
  };
}
