import { randomUUID } from 'node:crypto';
import type { Db } from '../server/db/open.js';
import { ITEM_DEFAULTS, type NewItem } from '../server/store/items.js';
import { SHARE_ICONFIG } from '../server/store/item-shares.js';
import { itemRendering } from '../server/services/item-html.js';
import { NOTIFY } from '../server/services/notifications.js';
import { OBJ, VERB } from '../server/services/verbs.js';
import { TERM_HASHTAG, TERM_MENTION } from '../server/content/terms.js';
import { toDbDate } from '../server/util/time.js';
import { BodyPool } from './seed-text.js';
import { RemoteBodyPool } from './seed-huge-text.js';
import { fakeSig, type ItemSeedResult, type SeedChannel } from './seed-items.js';
import type { RemoteActor } from './seed-huge-people.js';
import type { Random } from './random.js';

export interface HugeItemPlan {
  items: number;
  years: number;
  /** Share of the posts, and of the reactions in the owner's public threads, written by people elsewhere. */
  remoteShare: number;
  notifications: number;
  /** The first channel is the owner; the others are connected to it only. */
  channels: SeedChannel[];
  /** The owner's privacy group "Friends" and its members; a tenth of the owner's posts go there. */
  group: { hash: string; members: Set<string> };
  /** People elsewhere, all connected to the owner: their posts come to the owner's channel. */
  remote: RemoteActor[];
  baseUrl: string;
  hostname: string;
}

export interface HugeItemResult extends ItemSeedResult {
  shares: number;
  /** Items written by people elsewhere. */
  remote: number;
}

/** Who wrote an item: a channel of the hub or a person elsewhere. */
interface Person {
  hash: string;
  name: string;
  url: string;
  photo: string;
  local?: SeedChannel;
  remote?: RemoteActor;
}

interface Thread {
  id: number;
  mid: string;
  /** The channel that keeps the thread (item.uid). */
  keeper: SeedChannel;
  /** item.owner_xchan of the top: the keeper, or the person elsewhere who wrote it. */
  ownerHash: string;
  author: Person;
  llink: string;
  plink: string;
  body: string;
  created: string;
  wall: number;
  private: boolean;
  allowCid: string;
  allowGid: string;
  lastComment?: { mid: string; author: Person; llink: string; plink: string };
  reacted: Set<string>;
  /** The latest comment or like, written to the top (commented, changed) when the thread leaves the window. */
  touched?: string;
}

const BATCH = 20_000;
const RECENT_THREADS = 300;
const UNSEEN_DAYS = 14;
const ITEM_COLUMNS = ['id', 'uid', ...Object.keys(ITEM_DEFAULTS)] as (keyof NewItem | 'id')[];

/** The hub's item ids (util/ids uuid()) are time-ordered UUIDs: here of the item's own time. */
export function uuidAt(ms: number): string {
  const time = Math.floor(ms).toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}

/** A Mastodon status id: milliseconds in the high bits. */
function snowflake(rnd: Random, ms: number): string {
  return ((BigInt(Math.floor(ms)) << 16n) | BigInt(rnd.int(0, 0xffff))).toString();
}

/** A stored notification names hub URLs by their path (services/notifications.ts). */
function hubPath(baseUrl: string, url: string): string {
  return url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url;
}

/**
 * Writes `plan.items` items over the last `plan.years` years, as the hub would have stored them:
 * posts, comments (some answering comments), likes and shares of its channels (the shapes of
 * seed-items.ts and services/compat/share.ts) and of people elsewhere (services/received-items.ts:
 * their posts kept by the owner, their comments, likes and shares), with hashtags, mentions and
 * `plan.notifications` notifications spread evenly over the years. Rows go in with prepared
 * statements in transactions of BATCH items; ids are given, so a thread top is its own parent in
 * one insert. item_fts follows through its triggers.
 */
