import { randomBytes, randomUUID } from 'node:crypto';
import type { Hub } from '../server/hub.js';
import type { ChannelRow } from '../server/store/rows.js';
import { insertItem, insertTerm, ITEM_DEFAULTS, touchThread, updateItem, type NewItem } from '../server/store/items.js';
import { insertNotification, markAllNotificationsSeen } from '../server/store/notify.js';
import { itemLinks } from '../server/services/items.js';
import { NOTIFY } from '../server/services/notifications.js';
import { OBJ, VERB } from '../server/services/verbs.js';
import { TERM_HASHTAG, TERM_MENTION } from '../server/content/terms.js';
import { toDbDate } from '../server/util/time.js';
import { BodyPool } from './seed-text.js';
import type { Random } from './random.js';

export interface SeedChannel {
  row: ChannelRow;
  url: string;
  photo: string;
  /** Relative share of the posts, comments and likes this channel writes. */
  weight: number;
}

export interface ItemSeedPlan {
  items: number;
  years: number;
  /** The first channel is the owner; the others are connected to it only. */
  channels: SeedChannel[];
  /** Hash of the owner's privacy group and its members (xchan hashes); a tenth of its posts go there. */
  group: { hash: string; members: Set<string> };
}

export interface ItemSeedResult {
  items: number;
  posts: number;
  comments: number;
  likes: number;
  mentions: number;
  notifications: number;
  /** Item counts per channel nick (items stored in that channel). */
  perChannel: Record<string, number>;
}

interface Thread {
  id: number;
  mid: string;
  uid: number;
  owner: SeedChannel;
  author: SeedChannel;
  llink: string;
  plink: string;
  private: boolean;
  allowGid: string;
  lastComment?: { mid: string; author: SeedChannel; llink: string; plink: string };
  likedBy: Set<string>;
}

const BATCH = 5000;
const RECENT_THREADS = 300;
const UNSEEN_DAYS = 14;

/** A signature-shaped value (RSA-2048 → 256 bytes): real signing costs ~1 ms per item and nothing reads it here. */
export function fakeSig(): string {
  return 'sha256.' + randomBytes(256).toString('base64url');
}

/**
 * Writes `plan.items` items — posts, comments (some replying to comments) and likes — spread evenly
 * over the last `years` years, with mentions, hashtags, a private share and the notifications the
 * hub would have created, straight through the item and notification stores in large transactions.
 */
