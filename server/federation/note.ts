import { Hashtag, Mention, Note } from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { Db } from '../db/open.js';
import type { ItemRow } from '../store/rows.js';
import { getItemTerms } from '../store/items.js';
import { getXchansByHash } from '../store/xchans.js';
import { TERM_HASHTAG, TERM_MENTION } from '../content/terms.js';
import { NULL_DATE } from '../util/time.js';
import { actorIdOf, objectIdOf } from './ids.js';
import type { Audience } from './audience.js';

/** 'YYYY-MM-DD HH:MM:SS' (UTC) as an instant. */
export function instantOf(dbDate: string): Temporal.Instant | null {
  if (!dbDate || dbDate === NULL_DATE) return null;
  try {
    return Temporal.Instant.from(dbDate.replace(' ', 'T') + 'Z');
  } catch {
    return null;
  }
}

/** What a note needs of the thread it answers: the id of the item it replies to. */
export interface ReplyContext {
  inReplyTo?: string;
}

/** An item of the hub (a post or a comment) as the Note other servers see. */
export function noteOf(db: Db, publicUrl: string, item: ItemRow, audience: Audience, reply: ReplyContext): Note {
  const terms = getItemTerms(db, item.id);
  const mentions = terms.filter((t) => t.ttype === TERM_MENTION && t.term_hash);
  const people = getXchansByHash(db, mentions.map((t) => t.term_hash));
  const tags = [
    ...mentions.flatMap((t) => {
      const id = actorIdOf(db, publicUrl, t.term_hash);
      const x = people.get(t.term_hash);
      return id ? [new Mention({ href: new URL(id), name: `@${x?.xchan_addr || t.term}` })] : [];
    }),
    ...terms.filter((t) => t.ttype === TERM_HASHTAG).map((t) => new Hashtag({ href: new URL(`${publicUrl}/search?tag=${encodeURIComponent(t.term)}`), name: `#${t.term}` })),
  ];
  const author = actorIdOf(db, publicUrl, item.author_xchan);
  const edited = item.edited !== item.created ? instantOf(item.edited) : null;
  return new Note({
    id: new URL(objectIdOf(publicUrl, item)),
    attribution: author ? new URL(author) : null,
    content: item.html || null,
    name: item.title || null,
    summary: item.summary || null,
    sensitive: Boolean(item.summary) || Boolean(item.item_nsfw),
    published: instantOf(item.created),
    updated: edited,
    url: item.plink ? new URL(item.plink) : null,
    replyTarget: reply.inReplyTo ? new URL(reply.inReplyTo) : null,
    tos: audience.to,
    ccs: audience.cc,
    tags,
  });
}
