import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyToText, renderBody, sanitize } from '../../server/content/render.js';
import { findTerms, parseCategories } from '../../server/content/terms.js';
import { assertHarmlessHtml } from '../helpers/html.js';
import { MARKUP_CORPUS, visibleText } from '../helpers/markup-corpus.js';

const HOSTILE = [
  '<script>alert(1)</script>',
  '[url=javascript:alert(1)]click[/url]',
  '[img]javascript:alert(1)[/img]',
  '[url=https://x.org" onmouseover="alert(1)]x[/url]',
  '<img src=x onerror=alert(1)>',
  '[color=red;background:url(javascript:alert(1))]x[/color]',
  '[size=99999px;position:fixed;top:0]x[/size]',
  '<a href="javascript:alert(1)">x</a>',
  '<svg onload=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<style>body{display:none}</style>',
];

for (const mimetype of ['text/bbcode', 'text/markdown', 'text/plain']) {
  test(`${mimetype}: hostile markup never survives rendering`, () => {
    for (const body of HOSTILE) assertHarmlessHtml(renderBody(body, mimetype));
  });
}

test('BBCode renders the usual tags and escapes raw HTML as text', () => {
  const html = renderBody('[b]bold[/b] [i]it[/i] [url=https://example.org/?a=1&b=2]link[/url]\nline two <b>raw</b>');
  assert.match(html, /<span style="font-weight:bold">bold<\/span>/);
  assert.match(html, /<a href="https:\/\/example.org\/\?a=1&amp;b=2"[^>]*>link<\/a>/);
  assert.match(html, /<br \/>line two &lt;b&gt;raw&lt;\/b&gt;/);
});

test('Markdown and plain text render', () => {
  assert.match(renderBody('**strong** _em_', 'text/markdown'), /<strong>strong<\/strong> <em>em<\/em>/);
  assert.match(renderBody('see https://example.org now', 'text/plain'), /<a href="https:\/\/example.org"/);
});

test('the sanitizer keeps harmless markup and drops the rest', () => {
  assert.equal(sanitize('<p onclick="x()">hi <b>there</b></p>'), '<p>hi <b>there</b></p>');
});

test('plain text of a body has no markup', () => {
  assert.equal(bodyToText('[b]item_body[/b] & more'), 'item_body & more');
});

test('mentions and hashtags are found, but not in emails, URLs, code or colour codes', () => {
  const terms = findTerms('hi @bob and @carol@example.com #hearth #2024 mail me@example.org [code]@nobody #nothing[/code] [color=#fff]x[/color] https://x.org/#frag');
  assert.deepEqual(terms.mentions, ['bob', 'carol@example.com']);
  assert.deepEqual(terms.hashtags, ['hearth']);
  assert.deepEqual(parseCategories(' a, b ,,a'), ['a', 'b']);
});

test('bare URLs in BBCode become links, but not inside tags or code', () => {
  const html = renderBody('see https://example.org/a?b=1. [url=https://x.org]x[/url] [img]https://c/d.png[/img] [code]https://z.org[/code]');
  assert.match(html, /<a href="https:\/\/example.org\/a\?b=1"[^>]*>https:\/\/example.org\/a\?b=1<\/a>\./);
  assert.equal((html.match(/<a /g) ?? []).length, 2);
  assert.match(html, /<pre><code>https:\/\/z.org<\/code><\/pre>/);
});

test('the BBCode corpus renders with every visible character the writer typed', () => {
  for (const entry of MARKUP_CORPUS) assert.equal(visibleText(renderBody(entry.body)), entry.visible, entry.name);
});

test('the BBCode lines of uploads show as pictures and links in Markdown and plain text, and nothing else there turns into BBCode', () => {
  const photo = '[zrl=https://hub.example/photos/ann/image/abc][zmg=https://hub.example/photo/abc-2.png]my *best* (1).png[/zmg][/zrl]';
  const file = '[url=https://hub.example/attach/0123]notes_v2.txt[/url]';
  for (const mimetype of ['text/markdown', 'text/plain']) {
    const html = renderBody(`${photo}\r\n${file}\nLeek soup`, mimetype);
    assert.match(html, /<a href="https:\/\/hub.example\/photos\/ann\/image\/abc"[^>]*><img src="https:\/\/hub.example\/photo\/abc-2.png" alt="my \*best\* \(1\).png" \/><\/a>/, `${mimetype}: ${html}`);
    assert.match(html, /<a href="https:\/\/hub.example\/attach\/0123"[^>]*>notes_v2.txt<\/a>/, `${mimetype}: ${html}`);
    assert.equal(visibleText(html), 'notes_v2.txt Leek soup', mimetype);
    // BBCode the writer typed into the text (not a whole upload line, or a link to no upload) stays text.
    for (const typed of [`see ${photo.replace(/\*/g, '')}`, '[url=https://example.org/page]a page[/url]', '[b]bold[/b]']) {
      assert.equal(visibleText(renderBody(typed, mimetype)), typed, `${mimetype}: ${typed}`);
    }
  }
  // In Markdown's fenced code an upload line is code.
  const fenced = renderBody(`\`\`\`\n${photo}\n\`\`\``, 'text/markdown');
  assert.doesNotMatch(fenced, /<img/);
  assert.equal(visibleText(fenced), photo);
});
