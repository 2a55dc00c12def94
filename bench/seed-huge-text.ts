import { htmlToText, renderBody } from '../server/content/render.js';
import type { Random } from './random.js';
import { MENTION_PLACEHOLDER, templateBody, WORDS } from './seed-text.js';

export interface RemoteBody {
  /** HTML as a Mastodon-like server sends it (the item's body, mimetype text/html). */
  body: string;
  /** What the hub stores of it (renderBody of the body) and its plain text. */
  html: string;
  text: string;
  hashtags: string[];
  /** Whether it mentions the channel it was written for. */
  mentions: boolean;
}

interface Template {
  body: string;
  html: string;
  hashtags: string[];
  mentions: boolean;
}

/**
 * Bodies of posts written elsewhere: the local pool's texts as HTML paragraphs, sanitised once by the
 * hub's own renderer. Each body gets a unique paragraph at its end, which the sanitiser keeps as
 * it is, so the stored HTML is what renderBody would make of the whole body.
 */
export class RemoteBodyPool {
  private readonly templates: Template[] = [];

  /** `mention` is the h-card link of the channel the posts mention (Mastodon's markup). */
  constructor(private readonly rnd: Random, size: number, mention: { url: string; nick: string }) {
    const link = `<span class="h-card"><a href="${mention.url}" class="u-url mention">@<span>${mention.nick}</span></a></span>`;
    for (let i = 0; i < size; i++) {
      const t = templateBody(rnd);
      const text = renderBody(t.body.replace(`@${MENTION_PLACEHOLDER}`, MENTION_PLACEHOLDER), 'text/bbcode');
      const body = `<p>${text.replace(MENTION_PLACEHOLDER, link).replace(/\n/g, '<br>')}</p>`;
      this.templates.push({ body, html: renderBody(body, 'text/html'), hashtags: t.hashtags, mentions: t.mentions });
    }
  }

  next(): RemoteBody {
    const t = this.rnd.pick(this.templates);
    const tail = `<p>${this.rnd.pick(WORDS)} ${this.rnd.pick(WORDS)} ${this.rnd.int(1, 1_000_000)}</p>`;
    const html = t.html + tail;
    return { body: t.body + tail, html, text: htmlToText(html), hashtags: t.hashtags, mentions: t.mentions };
  }
}
