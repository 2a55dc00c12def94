import assert from 'node:assert/strict';
import { Parser } from 'htmlparser2';

const DANGEROUS_TAGS = new Set(['script', 'iframe', 'object', 'embed', 'svg', 'math', 'style', 'link', 'meta', 'base', 'form', 'frame', 'frameset']);

/**
 * Parses HTML the way a browser would and fails on anything that could run script or restyle the
 * page: dangerous elements, event-handler attributes, javascript:/data: URLs in links, CSS with
 * url(), expression() or positioning. Escaped text (&lt;script&gt;) is harmless and passes.
 */
export function assertHarmlessHtml(html: string): void {
  const problems: string[] = [];
  const parser = new Parser({
    onopentag(name, attribs) {
      if (DANGEROUS_TAGS.has(name)) problems.push(`<${name}>`);
      for (const [attr, value] of Object.entries(attribs)) {
        const v = value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
        if (attr.startsWith('on')) problems.push(`${name}[${attr}]`);
        if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(attr) && /^(javascript|vbscript|data:text)/.test(v)) problems.push(`${name}[${attr}=${value}]`);
        if (attr === 'style' && /url\(|expression\(|position:|behavior:|@import/.test(v)) problems.push(`${name}[style=${value}]`);
      }
    },
  }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  assert.deepEqual(problems, [], `unsafe HTML: ${html}`);
}
