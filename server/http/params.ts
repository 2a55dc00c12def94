import type { Context } from 'koa';
import { badRequest } from './errors.js';
import { inSentOrder } from './upload-order.js';

export type ParamValue = string | string[];
export type Params = Record<string, ParamValue>;

export interface UploadedFile {
  filepath: string;
  originalFilename: string | null;
  mimetype: string | null;
  size: number;
}

/**
 * Query string, urlencoded and multipart fields merged into one bag (body fields win), the way
 * both APIs read their parameters. Names ending in [] are stored without the brackets.
 */
export function mergedParams(ctx: Context): Params {
  const out: Params = {};
  const add = (source: unknown) => {
    if (!source || typeof source !== 'object' || Array.isArray(source)) return;
    for (const [rawKey, value] of Object.entries(source as Record<string, unknown>)) {
      const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
      const values = (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined && v !== null).map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)));
      if (values.length === 0) continue;
      const prev = out[key];
      if (prev === undefined || source !== ctx.query) out[key] = values.length === 1 && !rawKey.endsWith('[]') ? values[0]! : values;
      else out[key] = ([] as string[]).concat(prev, values);
    }
  };
  add(ctx.query);
  const body = (ctx.request as { body?: unknown }).body;
  if (body && typeof body === 'object' && !Array.isArray(body) && !isJsonRequest(ctx)) add(body);
  return out;
}

function isJsonRequest(ctx: Context): boolean {
  return Boolean(ctx.request.is('application/json', 'application/*+json'));
}

/** Accessors over a parameter bag with the coercions both APIs need. */
export class ParamReader {
  constructor(public readonly values: Params, private readonly files: Record<string, UploadedFile | UploadedFile[]> = {}) {}

  has(name: string): boolean {
    return this.values[name] !== undefined;
  }

  /** The last value of a parameter as a string, or undefined. Rejects invalid text. */
  str(name: string): string | undefined {
    const v = this.values[name];
    const s = Array.isArray(v) ? v[v.length - 1] : v;
    if (s === undefined) return undefined;
    if (s.includes('\u0000') || s.includes('\uFFFD')) throw badRequest(`parameter ${name} is not valid text`);
    return s;
  }

  required(name: string): string {
    const s = this.str(name)?.trim();
    if (!s) throw badRequest(`missing parameter: ${name}`);
    return s;
  }

  /** All values: repeated parameters, name[] arrays and comma-separated lists. */
  list(name: string): string[] {
    const v = this.values[name];
    if (v === undefined) return [];
    return (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  }

  /** An integer parameter; undefined when absent or empty, 400 when malformed or out of range. */
  int(name: string, opts: { min?: number; max?: number } = {}): number | undefined {
    const s = this.str(name)?.trim();
    if (s === undefined || s === '') return undefined;
    if (!/^-?\d{1,15}$/.test(s)) throw badRequest(`parameter ${name} must be an integer`);
    const n = Number(s);
    if (opts.min !== undefined && n < opts.min) throw badRequest(`parameter ${name} must be at least ${opts.min}`);
    if (opts.max !== undefined && n > opts.max) throw badRequest(`parameter ${name} must be at most ${opts.max}`);
    return n;
  }

  /** An integer clamped into a range (Twitter-style count/page), falling back to a default. */
  clamped(name: string, def: number, min: number, max: number): number {
    const s = this.str(name)?.trim();
    if (!s || !/^-?\d{1,15}$/.test(s)) return def;
    return Math.min(max, Math.max(min, Number(s)));
  }

  /** A boolean: 1/true/on/yes are true, 0/false/off/no/'' are false. */
  bool(name: string, def = false): boolean {
    const s = this.str(name)?.trim().toLowerCase();
    if (s === undefined) return def;
    if (['1', 'true', 'on', 'yes', 'y'].includes(s)) return true;
    if (['0', 'false', 'off', 'no', 'n', ''].includes(s)) return false;
    throw badRequest(`parameter ${name} must be a boolean`);
  }

  file(name: string): UploadedFile | undefined {
    const f = this.files[name] ?? this.files[`${name}[]`];
    return Array.isArray(f) ? f[0] : f;
  }

  fileList(name: string): UploadedFile[] {
    const f = this.files[name] ?? this.files[`${name}[]`];
    return f === undefined ? [] : Array.isArray(f) ? inSentOrder(f) : [f];
  }
}

export function paramReader(ctx: Context): ParamReader {
  const files = ((ctx.request as { files?: Record<string, UploadedFile | UploadedFile[]> }).files ?? {}) as Record<string, UploadedFile | UploadedFile[]>;
  return new ParamReader(mergedParams(ctx), files);
}
