/**
 * Twitter's `entities` of a status: hashtags, urls, user_mentions, symbols and media, each with
 * `indices` — [start, end) offsets into the status `text`, counted in Unicode code points as
 * Twitter counts them. An entity whose text does not appear in `text` (a link shown under a label,
 * a picture) gets the empty range at the end of the text, so clients that splice entities into
 * the text by their indices still show it.
 */

export type Indices = [number, number];

export interface CompatHashtag {
  text: string;
  indices: Indices;
}

export interface CompatUrlEntity {
  url: string;
  expanded_url: string;
  display_url: string;
  indices: Indices;
}

export interface CompatMention {
  id: number;
  id_str: string;
  name: string;
  screen_name: string;
  indices: Indices;
}

export interface CompatMediaSize {
  w: number;
  h: number;
  resize: 'fit' | 'crop';
}

export interface CompatMediaEntity {
  id: number;
  id_str: string;
  indices: Indices;
  media_url: string;
  media_url_https: string;
  url: string;
  display_url: string;
  expanded_url: string;
  type: 'photo' | 'video';
  sizes?: { thumb: CompatMediaSize; small: CompatMediaSize; medium: CompatMediaSize; large: CompatMediaSize };
}

export interface CompatEntities {
  hashtags: CompatHashtag[];
  symbols: never[];
  urls: CompatUrlEntity[];
  user_mentions: CompatMention[];
  /** Only when the status has pictures (Twitter leaves the key out otherwise). */
  media?: CompatMediaEntity[];
}

/** What the entities are made of, gathered by the status serializer. */
export interface EntitySources {
  hashtags: string[];
  mentions: { id: number; id_str: string; name: string; screen_name: string }[];
  links: string[];
  media: { id: number; url: string; pageUrl: string; video: boolean; width?: number; height?: number }[];
}

/** Code-point offset of a UTF-16 index of `text`. */
function codePoints(text: string, utf16: number): number {
  let n = 0;
  for (let i = 0; i < utf16; i++, n++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < utf16) i++;
  }
  return n;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Patterns by source, built once: the same tags and names come back in every page of statuses, and
 * building a Unicode pattern cost more than matching it. Each pattern is only used within one call
 * of `locate`, which sets its lastIndex first.
 */
const patterns = new Map<string, RegExp>();
const MAX_PATTERNS = 5000;

function pattern(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let re = patterns.get(key);
  if (!re) {
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(key, (re = new RegExp(source, flags)));
  }
  return re;
}

/** Finds occurrences in text, each at most once, and turns them into code-point indices. */
class TextLocator {
  private readonly taken = new Set<number>();

  constructor(private readonly text: string) {}

  /** The first unused match of any of the (global) patterns, else the empty range at the end of the text. */
  locate(patterns: RegExp[]): Indices {
    for (const re of patterns) {
      re.lastIndex = 0;
      for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
        if (m[0] === '') re.lastIndex++;
        if (this.taken.has(m.index)) continue;
        this.taken.add(m.index);
        return [codePoints(this.text, m.index), codePoints(this.text, m.index + m[0].length)];
      }
    }
    const end = codePoints(this.text, this.text.length);
    return [end, end];
  }
}

export function displayUrl(url: string): string {
  const s = url.replace(/^[a-z]+:\/\//i, '').replace(/^www\./i, '');
  return s.length > 26 ? `${s.slice(0, 25)}…` : s;
}

/** Twitter's four sizes of a picture of known dimensions: a 150 px square thumb and fits in 680, 1200 and 2048 px. */
function mediaSizes(w: number, h: number): CompatMediaEntity['sizes'] {
  const fit = (max: number): CompatMediaSize => {
    const k = Math.min(1, max / w, max / h);
    return { w: Math.max(1, Math.round(w * k)), h: Math.max(1, Math.round(h * k)), resize: 'fit' };
  };
  return { thumb: { w: 150, h: 150, resize: 'crop' }, small: fit(680), medium: fit(1200), large: fit(2048) };
}

export function compatEntities(text: string, src: EntitySources): CompatEntities {
  const at = new TextLocator(text);
  const wordEnd = '(?![\\p{L}\\p{N}_])';
  const hashtags = src.hashtags.map((tag) => ({ text: tag, indices: at.locate([pattern(`#${escapeRegExp(tag)}${wordEnd}`, 'giu')]) }));
  const user_mentions = src.mentions.map((m) => ({
    ...m,
    indices: at.locate([pattern(`@${escapeRegExp(m.screen_name)}(?:@[\\w.-]+)?${wordEnd}`, 'giu'), pattern(`@${escapeRegExp(m.name)}${wordEnd}`, 'giu')]),
  }));
  const urls = src.links.map((u) => ({ url: u, expanded_url: u, display_url: displayUrl(u), indices: at.locate([pattern(escapeRegExp(u), 'g')]) }));
  const entities: CompatEntities = { hashtags, symbols: [], urls, user_mentions };
  if (src.media.length) {
    entities.media = src.media.map((m) => {
      const e: CompatMediaEntity = {
        id: m.id,
        id_str: String(m.id),
        indices: at.locate([]),
        media_url: m.url,
        media_url_https: m.url,
        url: m.pageUrl,
        display_url: displayUrl(m.pageUrl),
        expanded_url: m.pageUrl,
        type: m.video ? 'video' : 'photo',
      };
      if (m.width && m.height) e.sizes = mediaSizes(m.width, m.height);
      return e;
    });
  }
  return entities;
}
