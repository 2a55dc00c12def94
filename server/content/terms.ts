/** Term types as Hubzilla numbers them (term.ttype). */
export const TERM_HASHTAG = 1;
export const TERM_MENTION = 2;
export const TERM_CATEGORY = 3;

export interface FoundTerms {
  /** Mentioned nicknames or addresses (nick or nick@host), lowercase, without the @. */
  mentions: string[];
  /** Hashtags without the #. */
  hashtags: string[];
}

// A mention starts after whitespace or an opening bracket/punctuation, never inside a word or an
// email address; a hashtag likewise, and must not be a colour code inside BBCode ([color=#fff]).
const MENTION = /(?<=^|[\s(\[>"',;:])@([a-z][a-z0-9_-]{1,31}(?:@[a-z0-9.-]+\.[a-z]{2,}|@[a-z0-9.-]+(?::\d+)?)?)(?![a-z0-9_-])/gi;
const HASHTAG = /(?<=^|[\s(>"',;:])#([\p{L}\p{N}_][\p{L}\p{N}_-]{0,63})/gu;

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** Finds @mentions and #hashtags in a body, ignoring code blocks and URLs. */
export function findTerms(body: string): FoundTerms {
  const text = body
    .replace(/\[(code|pre|nobb)\][\s\S]*?\[\/\1\]/gi, ' ')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\bhttps?:\/\/\S+/g, ' ');
  return {
    mentions: unique([...text.matchAll(MENTION)].map((m) => m[1]!.toLowerCase())),
    hashtags: unique([...text.matchAll(HASHTAG)].map((m) => m[1]!)).filter((t) => !/^\d+$/.test(t)),
  };
}

/** Categories from a comma-separated parameter. */
export function parseCategories(value: string | undefined): string[] {
  return unique((value ?? '').split(',').map((c) => c.trim()).filter(Boolean));
}
