import type BbobHtml from '@bbob/html';

/**
 * BBCode to HTML, for the hub (item html, statusnet_html) and the composer's preview alike: the
 * renderer bundles this file too, so it uses no Node or browser API and gets bbob (the BBCode
 * parser and HTML writer) from its caller (the hub loads it lazily, the renderer imports it).
 *
 * What the writer typed is kept: square brackets that are not a known tag, tags never closed and
 * closing tags never opened are text, [code] content is literal, and raw HTML is text. The HTML
 * still goes through a sanitizer before anyone sees it.
 */

export type BbobHtml = typeof BbobHtml;

interface Node {
  tag: string;
  attrs?: Record<string, unknown>;
  content?: Content[] | null;
}
type Content = Node | string;

/** Tags whose content is shown exactly as typed. */
const LITERAL = new Set(['code', 'nobb', 'noparse']);
/** Tags without a closing tag. */
const VOID = new Set(['*', 'hr']);
const LISTS = new Set(['list', 'ul', 'ol']);
/** Tags whose content is a URL or code, where bare URLs are not turned into links. */
const NO_AUTOLINK = new Set(['url', 'zrl', 'img', 'zmg', 'video', 'audio', 'zvideo', 'zaudio', ...LITERAL]);
const BLOCKS = new Set(['blockquote', 'ul', 'ol', 'li', 'pre', 'code', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'tr', 'td', 'th']);
/** Elements whose direct text can only be layout whitespace (lists and tables). */
const NO_TEXT = new Set(['ul', 'ol', 'table', 'tr']);

const isNode = (c: unknown): c is Node => typeof c === 'object' && c !== null && 'tag' in c;
const node = (tag: string, attrs: Record<string, unknown>, content: Content[] | null): Node => ({ tag, attrs, content });

function textOf(n: Node): string {
  return (n.content ?? []).filter((c): c is string => typeof c === 'string').join('').trim();
}

/** The [tag=value] attribute: bbob stores it as a key equal to its value. */
function uniqueAttr(n: Node): string | undefined {
  const attrs = n.attrs ?? {};
  return Object.keys(attrs).find((k) => attrs[k] === k);
}

/** [img]url[/img], [img=url]alt[/img], [img=640x480]url[/img]; Hubzilla's [zmg] likewise. */
function image(n: Node): Node {
  const attr = uniqueAttr(n);
  const text = textOf(n);
  const attrIsUrl = attr !== undefined && /^https?:\/\//i.test(attr);
  const size = attr && /^(\d{1,4})x(\d{1,4})$/.exec(attr);
  const attrs: Record<string, string> = { src: attrIsUrl ? attr : text, alt: attrIsUrl ? text : '' };
  if (size) Object.assign(attrs, { width: size[1], height: size[2] });
  return node('img', attrs, null);
}

function link(href: string, content: Content[]): Node {
  return node('a', { href }, content);
}

/** [url]…[/url] and [url=…]…[/url]; also Hubzilla's [zrl] and media tags, shown as links. */
function url(n: Node): Node {
  const href = uniqueAttr(n) ?? textOf(n);
  return link(href, n.content?.length ? n.content : [href]);
}

/** [quote=Bob]…[/quote] names who is quoted. */
function quote(n: Node): Node {
  const who = uniqueAttr(n);
  const body = node('blockquote', {}, n.content ?? []);
  return who ? node('div', { class: 'quote' }, [node('p', { class: 'quote-author' }, [`${who} wrote:`]), body]) : body;
}

/** [share author=… profile=… link=…]text[/share]: a quoted post with its attribution. */
function share(n: Node): Node {
  const a = (n.attrs ?? {}) as Record<string, string>;
  const author = a.author ?? '';
  const byline: Content = a.profile ? link(a.profile, [author]) : author;
  const original: Content[] = a.link ? [' (', link(a.link, ['original']), ')'] : [];
  return node('div', { class: 'shared-post' }, [node('p', { class: 'shared-author' }, [byline, ' wrote', ...original, ':']), node('blockquote', {}, n.content ?? [])]);
}

/** [list], [ul], [ol] with [*] items (or [li] in Hubzilla's dialect). */
function list(tag: 'ul' | 'ol', type?: string) {
  return (n: Node): Node => {
    const items: Content[] = [];
    for (const c of n.content ?? []) {
      if (isNode(c) && c.tag === '*') items.push(node('li', {}, []));
      else {
        const last = items[items.length - 1];
        if (isNode(last) && last.tag === 'li' && !(isNode(c) && c.tag === 'li')) last.content!.push(c);
        else items.push(c);
      }
    }
    return node(tag, type ? { type } : {}, items);
  };
}

