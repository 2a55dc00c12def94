import { escapeHtml, htmlToText, renderBody } from '../server/content/render.js';
import type { Random } from './random.js';

export const WORDS = (
  'the a of and to in is was it for on with as at by from this that have had not but what all were when we there can ' +
  'an your which their said if do will each about how up out them then she many some so these would other into has more ' +
  'her two like him see time could no make than first been its who now people my made over did down only way find use may ' +
  'water long little very after words called just where most know get through back much go good new write our me man too ' +
  'any day same right look think also around another came come work three word must because does part even place well such ' +
  'here take why things help put years different away again off went old number great tell men say small every found still ' +
  'between name should home big give air line set own under read last never us left end along while might next sound below ' +
  'saw something thought both few those always looked show large often together asked house world going want school important ' +
  'until form food keep children feet land side without boy once animals life enough took sometimes four head above kind began ' +
  'almost live page got earth need far hand high year mother light parts country father let night following picture being study ' +
  'second eyes soon times story boys since white days ever paper hard near sentence better best across during today others sure ' +
  'means knew its try told young miles sun ways thing whole hear example heard several change answer room sea against top turned ' +
  'river garden coffee train bread walked morning autumn winter summer spring rain snow mountain forest village market music book'
).split(' ');

export const HASHTAGS = ['photography', 'autumn', 'coffee', 'hiking', 'music', 'books', 'garden', 'travel', 'cooking', 'linux', 'cats', 'running'];

/** Appears in about one body in 100; the search benchmark looks for it. */
export const SEARCH_WORD = 'lighthouse';
export const SEARCH_HASHTAG = 'photography';

export const MENTION_PLACEHOLDER = 'zzmention';

export interface BodyTemplate {
  body: string;
  html: string;
  mentions: boolean;
  hashtags: string[];
}

export interface Body {
  body: string;
  html: string;
  /** The plain text of html, as the hub keeps it. */
  text: string;
  hashtags: string[];
  mention?: string;
}

export function sentence(rnd: Random): string {
  const n = rnd.int(5, 16);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rnd.pick(WORDS));
  words[0] = words[0]![0]!.toUpperCase() + words[0]!.slice(1);
  return words.join(' ') + rnd.pick(['.', '.', '.', '!', '?']);
}

/** A body's BBCode with a mention placeholder (MENTION_PLACEHOLDER) where it mentions someone. */
export function templateBody(rnd: Random): { body: string; mentions: boolean; hashtags: string[] } {
  const parts: string[] = [];
  const sentences = rnd.int(1, 4);
  for (let i = 0; i < sentences; i++) parts.push(sentence(rnd));
  if (rnd.chance(0.15)) parts.push(`[b]${sentence(rnd)}[/b]`);
  if (rnd.chance(0.1)) parts.push(`[url=https://example.org/${rnd.pick(WORDS)}/${rnd.int(1, 9999)}]${rnd.pick(WORDS)} ${rnd.pick(WORDS)}[/url]`);
  if (rnd.chance(0.05)) parts.push(`[quote]${sentence(rnd)}[/quote]`);
  if (rnd.chance(0.01)) parts.splice(rnd.int(0, parts.length), 0, `The ${SEARCH_WORD} was lit.`);
  const mentions = rnd.chance(0.1);
  if (mentions) parts.unshift(`@${MENTION_PLACEHOLDER}`);
  const hashtags: string[] = [];
  if (rnd.chance(0.25)) {
    const count = rnd.int(1, 3);
    for (let i = 0; i < count; i++) hashtags.push(rnd.pick(HASHTAGS));
    parts.push([...new Set(hashtags)].map((t) => `#${t}`).join(' '));
  }
  return { body: parts.join(rnd.chance(0.3) ? '\n' : ' '), mentions, hashtags: [...new Set(hashtags)] };
}

/**
 * A pool of bodies rendered once with the hub's own renderer. Items take a template and a unique
 * plain-word tail, so the stored html is exactly what renderBody would produce for the full body
 * without paying for a render per item.
 */
export class BodyPool {
  private readonly templates: BodyTemplate[] = [];

  constructor(private readonly rnd: Random, size: number) {
    for (let i = 0; i < size; i++) {
      const t = templateBody(rnd);
      this.templates.push({ ...t, html: renderBody(t.body, 'text/bbcode') });
    }
  }

  /** A body; `mentionable` nicks may be mentioned where the template has a mention. */
  next(mentionable: string[]): Body {
    const t = this.rnd.pick(this.templates);
    const tail = `${this.rnd.pick(WORDS)} ${this.rnd.pick(WORDS)} ${this.rnd.int(1, 1_000_000)}`;
    let { body, html } = t;
    let mention: string | undefined;
    if (t.mentions && mentionable.length) {
      mention = this.rnd.pick(mentionable);
      body = body.replace(MENTION_PLACEHOLDER, mention);
      html = html.replace(MENTION_PLACEHOLDER, escapeHtml(mention));
    } else if (t.mentions) {
      body = body.replace(`@${MENTION_PLACEHOLDER}`, 'Hello');
      html = html.replace(`@${MENTION_PLACEHOLDER}`, 'Hello');
    }
    const full = `${html} ${tail}`;
    return { body: `${body} ${tail}`, html: full, text: htmlToText(full), hashtags: t.hashtags, mention };
  }
}

export function photoTitle(rnd: Random): string {
  return `${rnd.pick(WORDS)} ${rnd.pick(WORDS)}`;
}

export function albumName(rnd: Random, i: number): string {
  return `${rnd.pick(WORDS)} ${rnd.pick(['trip', 'days', 'walks', 'friends', 'home', 'garden'])} ${2024 + (i % 3)}`;
}
