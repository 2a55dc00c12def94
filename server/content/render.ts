import type BbobHtml from '@bbob/html';
import type MarkdownItType from 'markdown-it';
import type SanitizeHtml from 'sanitize-html';
import { lazyPackage } from '../util/lazy.js';
import { createBbcodeRenderer } from './bbcode.js';
import { createMarkdownRenderer, escapeHtml, plainToHtml } from './markup.js';

export { escapeHtml };

const bbobHTML = lazyPackage<{ default: typeof BbobHtml }>('@bbob/html');
const sanitizeHtml = lazyPackage<typeof SanitizeHtml>('sanitize-html');
const MarkdownIt = lazyPackage<typeof MarkdownItType>('markdown-it');

/**
 * Raised whenever the HTML renderBody makes for a stored body changes; items rendered by an older
 * version are rendered again when the hub starts (services/rendered-html.ts).
 * 2: brackets that are no tag, unclosed tags and [code] content are text.
 * 3: items keep the plain text of their HTML as well (item.html_text).
 * 4: the BBCode lines of uploaded photos and files in Markdown and plain-text bodies are shown as
 *    pictures and links, not as text.
 */
export const RENDERER_VERSION = 4;

export const SUPPORTED_MIMETYPES = ['text/bbcode', 'text/markdown', 'text/plain'] as const;
export type BodyMimetype = (typeof SUPPORTED_MIMETYPES)[number];

export function isSupportedMimetype(m: string): m is BodyMimetype {
  return (SUPPORTED_MIMETYPES as readonly string[]).includes(m);
}

let markdownMemo: ((body: string) => string) | undefined;
const markdownToHtml = (body: string) => (markdownMemo ??= createMarkdownRenderer(MarkdownIt()))(body);

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
    ol: ['type'],
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

let bbcodeMemo: ((body: string) => string) | undefined;
const bbcodeToHtml = (body: string) => (bbcodeMemo ??= createBbcodeRenderer(bbobHTML().default))(body);

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
  if (mimetype === 'text/markdown') html = markdownToHtml(body);
  else if (mimetype === 'text/plain') html = plainToHtml(body);
  // Posts from other servers (ActivityPub) arrive as HTML; the sanitizer below keeps what is safe.
  else if (mimetype === 'text/html') html = body;
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
