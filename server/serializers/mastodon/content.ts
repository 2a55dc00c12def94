import { escapeHtml } from '../../content/render.js';

/**
 * A post's sanitized HTML as Mastodon apps expect it: inside a paragraph, with its #hashtags and
 * the @mentions of known people as links (apps find them by their classes). Text inside links is
 * left alone.
 */
export function mastodonContent(html: string, mentions: { acct: string; username: string; url: string }[], tagUrl: (tag: string) => string): string {
  if (!html.trim()) return '';
  const byName = new Map<string, string>();
  for (const m of mentions) {
    byName.set(m.acct.toLowerCase(), m.url);
    byName.set(m.username.toLowerCase(), m.url);
  }
  let inLink = 0;
  const parts = html.split(/(<[^>]*>)/);
  const out = parts.map((part) => {
    if (part.startsWith('<')) {
      if (/^<a\b/i.test(part)) inLink++;
      else if (/^<\/a>/i.test(part)) inLink = Math.max(0, inLink - 1);
      return part;
    }
    if (inLink) return part;
    return part
      .replace(/(^|[\s(>"',;:])#([\p{L}\p{N}_][\p{L}\p{N}_-]{0,63})/gu, (_m, pre: string, tag: string) => `${pre}<a href="${escapeHtml(tagUrl(tag))}" class="mention hashtag" rel="tag">#<span>${tag}</span></a>`)
      .replace(/(^|[\s(>"',;:])@([a-z][a-z0-9_-]{1,31}(?:@[a-z0-9.:-]+)?)/gi, (whole, pre: string, name: string) => {
        const url = byName.get(name.toLowerCase());
        return url ? `${pre}<span class="h-card"><a href="${escapeHtml(url)}" class="u-url mention">@<span>${name}</span></a></span>` : whole;
      });
  });
  const body = out.join('');
  return /^\s*<(p|div|blockquote|ul|ol|h[1-6]|pre)\b/i.test(body) ? body : `<p>${body}</p>`;
}
