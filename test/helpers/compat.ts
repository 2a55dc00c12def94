import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import type { TestHub } from './hub.js';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (name, jpath) => ['statuses.status', 'users.user', 'ids.id'].includes(String(jpath)) });

/** Parses an XML document; fails the test when it is not well-formed. */
export function parseXml(text: string): Record<string, any> {
  assert.match(text, /^<\?xml /, 'XML declaration');
  return parser.parse(text, true) as Record<string, any>;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  res: Response;
}

/** A request as channel `as` (or anonymous); the JSON body parsed when it is JSON. */
export async function call<T = any>(t: TestHub, path: string, opts: { as?: string; method?: string; form?: Record<string, string | string[]>; body?: BodyInit; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
  let body = opts.body;
  if (opts.form) {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.form)) for (const one of Array.isArray(v) ? v : [v]) p.append(k, one);
    body = p;
  }
  const res = await t.request(path, { as: opts.as, method: opts.method ?? (body ? 'POST' : 'GET'), body, headers: opts.headers });
  const text = await res.text();
  let parsed: unknown;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) parsed = JSON.parse(text);
  return { status: res.status, body: parsed as T, text, res };
}

/** Asserts a 200 JSON answer and returns its body. */
export async function ok<T = any>(t: TestHub, path: string, opts: Parameters<typeof call>[2] = {}): Promise<T> {
  const a = await call<T>(t, path, opts);
  assert.equal(a.status, 200, `${path}: ${a.text.slice(0, 300)}`);
  assert.equal(a.body === undefined, false, `${path} answered JSON`);
  return a.body;
}

/** Asserts an error status with the compat error body. */
export async function fails(t: TestHub, path: string, status: number, opts: Parameters<typeof call>[2] = {}): Promise<string> {
  const a = await call(t, path, opts);
  assert.equal(a.status, status, `${path}: ${a.text.slice(0, 300)}`);
  if (path.includes('.xml')) {
    const doc = parseXml(a.text);
    assert.ok(doc.status?.error, `${path}: XML error body`);
    return String(doc.status.error);
  }
  assert.equal(typeof a.body?.error, 'string', `${path}: error body ${a.text.slice(0, 200)}`);
  assert.match(a.body.code, new RegExp(`^${status} `));
  return a.body.error;
}

/** Ids of a JSON list of statuses. */
export const ids = (statuses: { id: number }[]) => statuses.map((s) => s.id);
