import { createElement, type CSSProperties, type ReactNode } from 'react';
import { Link } from '../router.tsx';
import { highlight, useHighlight } from './highlight.tsx';
import { takePictureRuns, type Picture } from './pictureRuns.ts';
import { safeUrl } from './safeUrl.ts';

export { safeUrl };

/**
 * Shows HTML without ever handing a string to the DOM: the markup is parsed (inert, in a detached
 * document) and rebuilt as React elements from an allowlist of tags, attributes, URL schemes and
 * styles. Everything else is dropped; unknown wrappers keep only their text.
 */

const TAGS = new Set([
  'a', 'b', 'strong', 'i', 'em', 'u', 's', 'del', 'strike', 'span', 'div', 'p', 'br', 'hr', 'blockquote', 'pre', 'code',
  'ul', 'ol', 'li', 'img', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'sub', 'sup',
  'details', 'summary',
]);
const VOID = new Set(['br', 'hr', 'img']);
/** Classes the hub's renderer gives to its own notes (a removed photo, who is quoted). */
const CLASSES = new Set(['photo-removed', 'quote-author', 'shared-author', 'content-warning']);
const DROP_WITH_CONTENT = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math', 'head', 'title']);

const STYLES: Record<string, { prop: keyof CSSProperties; ok: RegExp }> = {
  color: { prop: 'color', ok: /^(#[0-9a-f]{3,8}|[a-z]{3,20}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\))$/i },
  'font-weight': { prop: 'fontWeight', ok: /^(bold|normal|\d{3})$/ },
  'font-style': { prop: 'fontStyle', ok: /^(italic|normal)$/ },
  'text-decoration': { prop: 'textDecoration', ok: /^(underline|line-through|none)$/ },
  'font-size': { prop: 'fontSize', ok: /^\d{1,2}(\.\d+)?(em|px|pt|%)$/ },
  'text-align': { prop: 'textAlign', ok: /^(left|right|center|justify)$/ },
};

function safeStyle(el: Element): CSSProperties | undefined {
  const raw = el.getAttribute('style');
  if (!raw) return undefined;
  const style: Record<string, string> = {};
  for (const decl of raw.split(';')) {
    const colon = decl.indexOf(':');
    if (colon < 0) continue;
    const name = decl.slice(0, colon).trim().toLowerCase();
    const value = decl.slice(colon + 1).trim();
    const rule = STYLES[name];
    if (rule && rule.ok.test(value)) style[rule.prop as string] = value;
  }
  return Object.keys(style).length ? (style as CSSProperties) : undefined;
}

function attributes(el: Element, tag: string): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  if (tag === 'a') {
    const href = safeUrl(el.getAttribute('href'), 'link');
    if (href) {
      props.href = href;
      props.target = '_blank';
      props.rel = 'noopener noreferrer nofollow';
    }
    const title = el.getAttribute('title');
    if (title) props.title = title;
  } else if (tag === 'img') {
    const src = safeUrl(el.getAttribute('src'), 'image');
    if (!src) return { skip: true };
    props.src = src;
    props.alt = el.getAttribute('alt') ?? '';
    props.loading = 'lazy';
    for (const dim of ['width', 'height']) {
      const v = el.getAttribute(dim);
      if (v && /^\d{1,4}$/.test(v)) props[dim] = Number(v);
    }
  } else if (tag === 'ol') {
    const type = el.getAttribute('type');
    if (type && /^[1aAiI]$/.test(type)) props.type = type;
  }
  const style = safeStyle(el);
  if (style) props.style = style;
  const known = (el.getAttribute('class') ?? '').split(/\s+/).filter((c) => CLASSES.has(c));
  if (known.length) props.className = known.join(' ');
  return props;
}

/**
 * The hashtags and mentions a post carries (from its entities): in its text they become links to the
 * tag's page and the channel's page. Only these, so that `#1` in prose or an address stays text.
 */
export interface PostLinks {
  tags: ReadonlySet<string>;
  mentions: ReadonlySet<string>;
}

/** No links inside these: a link cannot hold another, and code is literal. */
const NO_LINKS_INSIDE = new Set(['a', 'code', 'pre']);
const TAG_OR_MENTION = /(^|[^\p{L}\p{N}_&/#@])([#@])([\p{L}\p{N}_](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}_])?)/gu;

function linkText(text: string, links: PostLinks, marks?: RegExp): ReactNode {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(TAG_OR_MENTION)) {
    const [, before, sign, name] = m as unknown as [string, string, string, string];
    const known = sign === '#' ? links.tags.has(name.toLowerCase()) : links.mentions.has(name.toLowerCase());
    if (!known) continue;
    const start = m.index! + before.length;
    out.push(highlight(text.slice(last, start), marks));
    out.push(
      sign === '#' ? (
        <Link key={start} to={`/tags/${encodeURIComponent(name)}`} className="hashtag">
          #{name}
        </Link>
      ) : (
        <Link key={start} to={`/channel/${encodeURIComponent(name)}`} className="mention">
          @{name}
        </Link>
      ),
    );
    last = start + 1 + name.length;
  }
  if (!out.length) return highlight(text, marks);
  out.push(highlight(text.slice(last), marks));
  return out;
}

/** Text of the markup: tags and mentions linked (when `links`), search words marked (when `marks`). */
function textOf(text: string, links?: PostLinks, marks?: RegExp): ReactNode {
  return links ? linkText(text, links, marks) : highlight(text, marks);
}

/** How the markup is shown besides the allowlist: links, search words, pictures in grids. */
interface Shown {
  links?: PostLinks;
  marks?: RegExp;
  /** Runs of pictures beginning lines (content/pictureRuns.ts), by their first node. */
  runs?: Map<Node, Picture[]>;
  pictures?: (pictures: Picture[], key: number) => ReactNode;
}

function convert(node: Node, key: number, shown: Shown): ReactNode {
  const run = shown.runs?.get(node);
  if (run && shown.pictures) return shown.pictures(run, key);
  if (node.nodeType === Node.TEXT_NODE) return textOf(node.textContent ?? '', shown.links, shown.marks);
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROP_WITH_CONTENT.has(tag)) return null;
  const inner = NO_LINKS_INSIDE.has(tag) ? { ...shown, links: undefined } : shown;
  const children = Array.from(el.childNodes, (child, i) => convert(child, i, inner));
  if (!TAGS.has(tag)) return createElement('span', { key }, ...children);
  const props = attributes(el, tag);
  if (props.skip) return null;
  props.key = key;
  return VOID.has(tag) ? createElement(tag, props) : createElement(tag, props, ...children);
}

export function htmlToReact(html: string, links?: PostLinks, marks?: RegExp, pictures?: Shown['pictures']): ReactNode[] {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  const runs = pictures ? takePictureRuns(doc.body) : undefined;
  return Array.from(doc.body.childNodes, (node, i) => convert(node, i, { links, marks, runs, pictures }));
}

/**
 * The HTML, safely; within a search's results, with its words marked (content/highlight.tsx); with
 * `pictures`, the pictures that begin lines shown by it, a run of them at a time (a post's photos).
 */
export function SafeHtml({ html, className, links, pictures }: { html: string; className?: string; links?: PostLinks; pictures?: Shown['pictures'] }) {
  const marks = useHighlight();
  return <div className={className}>{htmlToReact(html, links, marks, pictures)}</div>;
}
