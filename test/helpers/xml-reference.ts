/**
 * The XML writer the hub used before it wrote XML itself (fast-xml-parser's builder over a converted
 * tree), kept as the reference its answers must equal byte for byte (test/unit/xml-writer.test.ts).
 */
import type { XMLBuilder as XMLBuilderType } from 'fast-xml-parser';
import { lazyPackage } from '../../server/util/lazy.js';

const fastXmlParser = lazyPackage<{ XMLBuilder: typeof XMLBuilderType }>('fast-xml-parser');

export const XML_NAMESPACES = {
  xmlns: 'http://api.twitter.com',
  'xmlns:statusnet': 'http://status.net/schema/api/1/',
  'xmlns:friendica': 'http://friendi.ca/schema/api/1/',
  'xmlns:georss': 'http://www.georss.org/georss',
} as const;

/** A value whose XML form is a set of attributes on its element, plus optional text. */
export const ATTRIBUTES = '@attributes';
export const TEXT = '#text';

export interface XmlOptions {
  /** Name of each element of a top-level array. */
  itemName?: string;
  /** Put the Twitter/StatusNet/Friendica namespace declarations on the root. */
  namespaces?: boolean;
  /** Mark list roots with type="array" (StatusNet style). */
  arrayType?: boolean;
  /** Element names for the members of nested arrays, by key; default: the key without a final s. */
  childNames?: Record<string, string>;
  /** Keys of nested arrays whose element carries type="array" (e.g. ext/photo's links). */
  arrayTypeKeys?: string[];
}

const DEFAULT_CHILD_NAMES: Record<string, string> = {
  media: 'media',
  like: 'user',
  dislike: 'user',
  attendyes: 'user',
  attendno: 'user',
  attendmaybe: 'user',
  user: 'user',
  users: 'user',
  'wrong users': 'user',
  friendica_comments: 'comment',
  comments: 'comment',
  links: 'link',
  entries: 'entry',
  categories: 'category',
  indices: 'index',
};

// XML 1.0 cannot carry most control characters, lone surrogates or U+FFFE/U+FFFF.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlSafeText(s: string): string {
  return s.replace(INVALID_XML_CHARS, '');
}

/** Element name for a JSON key: statusnet_x → statusnet:x, friendica_x → friendica:x; unsafe characters become _. */
export function elementName(key: string): string {
  const m = /^(statusnet|friendica)_(.+)$/.exec(key);
  const name = m ? `${m[1]}:${m[2]}` : key;
  const safe = name.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

function scalarText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return xmlSafeText(String(v)).trim();
}

function childName(key: string, opts: XmlOptions): string {
  return opts.childNames?.[key] ?? DEFAULT_CHILD_NAMES[key] ?? (key.endsWith('s') && key.length > 1 ? key.slice(0, -1) : 'item');
}

/** Converts a JSON-shaped value into fast-xml-parser's builder input (attributes prefixed with @_). */
function toNode(value: unknown, opts: XmlOptions): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return scalarText(value);
  if (Array.isArray(value)) throw new Error('arrays are converted by their parent');
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === ATTRIBUTES && v && typeof v === 'object') {
      for (const [ak, av] of Object.entries(v as Record<string, unknown>)) out[`@_${elementName(ak)}`] = scalarText(av);
      continue;
    }
    if (key === TEXT) {
      out['#text'] = scalarText(v);
      continue;
    }
    const name = elementName(key);
    if (Array.isArray(v)) {
      const members = v.map((m) => toNode(m, opts));
      const typed = opts.arrayTypeKeys?.includes(key) ? { '@_type': 'array' } : undefined;
      out[name] = members.length ? { ...typed, [childName(key, opts)]: members } : (typed ?? '');
    } else {
      out[name] = toNode(v, opts);
    }
  }
  return out;
}

let builderMemo: XMLBuilderType | undefined;
const builder = () => (builderMemo ??= new (fastXmlParser().XMLBuilder)({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
}));

/** Renders a value as an XML document with the given root element. */
export function renderXml(root: string, value: unknown, opts: XmlOptions = {}): string {
  let rootNode: Record<string, unknown>;
  if (Array.isArray(value)) {
    const members = value.map((m) => toNode(m, opts));
    rootNode = members.length ? { [opts.itemName ?? childName(root, opts)]: members } : {};
    if (opts.arrayType !== false) rootNode['@_type'] = 'array';
  } else if (value !== null && typeof value === 'object') {
    rootNode = toNode(value, opts) as Record<string, unknown>;
  } else {
    rootNode = { '#text': scalarText(value) };
  }
  if (opts.namespaces) for (const [k, v] of Object.entries(XML_NAMESPACES)) rootNode[`@_${k}`] = v;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder().build({ [root]: rootNode })}`;
}
