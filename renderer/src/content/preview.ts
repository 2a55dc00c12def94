import MarkdownIt from 'markdown-it';
import { createMarkdownRenderer, plainToHtml } from '../../../server/content/markup.ts';
import { bbcodeToHtml } from './bbcode.ts';

/** The formats a post can be written in: each is rendered by the hub as the preview renders it. */
export type PostFormat = 'text/bbcode' | 'text/markdown' | 'text/plain';

const markdownToHtml = createMarkdownRenderer(MarkdownIt);

/** A body's HTML for the composer's preview, by the hub's own renderers; show it only through SafeHtml. */
export function previewHtml(body: string, format: PostFormat): string {
  if (format === 'text/markdown') return markdownToHtml(body);
  if (format === 'text/plain') return plainToHtml(body);
  return bbcodeToHtml(body);
}
