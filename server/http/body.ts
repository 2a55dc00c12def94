import type { Middleware } from 'koa';
import type { koaBody as KoaBody } from 'koa-body';
import { lazyPackage } from '../util/lazy.js';
import { rm } from 'node:fs/promises';
import type { UploadedFile } from './params.js';

export interface BodyLimits {
  /** Largest accepted uploaded file, in bytes. */
  maxUploadBytes: number;
  /** Largest accepted urlencoded/JSON/text body or multipart text field, in bytes. */
  maxFormBytes: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  maxUploadBytes: 512 * 1024 * 1024,
  maxFormBytes: 4 * 1024 * 1024,
};

/**
 * Parses urlencoded, JSON, text and multipart bodies for every method that carries one. Uploaded
 * files land in `tmpDir` (inside the data directory, so moving them into the store is a rename);
 * whatever a handler did not move away is removed when the request ends, whether it failed or not.
 */
const koaBodyPackage = lazyPackage<{ koaBody: typeof KoaBody }>('koa-body');
const PARSED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

type FormPart = { originalFilename: string | null; mimetype: string | null };

/**
 * A multipart part with a filename is a file, whatever its headers: Python's requests and other
 * common libraries send file parts without a Content-Type, which formidable would read as text.
 */
function filePartsAreFiles<P extends FormPart>(part: P, handle: (part: P) => void): void {
  if (part.originalFilename !== null && part.originalFilename !== undefined && !part.mimetype) part.mimetype = 'application/octet-stream';
  handle(part);
}

export function bodyParser(tmpDir: string, limits: BodyLimits): Middleware {
  // Built on the first request with a body: the parser and its dependencies take a while to load,
  // and requests of other methods pass through it untouched anyway.
  const makeParser = () => koaBodyPackage().koaBody({
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
    },
  });
  let parse: Middleware | undefined;
  return async (ctx, next) => {
    if (!PARSED_METHODS.includes(ctx.method.toUpperCase())) return next();
    parse ??= makeParser();
    try {
      await parse(ctx, next);
    } finally {
      const files = (ctx.request as { files?: Record<string, UploadedFile | UploadedFile[]> }).files;
      if (files) {
        const all = Object.values(files).flatMap((f) => (Array.isArray(f) ? f : [f]));
        await Promise.all(all.map((f) => rm(f.filepath, { force: true }).catch(() => undefined)));
      }
    }
  };
}