function styled(tag: string, style: string) {
  return (n: Node): Node => node(tag, { style }, n.content ?? []);
}

const plain = (tag: string) => (n: Node): Node => node(tag, {}, n.content ?? []);

function size(n: Node): Node {
  const v = uniqueAttr(n) ?? '';
  const em = /^\d{1,3}$/.test(v) ? `${Math.min(Number(v), 99) / 10}em` : /^\d{1,2}(px|pt|em|%)$/.test(v) ? v : '';
  return node('span', em ? { style: `font-size: ${em};` } : {}, n.content ?? []);
}

function color(n: Node): Node {
  const v = uniqueAttr(n);
  return node('span', v ? { style: `color: ${v};` } : {}, n.content ?? []);
}

function literal(n: Node): Node {
  return node('span', {}, n.content ?? []);
}

function code(n: Node): Node {
  return node('pre', {}, [node('code', {}, n.content ?? [])]);
}

const TAGS: Record<string, (n: Node) => Node> = {
  b: styled('span', 'font-weight: bold;'),
  i: styled('span', 'font-style: italic;'),
  u: styled('span', 'text-decoration: underline;'),
  s: styled('span', 'text-decoration: line-through;'),
  strike: styled('span', 'text-decoration: line-through;'),
  color,
  size,
  font: literal,
  url,
  zrl: url,
  video: url,
  audio: url,
  zvideo: url,
  zaudio: url,
  img: image,
  zmg: image,
  quote,
  share,
  code,
  nobb: literal,
  noparse: literal,
  list: (n) => list(uniqueAttr(n) ? 'ol' : 'ul', uniqueAttr(n))(n),
  ul: list('ul'),
  ol: list('ol'),
  li: plain('li'),
  '*': (n) => n,
  h1: plain('h1'),
  h2: plain('h2'),
  h3: plain('h3'),
  h4: plain('h4'),
  h5: plain('h5'),
  h6: plain('h6'),
  center: styled('div', 'text-align: center;'),
  left: styled('div', 'text-align: left;'),
  right: styled('div', 'text-align: right;'),
  justify: styled('div', 'text-align: justify;'),
  hr: () => node('hr', {}, null),
  sup: plain('sup'),
  sub: plain('sub'),
  table: plain('table'),
  tr: plain('tr'),
  th: plain('th'),
  td: plain('td'),
};

const KNOWN_TAGS: ReadonlySet<string> = new Set(Object.keys(TAGS));

interface TagToken {
  from: number;
  to: number;
  name: string;
  close: boolean;
  /** The tag as bbob should see it: the name in lower case, single-quoted values double-quoted. */
  source: string;
  kept: boolean;
  /** For [*]: the list it belongs to. */
  list?: TagToken;
}

/** A bracketed run is a tag when it names a known tag; a closing tag has nothing but the name. */
function tagToken(text: string, from: number): TagToken | undefined {
  const m = /^\[(\/?)([a-z][a-z0-9]*|\*)(?:([=\s])([^\]]*))?\]$/i.exec(text);
  if (!m) return undefined;
  const name = m[2]!.toLowerCase();
  const close = m[1] === '/';
  if (!KNOWN_TAGS.has(name) || (close && m[3] !== undefined) || (close && VOID.has(name))) return undefined;
  const value = m[4]?.trimEnd() ?? '';
  // bbob reads double-quoted values only; Hubzilla writes [share author='…' …].
  const rest = !value && m[3] !== '=' ? '' : m[3] === '=' ? `=${value}` : ` ${value.trim().replace(/(\w+)='([^']*)'/g, (_, k: string, v: string) => `${k}="${v.replace(/"/g, "'")}"`)}`;
  return { from, to: from + text.length, name, close, source: `[${close ? '/' : ''}${name}${rest}]`, kept: false };
}

/**
 * Decides which brackets are markup: known tags that open and close in order (a tag left open by a
 * misnested close is text), [*] inside a kept list, [hr]; everything between [code] and [/code] is
 * text. Returns the body with every other bracket (and every backslash) escaped for bbob's lexer.
 */
