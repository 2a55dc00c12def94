import type MarkdownItType from 'markdown-it';

/**
 * Markdown and plain text to HTML, for the hub (item html) and the composer's preview alike: like
 * bbcode.ts, the renderer bundles this file, so it uses no Node or browser API and gets markdown-it
 * from its caller. The HTML still goes through a sanitizer before anyone sees it.
 */

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * A line showing a file uploaded with a post. Hubzilla writes these into the body in BBCode whatever
 * the body's markup (and Hearth does as Hubzilla does): a picture linked to its photo page, a link
 * to another file, [zvideo]/[zaudio]. Markdown and plain-text bodies show them too, as what they
 * stand for, rather than as BBCode text.
 */
interface MediaLine {
  href: string;
  /** The picture shown, for a photo. */
  src?: string;
  label: string;
}

const URL = String.raw`https?:\/\/[^\s\[\]<>()"'\\]+`;
const PHOTO_LINE = new RegExp(String.raw`^\[zrl=(${URL})\]\[zmg=(${URL})\]([^\[\]\n]*)\[\/zmg\]\[\/zrl\]\s*$`, 'i');
const FILE_LINE = new RegExp(String.raw`^\[url=(${URL}\/attach\/[0-9a-zA-Z-]+)\]([^\[\]\n]*)\[\/url\]\s*$`, 'i');
const AV_LINE = new RegExp(String.raw`^\[z(video|audio)\](${URL})\[\/z\1\]\s*$`, 'i');

function mediaLine(line: string): MediaLine | undefined {
  if (!line.startsWith('[')) return undefined;
  let m = PHOTO_LINE.exec(line);
  if (m) return { href: m[1]!, src: m[2]!, label: m[3]!.trim() };
  m = FILE_LINE.exec(line);
  if (m) return { href: m[1]!, label: m[2]!.trim() || m[1]! };
  m = AV_LINE.exec(line);
  if (m) return { href: m[2]!, label: m[2]! };
  return undefined;
}

/** Whether a line of a body is one of the BBCode lines that show an uploaded file. */
export function isMediaLine(line: string): boolean {
  return mediaLine(line) !== undefined;
}

/**
 * The body without the photo lines that uploads put in front of it: the text as its writer typed
 * it, for an app that sends the photos back as attachments (a link to another file stays).
 */
export function withoutLeadingPhotoLines(body: string): string {
  const lines = body.split('\n');
  let n = 0;
  while (n < lines.length && mediaLine(lines[n]!)?.src !== undefined) n++;
  return n ? lines.slice(n).join('\n') : body;
}

/** Backslash escapes for Markdown's punctuation (all ASCII punctuation may be escaped). */
const markdownText = (s: string) => s.replace(/[!-/:-@[-`{-~]/g, '\\$&');

/** The Markdown for the same linked picture or link. */
function mediaMarkdown(m: MediaLine): string {
  const text = markdownText(m.label);
  return m.src ? `[![${text}](<${m.src}>)](<${m.href}>)` : `[${text}](<${m.href}>)`;
}

function mediaHtml(m: MediaLine): string {
  const inner = m.src ? `<img src="${escapeHtml(m.src)}" alt="${escapeHtml(m.label)}">` : escapeHtml(m.label);
  return `<a href="${escapeHtml(m.href)}">${inner}</a>`;
}

/** Markdown with its media lines written in Markdown (fenced code is left alone). */
function withMarkdownMedia(body: string): string {
  if (!body.includes('[')) return body;
  let fence: string | undefined;
  return body
    .split('\n')
    .map((line) => {
      const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (f && (fence === undefined || (f[0] === fence[0] && f.length >= fence.length))) fence = fence === undefined ? f : undefined;
      const m = fence === undefined ? mediaLine(line) : undefined;
      return m ? mediaMarkdown(m) : line;
    })
    .join('\n');
}

/** Raw HTML in Markdown is text; bare URLs become links; a line break is a break, as people type in a post. */
export function createMarkdownRenderer(MarkdownIt: typeof MarkdownItType): (body: string) => string {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
  return (body) => md.render(withMarkdownMedia(body));
}

export function plainToHtml(body: string): string {
  return body
    .split(/\r?\n/)
    .map((line) => {
      const m = mediaLine(line);
      return m ? mediaHtml(m) : escapeHtml(line).replace(/\bhttps?:\/\/[^\s<>"']+/g, (url) => `<a href="${url}">${url}</a>`);
    })
    .join('<br>');
}
