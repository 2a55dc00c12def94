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

/** Any character INVALID_XML_CHARS may remove: most text has none and skips the full test. */
const MAYBE_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function xmlSafeText(s: string): string {
  return MAYBE_INVALID.test(s) ? s.replace(INVALID_XML_CHARS, '') : s;
}

const elementNames = new Map<string, string>();

/** Element name for a JSON key: statusnet_x → statusnet:x, friendica_x → friendica:x; unsafe characters become _. */
export function elementName(key: string): string {
  let name = elementNames.get(key);
  if (name === undefined) {
    name = elementNameOf(key);
    if (elementNames.size < 10_000) elementNames.set(key, name);
  }
  return name;
}

function elementNameOf(key: string): string {
  const m = /^(statusnet|friendica)_(.+)$/.exec(key);
  const name = m ? `${m[1]}:${m[2]}` : key;
  const safe = name.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&apos;', '"': '&quot;' };
const SPECIAL = /[&<>'"]/;

/** A value as escaped element text or attribute value. */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const s = xmlSafeText(String(v)).trim();
  return SPECIAL.test(s) ? s.replace(/[&<>'"]/g, (c) => ENTITIES[c]!) : s;
}

function childName(key: string, opts: XmlOptions): string {
  return opts.childNames?.[key] ?? DEFAULT_CHILD_NAMES[key] ?? (key.endsWith('s') && key.length > 1 ? key.slice(0, -1) : 'item');
}

const indents: string[] = [''];
const indent = (level: number) => (indents[level] ??= '  '.repeat(level));

/**
 * One element, laid out as the documents always were: empty as <a/>, text on the element's line,
 * children one per line indented by two spaces. `children`: the content holds elements (text is
 * escaped and has no '<'; searching the content for one would flatten it at every level).
 */
function element(name: string, attrs: string, content: string, level: number, children = false): string {
  if (content === '') return `${indent(level)}<${name}${attrs}/>\n`;
  if (!children) return `${indent(level)}<${name}${attrs}>${content}</${name}>\n`;
  return `${indent(level)}<${name}${attrs}>\n${content}${indent(level)}</${name}>\n`;
}

/** One document being written: its options and the written parts of objects met before. */
interface Writer {
  opts: XmlOptions;
  /**
   * Attributes and content of each object written, by level: answers repeat objects (a timeline's
   * statuses name the same users as user, author and owner), which are then written once.
   */
  parts: Map<object, { level: number; attrs: string; content: string; children: boolean }>;
}

/** A value as the element `name`; arrays are written by their parent (member()). */
function node(w: Writer, name: string, value: unknown, level: number, extraAttrs = ''): string {
  if (value === null || typeof value !== 'object') return element(name, extraAttrs, text(value), level);
  if (Array.isArray(value)) throw new Error('arrays are converted by their parent');
  const known = w.parts.get(value);
  if (known && known.level === level) return element(name, known.attrs + extraAttrs, known.content, level, known.children);
  let attrs = '';
  let content = '';
  let children = false;
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    const v = o[key];
    if (key === ATTRIBUTES && v && typeof v === 'object') {
      for (const ak of Object.keys(v)) attrs += ` ${elementName(ak)}="${text((v as Record<string, unknown>)[ak])}"`;
    } else if (key === TEXT) {
      content += text(v);
    } else {
      content += member(w, key, v, level + 1);
      children = true;
    }
  }
  w.parts.set(value, { level, attrs, content, children });
  return element(name, attrs + extraAttrs, content, level, children);
}

/** The member `key` of an object; an array becomes an element holding one child per element. */
function member(w: Writer, key: string, value: unknown, level: number): string {
  const name = elementName(key);
  if (!Array.isArray(value)) return node(w, name, value, level);
  const typed = w.opts.arrayTypeKeys?.includes(key) ? ' type="array"' : '';
  const child = childName(key, w.opts);
  let content = '';
  for (const m of value) content += node(w, child, m, level + 1);
  return element(name, typed, content, level, true);
}

/** Renders a value as an XML document with the given root element. */
export function renderXml(root: string, value: unknown, opts: XmlOptions = {}): string {
  return renderXmlPieces(root, value, opts).join('');
}

/**
 * The same document in pieces (for a top-level array: the start, each member, the end), to be
 * written out one after another: joining a large document into one text costs more than writing it.
 */
export function renderXmlPieces(root: string, value: unknown, opts: XmlOptions = {}): string[] {
  const w: Writer = { opts, parts: new Map() };
  const namespaces = namespaceAttrs(opts);
  // The root's own attributes come first, then the namespace declarations.
  if (!Array.isArray(value)) return [XML_HEAD + node(w, root, value, 0, namespaces)];
  const attrs = arrayRootAttrs(opts);
  if (value.length === 0) return [XML_HEAD + element(root, attrs, '', 0, true)];
  const child = opts.itemName ?? childName(root, opts);
  return [`${XML_HEAD}<${root}${attrs}>\n`, ...value.map((m) => node(w, child, m, 1)), `</${root}>\n`];
}

/**
 * A document whose root holds an array, in pieces written only as the elements are reached: a
 * list too long to hold. Each element is written on its own (objects shared between elements are
 * written again rather than remembered for the whole document).
 */
export function* renderXmlArrayStream(root: string, elements: Iterable<unknown>, opts: XmlOptions = {}): Generator<string> {
  const attrs = arrayRootAttrs(opts);
  const child = opts.itemName ?? childName(root, opts);
  let empty = true;
  for (const m of elements) {
    if (empty) yield `${XML_HEAD}<${root}${attrs}>\n`;
    empty = false;
    yield node({ opts, parts: new Map() }, child, m, 1);
  }
  yield empty ? XML_HEAD + element(root, attrs, '', 0, true) : `</${root}>\n`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

function namespaceAttrs(opts: XmlOptions): string {
  let namespaces = '';
  if (opts.namespaces) for (const [k, v] of Object.entries(XML_NAMESPACES)) namespaces += ` ${k}="${v}"`;
  return namespaces;
}

function arrayRootAttrs(opts: XmlOptions): string {
  return (opts.arrayType !== false ? ' type="array"' : '') + namespaceAttrs(opts);
}
