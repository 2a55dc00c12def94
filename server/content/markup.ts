import type MarkdownItType from 'markdown-it';

/**
 * Markdown and plain text to HTML, for the hub (item html) and the composer's preview alike: like
 * bbcode.ts, the renderer bundles this file, so it uses no Node or browser API and gets markdown-it
 * from its caller. The HTML still goes through a sanitizer before anyone sees it.
 */

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Raw HTML in Markdown is text; bare URLs become links; a line break is a break, as people type in a post. */
export function createMarkdownRenderer(MarkdownIt: typeof MarkdownItType): (body: string) => string {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
  return (body) => md.render(body);
}

export function plainToHtml(body: string): string {
  return escapeHtml(body)
    .replace(/\bhttps?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`)
    .replace(/\r?\n/g, '<br>');
}