export function seedItems(hub: Hub, rnd: Random, plan: ItemSeedPlan): ItemSeedResult {
  const db = hub.db;
  const pool = new BodyPool(rnd, Math.min(2000, Math.max(100, Math.ceil(plan.items / 20))));
  const [owner] = plan.channels;
  if (!owner) throw new Error('no channels to seed');
  const weights = plan.channels.map((c) => c.weight);
  const byHash = new Map(plan.channels.map((c) => [c.row.channel_hash, c]));
  const result: ItemSeedResult = { items: 0, posts: 0, comments: 0, likes: 0, mentions: 0, notifications: 0, perChannel: {} };
  const recent: Thread[] = [];
  const now = Date.now();
  const start = now - plan.years * 365 * 86400_000;
  const step = (now - start) / plan.items;
  const unseenFrom = now - UNSEEN_DAYS * 86400_000;
  let markedSeen = false;

  const note = (uid: number, ntype: number, actor: SeedChannel, msg: string, link: string, iid: number, parent: number, verb: string, created: string) => {
    const target = plan.channels.find((c) => c.row.channel_id === uid);
    if (!target || target === actor) return;
    insertNotification(db, {
      hash: randomBytes(16).toString('hex'), xname: actor.row.channel_name, url: actor.url, photo: actor.photo, created, msg,
      aid: target.row.channel_account_id, uid, link, iid, parent, ntype, verb, otype: 'item', xchan: actor.row.channel_hash,
    });
    result.notifications++;
  };

  const visibleTo = (thread: Thread, c: SeedChannel) => !thread.private || c === thread.owner || plan.group.members.has(c.row.channel_hash);

  /** Who may comment on a thread: its owner's connections (the owner's are everybody; the others' only the owner). */
  const mayReact = (thread: Thread, c: SeedChannel) => (thread.owner === owner || c === owner || c === thread.owner) && visibleTo(thread, c);

  const insertOne = (i: number): SeedChannel => {
    const when = start + i * step + (rnd.next() - 0.5) * step;
    const created = toDbDate(new Date(Math.min(when, now - 1000)));
    if (!markedSeen && when >= unseenFrom) {
      for (const c of plan.channels) markAllNotificationsSeen(db, c.row.channel_id);
      markedSeen = true;
    }
    const unseen = when >= unseenFrom ? 1 : 0;
    const kind = recent.length < 5 ? 0 : rnd.weighted([40, 35, 25]);
    const author = plan.channels[rnd.weighted(weights)]!;
    const mid = `${randomUUID()}@${hub.hostname}`;

    if (kind === 0) {
      const isPrivate = author === owner && rnd.chance(0.1);
      const mentionable = plan.channels.filter((c) => c !== author && (author === owner || c === owner) && (!isPrivate || plan.group.members.has(c.row.channel_hash))).map((c) => c.row.channel_address);
      const body = pool.next(mentionable);
      const links = itemLinks(hub, author.row.channel_address, mid);
      const allowGid = isPrivate ? `<${plan.group.hash}>` : '';
      const row: NewItem = {
        ...ITEM_DEFAULTS, uuid: randomUUID(), mid, aid: author.row.channel_account_id, uid: author.row.channel_id, parent_mid: mid, thr_parent: mid,
        created, edited: created, commented: created, received: created, changed: created,
        owner_xchan: author.row.channel_hash, author_xchan: author.row.channel_hash, body: body.body, html: body.html, html_text: body.text,
        verb: VERB.POST, obj_type: OBJ.NOTE, llink: links.llink, plink: links.plink, sig: fakeSig(), comment_policy: 'contacts',
        allow_gid: allowGid, item_private: isPrivate ? 1 : 0, item_origin: 1, item_wall: 1, item_thread_top: 1, item_verified: 1,
      };
      const id = insertItem(db, row);
      updateItem(db, id, { parent: id });
      const thread: Thread = { id, mid, uid: author.row.channel_id, owner: author, author, llink: links.llink, plink: links.plink, private: isPrivate, allowGid, likedBy: new Set() };
      recent.push(thread);
      if (recent.length > RECENT_THREADS) recent.shift();
      storeTerms(id, author, body.hashtags, body.mention, thread, created, links.llink);
      result.posts++;
      return author;
    }

    const thread = recent[rnd.int(Math.max(0, recent.length - RECENT_THREADS), recent.length - 1)]!;
    const actor = mayReact(thread, author) ? author : thread.owner;
    const target = thread.lastComment && rnd.chance(0.3) ? { ...thread.lastComment, top: false } : { mid: thread.mid, author: thread.author, llink: thread.llink, plink: thread.plink, top: true };
    const likeKey = `${target.mid} ${actor.row.channel_hash}`;
    if (kind === 1 || thread.likedBy.has(likeKey)) {
      const replyTo = thread.lastComment && rnd.chance(0.2) ? thread.lastComment : undefined;
      const mentionable = [thread.owner, thread.author].filter((c) => c !== actor && visibleTo(thread, c)).map((c) => c.row.channel_address);
      const body = pool.next(mentionable);
      const links = itemLinks(hub, thread.owner.row.channel_address, mid);
      const id = insertItem(db, {
        ...ITEM_DEFAULTS, uuid: randomUUID(), mid, aid: thread.owner.row.channel_account_id, uid: thread.uid, parent: thread.id, parent_mid: thread.mid,
        thr_parent: replyTo?.mid ?? thread.mid, created, edited: created, commented: created, received: created, changed: created,
        owner_xchan: thread.owner.row.channel_hash, author_xchan: actor.row.channel_hash, body: body.body, html: body.html, html_text: body.text,
        verb: VERB.POST, obj_type: OBJ.COMMENT, llink: links.llink, plink: links.plink, sig: fakeSig(), comment_policy: 'contacts',
        allow_gid: thread.allowGid, item_private: thread.private ? 1 : 0, item_origin: 1, item_wall: 1, item_verified: 1,
        item_unseen: actor === thread.owner ? 0 : unseen,
      });
      touchThread(db, thread.id, created);
      const snippet = body.body.slice(0, 80);
      note(thread.uid, NOTIFY.COMMENT, actor, `${actor.row.channel_name} commented on your post: ${snippet}`, links.llink, id, thread.id, VERB.POST, created);
      if (replyTo && replyTo.author !== thread.owner) note(replyTo.author.row.channel_id, NOTIFY.COMMENT, actor, `${actor.row.channel_name} replied to your comment: ${snippet}`, links.llink, id, thread.id, VERB.POST, created);
      thread.lastComment = { mid, author: actor, llink: links.llink, plink: links.plink };
      storeTerms(id, actor, body.hashtags, body.mention, thread, created, links.llink);
      result.comments++;
      return thread.owner;
    }

    thread.likedBy.add(likeKey);
    const links = itemLinks(hub, thread.owner.row.channel_address, mid);
    const id = insertItem(db, {
      ...ITEM_DEFAULTS, uuid: randomUUID(), mid, aid: thread.owner.row.channel_account_id, uid: thread.uid, parent: thread.id, parent_mid: thread.mid,
      thr_parent: target.mid, created, edited: created, commented: created, received: created, changed: created,
      owner_xchan: thread.owner.row.channel_hash, author_xchan: actor.row.channel_hash, verb: VERB.LIKE, obj_type: target.top ? OBJ.NOTE : OBJ.COMMENT,
      obj: JSON.stringify({ type: 'Note', id: target.mid, link: target.plink }), llink: links.llink, plink: links.plink, sig: fakeSig(),
      comment_policy: 'contacts', allow_gid: thread.allowGid, item_private: thread.private ? 1 : 0, item_origin: 1, item_wall: 1, item_verified: 1,
    });
    touchThread(db, thread.id, created);
    note(target.author.row.channel_id, NOTIFY.LIKE, actor, `${actor.row.channel_name} likes your post`, target.llink, id, thread.id, VERB.LIKE, created);
    result.likes++;
    return thread.owner;
  };

  function storeTerms(id: number, author: SeedChannel, hashtags: string[], mention: string | undefined, thread: Thread, created: string, llink: string) {
    const aid = author.row.channel_account_id;
    for (const tag of hashtags) insertTerm(db, { aid, uid: thread.uid, oid: id, ttype: TERM_HASHTAG, term: tag, url: `${hub.baseUrl}/search?tag=${encodeURIComponent(tag)}` });
    if (!mention) return;
    const target = plan.channels.find((c) => c.row.channel_address === mention);
    if (!target) return;
    insertTerm(db, { aid, uid: thread.uid, oid: id, ttype: TERM_MENTION, term: target.row.channel_address, url: target.url, termHash: target.row.channel_hash });
    result.mentions++;
    if (visibleTo(thread, target)) note(target.row.channel_id, NOTIFY.TAGSELF, author, `${author.row.channel_name} mentioned you in a post`, llink, id, thread.id, VERB.POST, created);
  }

  for (let done = 0; done < plan.items; ) {
    const end = Math.min(plan.items, done + BATCH);
    db.transaction(() => {
      for (let i = done; i < end; i++) {
        const storedIn = insertOne(i);
        result.items++;
        const nick = storedIn.row.channel_address;
        result.perChannel[nick] = (result.perChannel[nick] ?? 0) + 1;
      }
    })();
    done = end;
  }
  return result;
}
