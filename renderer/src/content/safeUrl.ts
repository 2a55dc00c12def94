/** A URL from a post's markup that may be used: same-site paths, http(s), mailto links, data images. */
export function safeUrl(value: string | null, kind: 'link' | 'image'): string | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\/(?!\/)/.test(v)) return v;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  if (kind === 'link' && url.protocol === 'mailto:') return url.href;
  if (kind === 'image' && url.protocol === 'data:' && /^data:image\/(png|jpeg|gif|webp);/i.test(v)) return v;
  return undefined;
}
