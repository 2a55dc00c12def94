import type BbobHtml from '@bbob/html';
import type PresetHtml5 from '@bbob/preset-html5';
import type MarkdownItType from 'markdown-it';
import type SanitizeHtml from 'sanitize-html';
import { lazyPackage } from '../util/lazy.js';

const bbobHTML = lazyPackage<{ default: typeof BbobHtml }>('@bbob/html');
const presetHTML5 = lazyPackage<{ default: typeof PresetHtml5 }>('@bbob/preset-html5');
const sanitizeHtml = lazyPackage<typeof SanitizeHtml>('sanitize-html');
const MarkdownIt = lazyPackage<typeof MarkdownItType>('markdown-it');

export const SUPPORTED_MIMETYPES = ['text/bbcode', 'text/markdown', 'text/plain'] as const;
export type BodyMimetype = (typeof SUPPORTED_MIMETYPES)[number];

export function isSupportedMimetype(m: string): m is BodyMimetype {
  return (SUPPORTED_MIMETYPES as readonly string[]).includes(m);
}

type BbNode = { attrs?: Record<string, string>; content?: unknown };

/** The text inside a tag ([img]url[/img]). */
function nodeText(node: BbNode): string {
  const content = Array.isArray(node.content) ? node.content : [];
  return content.filter((c): c is string => typeof c === 'string').join('').trim();
}

/** The [tag=value] attribute: bbob stores it as a key equal to its value. */
function uniqueAttr(node: BbNode): string | undefined {
  const attrs = node.attrs ?? {};
  return Object.keys(attrs).find((k) => attrs[k] === k);
}

/** [img]url[/img], [img=url]alt[/img], [img=640x480]url[/img]; Hubzilla's [zmg] likewise. */
function image(node: BbNode) {
  const attr = uniqueAttr(node);
  const text = nodeText(node);
  const attrIsUrl = attr !== undefined && /^https?:\/\//i.test(attr);
  const size = attr && /^(\d{1,4})x(\d{1,4})$/.exec(attr);
  const attrs: Record<string, string> = { src: attrIsUrl ? attr : text, alt: attrIsUrl ? text : '' };
  if (size) Object.assign(attrs, { width: size[1], height: size[2] });
  return { tag: 'img', attrs, content: null };
}

/** [share author=… profile=… link=…]text[/share]: a quoted post with its attribution. */
function share(node: BbNode) {
  const a = node.attrs ?? {};
  const author = a.author ?? '';
  const byline = a.profile ? { tag: 'a', attrs: { href: a.profile }, content: [author] } : author;
  return {
    tag: 'div',
    attrs: { class: 'shared-post' },
    content: [
      { tag: 'p', attrs: { class: 'shared-author' }, content: [byline, ' wrote', a.link ? [' (', { tag: 'a', attrs: { href: a.link }, content: ['original'] }, ')'] : [], ':'].flat() },
      { tag: 'blockquote', content: node.content },
    ],
  };
}

/** Hubzilla's BBCode adds [zrl] and [zmg] (links and images to identities), rendered as plain ones. */
let bbcodePresetMemo: ReturnType<typeof PresetHtml5.extend> | undefined;
const bbcodePreset = () => (bbcodePresetMemo ??= presetHTML5().default.extend((tags) => ({
  ...tags,
  zrl: (node, core, options) => tags.url!(node, core, options),
  img: (node) => image(node as BbNode),
  zmg: (node) => image(node as BbNode),
  share: (node) => share(node as BbNode) as never,
  h1: (node) => ({ tag: 'h1', content: node.content }),
  h2: (node) => ({ tag: 'h2', content: node.content }),
  h3: (node) => ({ tag: 'h3', content: node.content }),
  center: (node) => ({ tag: 'div', attrs: { style: 'text-align: center;' }, content: node.content }),
  hr: () => ({ tag: 'hr', content: null }),
})))();

let markdownMemo: InstanceType<typeof MarkdownItType> | undefined;
const markdown = () => (markdownMemo ??= new (MarkdownIt())({ html: false, linkify: true, breaks: true }));

/** Links in posts must be absolute http(s)/mailto URLs; anything else (e.g. an escaped javascript: URL) is dropped. */
function withAbsoluteUrl(attribs: Record<string, string>, name: string): Record<string, string> {
  const v = attribs[name];
  if (v === undefined || /^(https?:\/\/|mailto:|data:image\/)/i.test(v)) return attribs;
  const { [name]: _dropped, ...rest } = attribs;
  return rest;
}

