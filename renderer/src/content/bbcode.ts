import bbobHTML from '@bbob/html';
import presetHTML5 from '@bbob/preset-html5';

/** The same BBCode dialect the hub renders (Hubzilla's [zrl]/[zmg], headings, centre, rule). */
const preset = presetHTML5.extend((tags) => ({
  ...tags,
  zrl: (node, core, options) => tags.url!(node, core, options),
  zmg: (node, core, options) => tags.img!(node, core, options),
  h1: (node) => ({ tag: 'h1', content: node.content }),
  h2: (node) => ({ tag: 'h2', content: node.content }),
  h3: (node) => ({ tag: 'h3', content: node.content }),
  center: (node) => ({ tag: 'div', attrs: { style: 'text-align: center;' }, content: node.content }),
  hr: () => ({ tag: 'hr', content: null }),
}));

/** BBCode to HTML for the composer's preview; show it only through SafeHtml. */
export function bbcodeToHtml(body: string): string {
  const escaped = body.replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return bbobHTML(escaped, preset()).replace(/\r?\n/g, '<br>');
}
