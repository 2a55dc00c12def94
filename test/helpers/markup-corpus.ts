import { Parser } from 'htmlparser2';

/**
 * Post bodies that renderers tend to mangle, each with the text a reader must see. Markup of known,
 * well-formed BBCode is not text; everything else the writer typed is.
 */
export interface CorpusEntry {
  name: string;
  body: string;
  /** What a reader sees, with runs of white space as one space. */
  visible: string;
}

export const MARKUP_CORPUS: CorpusEntry[] = [
  { name: 'brackets that are no tag', body: 'Reference [1] and [sic], see [note 3] or [x=] [=y] [[z]] [ ] [] [*] [/]', visible: 'Reference [1] and [sic], see [note 3] or [x=] [=y] [[z]] [ ] [] [*] [/]' },
  { name: 'unknown tags', body: 'a [unknown]q[/unknown] [foo=bar]z[/foo] [spoiler]s[/spoiler]', visible: 'a [unknown]q[/unknown] [foo=bar]z[/foo] [spoiler]s[/spoiler]' },
  { name: 'code is literal', body: 'Try [code]x = [y] + [b]z[/b] <i>w</i> &amp; [/code] now', visible: 'Try x = [y] + [b]z[/b] <i>w</i> &amp; now' },
  { name: 'unbalanced tags', body: '[b]never closed, [/i] never opened; [u]x [i]y[/u] z[/i] [size=20]s', visible: '[b]never closed, [/i] never opened; x [i]y z[/i] [size=20]s' },
  { name: 'nested lists', body: '[list]\n[*]one\n[*]two\n[list=1][*]two.a[*]two.b[/list]\n[*]three\n[/list]\nafter', visible: 'one two two.a two.b three after' },
  {
    name: 'URLs with brackets',
    body: 'see https://en.wikipedia.org/wiki/Foo_(bar), https://example.org/search?q[]=1&x=[2] and [url=https://example.org/a_(b)]a [link][/url] (https://example.org/in-parens).',
    visible: 'see https://en.wikipedia.org/wiki/Foo_(bar), https://example.org/search?q[]=1&x=[2] and a [link] (https://example.org/in-parens).',
  },
  { name: 'emoji', body: 'Party 🎉 👍🏽 👨‍👩‍👧‍👦 🇩🇪 [b]✨bold✨[/b] ❤️', visible: 'Party 🎉 👍🏽 👨‍👩‍👧‍👦 🇩🇪 ✨bold✨ ❤️' },
  { name: 'right-to-left text', body: 'שלום [b]עולם[/b]! مرحبا بالعالم (١٢٣) [i]سلام[/i] [1]', visible: 'שלום עולם! مرحبا بالعالم (١٢٣) سلام [1]' },
  { name: 'raw HTML and entities are text', body: '<b>not bold</b> &copy; &amp; AT&T 1 < 2 > 0 <script>x</script>', visible: '<b>not bold</b> &copy; &amp; AT&T 1 < 2 > 0 <script>x</script>' },
  // A backslash is no escape in BBCode: it stays, and so do the tags after it.
  { name: 'backslashes', body: 'C:\\path\\[x] and \\[b]y\\[/b] \\\\', visible: 'C:\\path\\[x] and \\y\\ \\\\' },
  { name: 'tags in any case, brackets inside tags', body: '[B]big[/B] [Url=https://example.org]site[/URL] [b][1][/b] [i][/i]', visible: 'big site [1]' },
  { name: 'quote with its author', body: '[quote=Ann]Hello[/quote]and [quote]plain[/quote]', visible: 'Ann wrote: Hello and plain' },
];

const BLOCK = new Set(['p', 'div', 'br', 'li', 'ul', 'ol', 'blockquote', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'tr', 'td', 'th']);

export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text a browser shows for this HTML (blocks and line breaks separate words), white space collapsed. */
export function visibleText(html: string): string {
  let text = '';
  const parser = new Parser(
    {
      ontext: (t) => void (text += t),
      onopentag: (name) => void (BLOCK.has(name) && (text += ' ')),
      onclosetag: (name) => void (BLOCK.has(name) && (text += ' ')),
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return normalizeSpace(text);
}
