/** What a media attachment is made of, gathered by the media loader. */
export interface MediaFacts {
  id: number;
  url: string;
  previewUrl: string;
  width: number;
  height: number;
  smallWidth?: number;
  smallHeight?: number;
  description: string;
  blurhash: string | null;
  focus: { x: number; y: number };
}

function size(w: number, h: number) {
  return { width: w, height: h, size: `${w}x${h}`, aspect: h ? w / h : 1 };
}

/** Mastodon's MediaAttachment entity (pictures only: the hub's uploads are images). */
export function mastodonMedia(m: MediaFacts) {
  return {
    id: String(m.id),
    type: 'image' as const,
    url: m.url,
    preview_url: m.previewUrl,
    remote_url: null,
    preview_remote_url: null,
    text_url: null,
    meta: {
      original: size(m.width, m.height),
      small: size(m.smallWidth ?? m.width, m.smallHeight ?? m.height),
      focus: m.focus,
    },
    description: m.description || null,
    blurhash: m.blurhash,
  };
}

export type MastodonMedia = ReturnType<typeof mastodonMedia>;