function markTags(body: string): string {
  const tokens: TagToken[] = [];
  for (const m of body.matchAll(/\[[^[\]\n]*\]/g)) {
    const t = tagToken(m[0], m.index);
    if (t) tokens.push(t);
  }
  const open: TagToken[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.close) {
      const at = open.map((o) => o.name).lastIndexOf(t.name);
      if (at < 0) continue;
      open[at]!.kept = t.kept = true;
      open.length = at;
    } else if (LITERAL.has(t.name)) {
      const end = tokens.findIndex((c, j) => j > i && c.close && c.name === t.name);
      if (end < 0) continue;
      t.kept = tokens[end]!.kept = true;
      i = end;
    } else if (t.name === '*') {
      t.list = [...open].reverse().find((o) => LISTS.has(o.name));
    } else if (VOID.has(t.name)) {
      t.kept = true;
    } else {
      open.push(t);
    }
  }
  let out = '';
  let at = 0;
  const escape = (s: string) => s.replace(/[\\[\]]/g, '\\$&');
  for (const t of tokens) {
    if (t.name === '*') t.kept = Boolean(t.list?.kept);
    if (!t.kept) continue;
    out += escape(body.slice(at, t.from)) + t.source;
    at = t.to;
  }
  return out + escape(body.slice(at));
}

const URL_RE = /\bhttps?:\/\/[^\s<>"'[\]]+(?:\[[^\s<>"'[\]]*\][^\s<>"'[\]]*)*/gi;

/** A bare URL without the punctuation that ends the sentence around it, or a bracket it did not open. */
function trimUrl(u: string): string {
  for (;;) {
    const last = u.at(-1)!;
    if (/[.,;:!?'"*]/.test(last)) u = u.slice(0, -1);
    else if (last === ')' && u.split('(').length < u.split(')').length) u = u.slice(0, -1);
    else if (last === ']' && u.split('[').length < u.split(']').length) u = u.slice(0, -1);
    else return u;
  }
}

function autolink(text: string): Content[] {
  const out: Content[] = [];
  let at = 0;
  for (const m of text.matchAll(URL_RE)) {
    const href = trimUrl(m[0]);
    if (href.length < 'https://x'.length) continue;
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(node('url', {}, [href]));
    at = m.index + href.length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** Joins the lexer's words back into runs of text and turns bare URLs in them into [url] nodes. */
function linkBareUrls(content: Content[]): Content[] {
  const out: Content[] = [];
  let text = '';
  for (const c of content) {
    if (typeof c === 'string') {
      text += c;
      continue;
    }
    if (text) out.push(...autolink(text));
    text = '';
    if (!NO_AUTOLINK.has(c.tag) && Array.isArray(c.content)) c.content = linkBareUrls(c.content);
    out.push(c);
  }
  if (text) out.push(...autolink(text));
  return out;
}

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Text as HTML: escaped, with line breaks as <br> (but not inside <pre>), and without the line
 * breaks that only separate blocks (after a list or quote, around list items and table cells).
 */
function finish(content: Content[], parent: string): Content[] {
  const out: Content[] = [];
  const last = content.length - 1;
  content.forEach((c, i) => {
    if (isNode(c)) {
      // An item marker the list could not take (inside another tag): shown as typed.
      if (c.tag === '*') return void out.push('[*]');
      if (Array.isArray(c.content)) c.content = finish(c.content, c.tag);
      out.push(c);
      return;
    }
    let s = c;
    if (BLOCKS.has(parent) && i === 0) s = s.replace(/^\r?\n/, '');
    if (BLOCKS.has(parent) && i === last) s = s.replace(/\r?\n$/, '');
    const prev = content[i - 1];
    if (isNode(prev) && BLOCKS.has(prev.tag)) s = s.replace(/^\r?\n/, '');
    if (NO_TEXT.has(parent) && !s.trim()) return;
    if (!s) return;
    if (parent === 'code' || parent === 'pre') return void out.push(escapeText(s));
    s.split(/\r?\n/).forEach((line, j) => {
      if (j > 0) out.push(node('br', {}, null));
      if (line) out.push(escapeText(line));
    });
  });
  return out;
}

/** The tags as HTML, innermost first (so that no HTML element is taken for a BBCode tag). */
function toHtml(content: Content[]): Content[] {
  return content.map((c) => {
    if (!isNode(c)) return c;
    if (Array.isArray(c.content)) c.content = toHtml(c.content);
    return TAGS[c.tag]?.(c) ?? c;
  });
}

export function createBbcodeRenderer(html: BbobHtml): (body: string) => string {
  const plugin = (tree: Content[]) => finish(toHtml(linkBareUrls(tree)), '');
  return (body) => html(markTags(body), [plugin as never], { enableEscapeTags: true });
}