export function seedHugeItems(db: Db, rnd: Random, plan: HugeItemPlan): HugeItemResult {
  const [owner] = plan.channels;
  if (!owner) throw new Error('no channels to seed');
  const pool = new BodyPool(rnd, 2000);
  const remotePool = new RemoteBodyPool(rnd, 1000, { url: owner.url, nick: owner.row.channel_address });
  const weights = plan.channels.map((c) => c.weight);
  const locals: Person[] = plan.channels.map((c) => ({ hash: c.row.channel_hash, name: c.row.channel_name, url: c.url, photo: c.photo, local: c }));
  const remotes: Person[] = plan.remote.map((r) => ({ hash: r.hash, name: r.name, url: r.url, photo: r.photo, remote: r }));
  const result: HugeItemResult = { items: 0, posts: 0, comments: 0, likes: 0, shares: 0, mentions: 0, notifications: 0, remote: 0, perChannel: {} };
  const recent: Thread[] = [];
  const now = Date.now();
  const start = now - plan.years * 365 * 86400_000;
  const step = (now - start) / plan.items;
  const unseenFrom = now - UNSEEN_DAYS * 86400_000;
  let nextId = (db.prepare("SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'item'), 0), coalesce((SELECT max(id) FROM item), 0)) + 1").pluck().get() as number);

  const insertItem = db.prepare(`INSERT INTO item (${ITEM_COLUMNS.join(', ')}) VALUES (${ITEM_COLUMNS.map(() => '?').join(', ')})`);
  const insertTerm = db.prepare('INSERT INTO term (aid, uid, oid, otype, ttype, term, url, term_hash) VALUES (?, ?, ?, 1, ?, ?, ?, ?)');
  const insertIconfig = db.prepare('INSERT INTO iconfig (iid, cat, k, v, sharing) VALUES (?, ?, ?, ?, 0)');
  const insertNotify = db.prepare(`INSERT INTO notify (hash, xname, url, photo, created, msg, aid, uid, link, iid, parent, seen, ntype, verb, otype, xchan)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'item', ?)`);
  const touch = db.prepare('UPDATE item SET commented = max(commented, ?), changed = ? WHERE id = ?');

  const put = (row: NewItem): number => {
    const id = nextId++;
    const values = ITEM_COLUMNS.map((c) => (c === 'id' ? id : row[c]));
    insertItem.run(values);
    result.items++;
    const nick = plan.channels.find((c) => c.row.channel_id === row.uid)!.row.channel_address;
    result.perChannel[nick] = (result.perChannel[nick] ?? 0) + 1;
    if (row.item_origin === 0) result.remote++;
    return id;
  };

  let index = 0;
  /** A notification for a channel of the hub, within the budget: as many as the share of the items written so far allows. */
  const note = (target: SeedChannel | undefined, ntype: number, actor: Person, msg: string, link: string, iid: number, parent: number, verb: string, created: string, when: number) => {
    if (!target || target.row.channel_hash === actor.hash) return;
    if (result.notifications >= Math.floor((plan.notifications * (index + 1)) / plan.items)) return;
    insertNotify.run(randomUUID().replaceAll('-', ''), actor.name, hubPath(plan.baseUrl, actor.url), hubPath(plan.baseUrl, actor.photo), created, msg,
      target.row.channel_account_id, target.row.channel_id, hubPath(plan.baseUrl, link), iid, parent, when >= unseenFrom ? 0 : 1, ntype, verb, actor.hash);
    result.notifications++;
  };

  const flush = (t: Thread) => {
    if (t.touched) touch.run(t.touched, t.touched, t.id);
    t.touched = undefined;
  };
  const remember = (t: Thread) => {
    recent.push(t);
    if (recent.length > RECENT_THREADS) flush(recent.shift()!);
  };

  const links = (keeper: SeedChannel, mid: string) => ({
    llink: `${plan.baseUrl}/display/${mid}`,
    plink: `${plan.baseUrl}/channel/${keeper.row.channel_address}/?f=&mid=${mid}`,
  });
  const visibleTo = (t: Thread, c: SeedChannel) => !t.private || c === t.keeper || plan.group.members.has(c.row.channel_hash);
  /** A channel of the hub may comment and like in the owner's threads it sees, and in its own. */
  const mayReact = (t: Thread, c: SeedChannel) => c === t.keeper || (t.keeper === owner && c === owner) || (t.keeper === owner && t.author.local === owner && visibleTo(t, c));
  const pickRemote = () => remotes[Math.floor(remotes.length * rnd.next() ** 2)]!;
  const hashtagTerms = (id: number, keeper: SeedChannel, tags: string[]) => {
    for (const tag of tags) insertTerm.run(keeper.row.channel_account_id, keeper.row.channel_id, id, TERM_HASHTAG, tag, `${plan.baseUrl}/search?tag=${encodeURIComponent(tag)}`, '');
  };

  const localPost = (author: SeedChannel, created: string, ms: number) => {
    const mid = `${uuidAt(ms)}@${plan.hostname}`;
    const isPrivate = author === owner && rnd.chance(0.1);
    const mentionable = plan.channels.filter((c) => c !== author && (author === owner || c === owner) && (!isPrivate || plan.group.members.has(c.row.channel_hash))).map((c) => c.row.channel_address);
    const body = pool.next(mentionable);
    const l = links(author, mid);
    const allowGid = isPrivate ? `<${plan.group.hash}>` : '';
    const id = nextId;
    put({
      ...ITEM_DEFAULTS, uuid: uuidAt(ms), mid, aid: author.row.channel_account_id, uid: author.row.channel_id, parent: id, parent_mid: mid, thr_parent: mid,
      created, edited: created, commented: created, received: created, changed: created,
      owner_xchan: author.row.channel_hash, author_xchan: author.row.channel_hash, body: body.body, html: body.html, html_text: body.text,
      verb: VERB.POST, obj_type: OBJ.NOTE, llink: l.llink, plink: l.plink, sig: fakeSig(), comment_policy: 'contacts',
      allow_gid: allowGid, item_private: isPrivate ? 1 : 0, item_origin: 1, item_wall: 1, item_thread_top: 1, item_verified: 1,
    });
    const t: Thread = { id, mid, keeper: author, ownerHash: author.row.channel_hash, author: locals[plan.channels.indexOf(author)]!, ...l, body: body.body, created, wall: 1, private: isPrivate, allowCid: '', allowGid, reacted: new Set() };
    remember(t);
    hashtagTerms(id, author, body.hashtags);
    if (body.mention) mentionTerm(t, id, t.author, body.mention, l.llink, created, ms);
    result.posts++;
  };

  const mentionTerm = (t: Thread, id: number, author: Person, nick: string, llink: string, created: string, ms: number) => {
    const target = plan.channels.find((c) => c.row.channel_address === nick);
    if (!target) return;
    insertTerm.run(t.keeper.row.channel_account_id, t.keeper.row.channel_id, id, TERM_MENTION, target.row.channel_address, target.url, target.row.channel_hash);
    result.mentions++;
    if (visibleTo(t, target)) note(target, NOTIFY.TAGSELF, author, `${author.name} mentioned you in a post`, llink, id, t.id, VERB.POST, created, ms);
  };

  /** A person elsewhere mentions the owner: the term as received (the hash for term and URL). */
  const remoteMention = (t: Thread, id: number, author: Person, llink: string, created: string, ms: number) => {
    insertTerm.run(t.keeper.row.channel_account_id, t.keeper.row.channel_id, id, TERM_MENTION, owner.row.channel_hash, owner.row.channel_hash, owner.row.channel_hash);
    result.mentions++;
    note(owner, NOTIFY.TAGSELF, author, `${author.name} mentioned you in a post`, llink, id, t.id, VERB.POST, created, ms);
  };

  const remotePost = (ms: number, created: string, received: string) => {
    const author = pickRemote();
    const actor = author.remote!;
    const status = snowflake(rnd, ms);
    const mid = `${actor.hash}/statuses/${status}`;
    const url = `${actor.url}/${status}`;
    const body = remotePool.next();
    const followersOnly = rnd.chance(0.05);
    const allowCid = followersOnly ? `<${owner.row.channel_hash}>` : '';
    const id = nextId;
    put({
      ...ITEM_DEFAULTS, uuid: uuidAt(ms), mid, aid: owner.row.channel_account_id, uid: owner.row.channel_id, parent: id, parent_mid: mid, thr_parent: mid,
      created, edited: created, commented: created, received, changed: received, owner_xchan: actor.hash, author_xchan: actor.hash,
      mimetype: 'text/html', body: body.body, html: body.html, html_text: body.text, verb: VERB.POST, obj_type: OBJ.NOTE, llink: url, plink: url,
      comment_policy: 'contacts', allow_cid: allowCid, item_private: followersOnly ? 1 : 0, item_origin: 0, item_unseen: ms >= unseenFrom ? 1 : 0,
      item_wall: 0, item_thread_top: 1,
    });
    if (followersOnly) insertIconfig.run(id, 'mastodon', 'visibility', 'private');
    const t: Thread = { id, mid, keeper: owner, ownerHash: actor.hash, author, llink: url, plink: url, body: body.body, created, wall: 0, private: followersOnly, allowCid, allowGid: '', reacted: new Set() };
    remember(t);
    hashtagTerms(id, owner, body.hashtags);
    if (body.mentions) remoteMention(t, id, author, url, created, ms);
    result.posts++;
  };

  const comment = (t: Thread, actor: Person, ms: number, created: string, received: string) => {
    const replyTo = t.lastComment && rnd.chance(0.2) ? t.lastComment : undefined;
    const unseen = ms >= unseenFrom ? 1 : 0;
    let id: number;
    let llink: string;
    let plink: string;
    let mid: string;
    let snippet: string;
    if (actor.local) {
      mid = `${uuidAt(ms)}@${plan.hostname}`;
      const mentionable = [t.keeper, t.author.local].filter((c): c is SeedChannel => c !== undefined && c !== actor.local && visibleTo(t, c)).map((c) => c.row.channel_address);
      const body = pool.next(mentionable);
      ({ llink, plink } = links(t.keeper, mid));
      id = put({
        ...ITEM_DEFAULTS, uuid: uuidAt(ms), mid, aid: t.keeper.row.channel_account_id, uid: t.keeper.row.channel_id, parent: t.id, parent_mid: t.mid,
        thr_parent: replyTo?.mid ?? t.mid, created, edited: created, commented: created, received: created, changed: created,
        owner_xchan: t.keeper.row.channel_hash, author_xchan: actor.hash, body: body.body, html: body.html, html_text: body.text,
        verb: VERB.POST, obj_type: OBJ.COMMENT, llink, plink, sig: fakeSig(), comment_policy: 'contacts',
        allow_cid: t.allowCid, allow_gid: t.allowGid, item_private: t.private ? 1 : 0, item_origin: 1, item_wall: t.wall, item_verified: 1,
        item_unseen: actor.local === t.keeper ? 0 : unseen,
      });
      hashtagTerms(id, t.keeper, body.hashtags);
      if (body.mention) mentionTerm(t, id, actor, body.mention, llink, created, ms);
      snippet = body.body.slice(0, 80);
      t.touched = created;
    } else {
      const remote = actor.remote!;
      const status = snowflake(rnd, ms);
      mid = `${remote.hash}/statuses/${status}`;
      llink = plink = `${remote.url}/${status}`;
      const body = remotePool.next();
      id = put({
        ...ITEM_DEFAULTS, uuid: uuidAt(ms), mid, aid: t.keeper.row.channel_account_id, uid: t.keeper.row.channel_id, parent: t.id, parent_mid: t.mid,
        thr_parent: replyTo?.mid ?? t.mid, created, edited: created, commented: created, received, changed: received,
        owner_xchan: t.ownerHash, author_xchan: actor.hash, mimetype: 'text/html', body: body.body, html: body.html, html_text: body.text,
        verb: VERB.POST, obj_type: OBJ.COMMENT, llink, plink, comment_policy: 'contacts', allow_cid: t.allowCid, allow_gid: t.allowGid,
        item_private: t.private ? 1 : 0, item_origin: 0, item_unseen: unseen, item_wall: t.wall,
      });
      hashtagTerms(id, t.keeper, body.hashtags);
      if (body.mentions) remoteMention(t, id, actor, llink, created, ms);
      snippet = body.text.slice(0, 80);
      t.touched = received;
    }
    // The hub tells the thread's author here; the full set's seeding also the author of the comment answered.
    note(t.author.local, NOTIFY.COMMENT, actor, `${actor.name} commented on your post: ${snippet}`, llink, id, t.id, VERB.POST, created, ms);
    if (replyTo?.author.local && replyTo.author !== t.author) note(replyTo.author.local, NOTIFY.COMMENT, actor, `${actor.name} replied to your comment: ${snippet}`, llink, id, t.id, VERB.POST, created, ms);
    t.lastComment = { mid, author: actor, llink, plink };
    result.comments++;
  };

  const like = (t: Thread, actor: Person, target: { mid: string; author: Person; llink: string; plink: string; top: boolean }, ms: number, created: string, received: string) => {
    let id: number;
    const obj = JSON.stringify({ type: 'Note', id: target.mid, link: target.plink });
    const common = {
      ...ITEM_DEFAULTS, uuid: uuidAt(ms), aid: t.keeper.row.channel_account_id, uid: t.keeper.row.channel_id, parent: t.id, parent_mid: t.mid, thr_parent: target.mid,
      author_xchan: actor.hash, verb: VERB.LIKE, obj_type: target.top ? OBJ.NOTE : OBJ.COMMENT, obj, comment_policy: 'contacts',
      allow_cid: t.allowCid, allow_gid: t.allowGid, item_private: t.private ? 1 : 0, item_wall: t.wall,
    };
    if (actor.local) {
      const mid = `${uuidAt(ms)}@${plan.hostname}`;
      id = put({ ...common, mid, created, edited: created, commented: created, received: created, changed: created, owner_xchan: t.keeper.row.channel_hash, ...links(t.keeper, mid), sig: fakeSig(), item_origin: 1, item_verified: 1 });
      t.touched = created;
    } else {
      const mid = `${actor.hash}#likes/${snowflake(rnd, ms)}`;
      id = put({ ...common, mid, created: received, edited: received, commented: received, received, changed: received, owner_xchan: t.ownerHash, llink: mid, plink: mid, item_origin: 0 });
      t.touched = received;
    }
    note(target.author.local, NOTIFY.LIKE, actor, `${actor.name} likes your post`, target.llink, id, t.id, VERB.LIKE, created, ms);
    result.likes++;
  };

  /** A share of a public post: a new thread of the sharer's (a channel here: statuses/retweet) or of the owner's (received). */
  const share = (ms: number, created: string, received: string): boolean => {
    const remote = rnd.chance(plan.remoteShare);
    const sharer = remote ? pickRemote() : locals[rnd.weighted(weights)]!;
    const candidates = recent.filter((t) => !t.private && t.author !== sharer && !t.reacted.has(`share ${sharer.hash}`) && (remote ? t.keeper === owner : t.author.local && (sharer.local === owner || t.author.local === owner)));
    if (!candidates.length) return false;
    const original = candidates[rnd.int(0, candidates.length - 1)]!;
    original.reacted.add(`share ${sharer.hash}`);
    const obj = JSON.stringify({ type: 'Note', id: original.mid, item_id: original.id, link: original.plink });
    const id = nextId;
    if (sharer.local) {
      const keeper = sharer.local;
      const mid = `${uuidAt(ms)}@${plan.hostname}`;
      const author = original.author;
      const body = `[share author="${author.name}" profile="${author.url}" avatar="${author.photo}" link="${original.plink}" posted="${original.created}" message_id="${original.mid}"]${original.body}[/share]`;
      put({
        ...ITEM_DEFAULTS, uuid: uuidAt(ms), mid, aid: keeper.row.channel_account_id, uid: keeper.row.channel_id, parent: id, parent_mid: mid, thr_parent: mid,
        created, edited: created, commented: created, received: created, changed: created, owner_xchan: keeper.row.channel_hash, author_xchan: keeper.row.channel_hash,
        body, ...itemRendering(db, body, 'text/bbcode'), verb: VERB.SHARE, obj_type: OBJ.NOTE, obj, app: 'Hearth', ...links(keeper, mid), sig: fakeSig(),
        comment_policy: 'contacts', item_origin: 1, item_wall: 1, item_thread_top: 1, item_verified: 1,
      });
    } else {
      const actor = sharer.remote!;
      const mid = `${actor.hash}/statuses/${snowflake(rnd, ms)}/activity`;
      const body = `[share message_id="${original.mid}"][/share]`;
      put({
        ...ITEM_DEFAULTS, uuid: uuidAt(ms), mid, aid: owner.row.channel_account_id, uid: owner.row.channel_id, parent: id, parent_mid: mid, thr_parent: mid,
        created, edited: created, commented: created, received, changed: received, owner_xchan: actor.hash, author_xchan: actor.hash, body,
        ...itemRendering(db, body, 'text/bbcode'), verb: VERB.SHARE, obj_type: OBJ.NOTE, obj, llink: mid, plink: mid, comment_policy: 'contacts',
        item_origin: 0, item_thread_top: 1,
      });
    }
    insertIconfig.run(id, SHARE_ICONFIG.cat, SHARE_ICONFIG.k, String(original.id));
    note(original.author.local, NOTIFY.LIKE, sharer, `${sharer.name} shared your post`, original.llink, original.id, original.id, VERB.SHARE, created, ms);
    result.shares++;
    return true;
  };

  const insertOne = (i: number) => {
    const ms = Math.min(start + i * step + (rnd.next() - 0.5) * step, now - 1000);
    const created = toDbDate(new Date(ms));
    // Posts from elsewhere arrive a moment after they were written.
    const received = toDbDate(new Date(ms + rnd.int(0, 2500)));
    const kind = recent.length < 5 ? 0 : rnd.weighted([34, 33, 25, 8]);
    if (kind === 3 && share(ms, created, received)) return;
    if (kind === 0) {
      if (rnd.chance(plan.remoteShare * 1.1)) remotePost(ms, created, received);
      else localPost(plan.channels[rnd.weighted(weights)]!, created, ms);
      return;
    }
    const t = recent[rnd.int(0, recent.length - 1)]!;
    let actor: Person;
    if (t.keeper === owner && !t.private && rnd.chance(Math.min(0.95, plan.remoteShare * 1.25))) actor = pickRemote();
    else {
      const c = plan.channels[rnd.weighted(weights)]!;
      actor = locals[plan.channels.indexOf(mayReact(t, c) ? c : t.keeper)]!;
    }
    const target = t.lastComment && rnd.chance(0.3) ? { ...t.lastComment, top: false } : { mid: t.mid, author: t.author, llink: t.llink, plink: t.plink, top: true };
    const likeKey = `like ${target.mid} ${actor.hash}`;
    if (kind === 1 || kind === 3 || t.reacted.has(likeKey)) return comment(t, actor, ms, created, received);
    t.reacted.add(likeKey);
    like(t, actor, target, ms, created, received);
  };

  for (let done = 0; done < plan.items; ) {
    const end = Math.min(plan.items, done + BATCH);
    db.transaction(() => {
      for (index = done; index < end; index++) insertOne(index);
    })();
    done = end;
  }
  db.transaction(() => {
    for (const t of recent) flush(t);
  })();
  return result;
}