const SANITIZE: SanitizeHtml.IOptions = {
  allowedTags: [
    'a', 'b', 'strong', 'i', 'em', 'u', 's', 'del', 'strike', 'span', 'div', 'p', 'br', 'hr', 'blockquote', 'pre', 'code',
    'ul', 'ol', 'li', 'img', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'sub', 'sup',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'class', 'rel', 'target'],
    p: ['class'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    span: ['style', 'class'],
    div: ['style', 'class'],
    '*': [],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  // Only harmless presentational styles survive; no url(), expression() or positioning tricks.
  allowedStyles: {
    '*': {
      color: [/^#[0-9a-f]{3,8}$/i, /^[a-z]{3,20}$/i, /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/i],
      'font-weight': [/^(bold|normal|\d{3})$/],
      'font-style': [/^(italic|normal)$/],
      'text-decoration': [/^(underline|line-through|none)$/],
      'font-size': [/^\d{1,2}(\.\d+)?(em|px|pt|%)$/],
      'text-align': [/^(left|right|center|justify)$/],
    },
  },
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...withAbsoluteUrl(attribs, 'href'), rel: 'nofollow noopener noreferrer', target: '_blank' } }),
    img: (tagName, attribs) => ({ tagName, attribs: withAbsoluteUrl(attribs, 'src') }),
  },
};

/** Makes arbitrary HTML safe to show to a viewer: no script, event handlers, javascript: URLs or CSS tricks. */
export function sanitize(html: string): string {
  return sanitizeHtml()(html, SANITIZE);
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * Bare URLs in BBCode text become [url] links; URLs that are a tag's attribute or content
 * ([url=…], [img]…), or inside code, stay as they are.
 */
function linkBareUrls(body: string): string {
  return body
    .split(/(\[(code|pre|nobb|url|zrl|img|zmg|video|audio|zvideo|zaudio)(?:=[^\]]*)?\][\s\S]*?\[\/\2\])/i)
    .map((part, i) => (i % 3 === 0 ? part.replace(/(?<![=\]\w"'/])https?:\/\/[^\s\[\]<>"']+[^\s\[\]<>"'.,;:!?)]/g, (url) => `[url]${url}[/url]`) : i % 3 === 1 ? part : ''))
    .join('');
}

function bbcodeToHtml(body: string): string {
  // Raw HTML in a BBCode body is text, not markup. (The renderer escapes & in attributes itself.)
  const escaped = linkBareUrls(body).replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const html = bbobHTML().default(escaped, bbcodePreset());
  return html.replace(/\r?\n/g, '<br>');
}

function plainToHtml(body: string): string {
  return escapeHtml(body)
    .replace(/\bhttps?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\r?\n/g, '<br>');
}

/**
 * Remembers the results of a pure string function for recently seen inputs. Clients poll the same
 * timelines and notifications over and over, and each render parses and sanitises the HTML anew.
 */
function memoized(fn: (input: string) => string, maxEntries = 1000, maxInputLength = 4096): (input: string) => string {
  const cache = new Map<string, string>();
  return (input) => {
    const hit = cache.get(input);
    if (hit !== undefined) return hit;
    const out = fn(input);
    if (input.length <= maxInputLength) {
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      cache.set(input, out);
    }
    return out;
  };
}

const renderMemo = memoized((key) => {
  const cut = key.indexOf('\n');
  const mimetype = key.slice(0, cut);
  const body = key.slice(cut + 1);
  let html: string;
  if (mimetype === 'text/markdown') html = markdown().render(body);
  else if (mimetype === 'text/plain') html = plainToHtml(body);
  else html = bbcodeToHtml(body);
  return sanitize(html).trim();
});

/** Renders an item body to sanitized HTML according to its mimetype. */
export function renderBody(body: string, mimetype: string = 'text/bbcode'): string {
  return renderMemo(`${mimetype}\n${body}`);
}

/** Plain text of HTML that renderBody produced. */
export const htmlToText = memoized((rendered) => {
  const html = rendered.replace(/<br\s*\/?>/g, '\n').replace(/<\/(p|div|li|blockquote|h\d)>/g, '$&\n');
  const text = sanitizeHtml()(html, { allowedTags: [], allowedAttributes: {} });
  return decodeEntities(text).replace(/\n{3,}/g, '\n\n').trim();
});

/** Plain text of a body (for Twitter's `text` field and notifications). */
export function bodyToText(body: string, mimetype: string = 'text/bbcode'): string {
  return htmlToText(renderBody(body, mimetype));
}

function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}
