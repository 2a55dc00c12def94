import { Random } from './random.js';
import { HASHTAGS, sentence } from './seed-text.js';

/** What item/update is sent: the same on both hubs. */
export interface PostText {
  title: string;
  body: string;
}

/** Names written as @name that are no channel or connection on either hub (so nothing is delivered). */
const MENTION_LIKE = ['marta', 'jonas', 'ines', 'kofi', 'lena', 'tomasz', 'priya', 'yuki'];

/** Texts from a seed: one to three sentences, a mention-like word and a hashtag; never twice the same. */
export class PostTexts {
  private readonly rnd: Random;
  private readonly used = new Set<string>();

  constructor(seed: number) {
    this.rnd = new Random(seed);
  }

  next(): PostText {
    for (;;) {
      const rnd = this.rnd;
      const sentences: string[] = [];
      for (let i = rnd.int(1, 3); i > 0; i--) sentences.push(sentence(rnd));
      const body = `${sentences.join(' ')} cc @${rnd.pick(MENTION_LIKE)} #${rnd.pick(HASHTAGS)}`;
      // Hubzilla refuses a body it was sent within the last two minutes.
      if (this.used.has(body)) continue;
      this.used.add(body);
      const title = sentence(rnd).split(' ').slice(0, rnd.int(2, 4)).join(' ').replace(/[.!?]$/, '');
      return { title, body };
    }
  }
}
