import { Article, Create, Delete, Document, Hashtag, Image, isActor, Link, Mention, Note, PUBLIC_COLLECTION, Update, type Object as ApObject } from '@fedify/vocab';
import type { InboxContext } from '@fedify/fedify';
import type { Hub } from '../../hub-context.js';
import type { ChannelRow, XchanRow } from '../../store/rows.js';
import { getChannel } from '../../store/channels.js';
import { getFedActor, localFollowersOf } from '../../store/federation.js';
import { getXchan } from '../../store/xchans.js';
import { getConnection } from '../../store/connections.js';
import { PUBLIC_ACL, type AccessLists } from '../../services/acl.js';
import { receiveDelete, receiveEdit, receivePost, widenAudience } from '../../services/received-items.js';
import type { Visibility } from '../../services/mastodon/visibility.js';
import { escapeHtml } from '../../content/render.js';
import { toAclString } from '../../util/ids.js';
import { nowDb, toDbDate } from '../../util/time.js';
import { itemByObjectId } from '../known-objects.js';
import { writeTogether } from '../../db/group-commit.js';
import { actorById, rememberActor } from '../remote-actors.js';
import { localChannelOf } from './follows.js';
import { actorDeleted } from './actors.js';

const PUBLIC_IDS = new Set([PUBLIC_COLLECTION.href, 'as:Public', 'Public']);

type Post = Note | Article;

function dbDate(instant: { epochMilliseconds: number } | null | undefined): string {
  return instant ? toDbDate(new Date(instant.epochMilliseconds)) : nowDb();
}

/** The post's HTML, with its attached pictures and files linked (remote media is linked, not copied). */
async function htmlOf(post: Post): Promise<string> {
  let html = post.content?.toString() ?? '';
  for await (const a of post.getAttachments()) {
    if (!(a instanceof Document || a instanceof Image)) continue;
    const url = a.url instanceof URL ? a.url.href : a.url instanceof Link ? a.url.href?.href : undefined;
    if (!url || !/^https?:\/\//.test(url)) continue;
    const label = escapeHtml(a.name?.toString() ?? '');
    html += a.mediaType?.startsWith('image/') ? `<p><a href="${escapeHtml(url)}"><img src="${escapeHtml(url)}" alt="${label}"></a></p>` : `<p><a href="${escapeHtml(url)}">${label || escapeHtml(url)}</a></p>`;
  }
  return html;
}

/** Whom a post names and tags: local channels, known identities, hashtags. */
async function tagsOf(ctx: InboxContext<Hub>, post: Post): Promise<{ mentioned: XchanRow[]; localChannels: ChannelRow[]; hashtags: string[] }> {
  const mentioned: XchanRow[] = [];
  const localChannels: ChannelRow[] = [];
  const hashtags: string[] = [];
  for await (const tag of post.getTags()) {
    if (tag instanceof Mention && tag.href) {
      const local = localChannelOf(ctx, tag.href);
      const x = local ? getXchan(ctx.data.db, local.channel_hash) : getXchan(ctx.data.db, tag.href.href);
      if (local) localChannels.push(local);
      if (x && !mentioned.some((m) => m.xchan_hash === x.xchan_hash)) mentioned.push(x);
    } else if (tag instanceof Hashtag && tag.name) {
      const name = tag.name.toString().replace(/^#/, '').toLowerCase();
      if (name && !hashtags.includes(name)) hashtags.push(name);
    }
  }
  return { mentioned, localChannels, hashtags };
}

/**
 * A post's title: an Article's name, or a Note's (Hearth sends a titled post as a Note
 * with a name). A Note with a name and no content is a poll vote, not a titled post.
 */
function titleOf(post: Post): string {
  const name = post.name?.toString() ?? '';
  return post instanceof Article || post.content ? name : '';
}

/**
 * A post or comment from elsewhere: kept when a channel here follows its author, is named in its
 * audience or mentioned, or when it answers a thread of the hub; seen by exactly its audience here.
 */
async function receive(ctx: InboxContext<Hub>, post: Post, authorId: string): Promise<void> {
  const hub = ctx.data;
  const db = hub.db;
  const author = await actorById(ctx, authorId);
  const addressed = [...post.toIds, ...post.ccIds].map((u) => u.href);
  const isPublic = addressed.some((a) => PUBLIC_IDS.has(a));
  const unlisted = isPublic && !post.toIds.some((u) => PUBLIC_IDS.has(u.href));
  const followersUri = getFedActor(db, author.xchan_hash)?.followers;
  const toFollowers = Boolean(followersUri && addressed.includes(followersUri));
  const { mentioned, localChannels, hashtags } = await tagsOf(ctx, post);
  const named = addressed.flatMap((a) => localChannelOf(ctx, new URL(a)) ?? []);
  const followersHere = isPublic || toFollowers ? localFollowersOf(db, author.xchan_hash).flatMap((uid) => getChannel(db, uid) ?? []) : [];
  const recipients = [...named, ...localChannels, ...followersHere]
    .filter((c, k, all) => all.findIndex((o) => o.channel_id === c.channel_id) === k)
    .filter((c) => !getConnection(db, c.channel_id, author.xchan_hash)?.abook_blocked);
  const existing = itemByObjectId(db, hub.baseUrl, post.id?.href);
  if (existing) {
    widenAudience(hub, existing, recipients.map((c) => c.channel_hash));
    return;
  }
  const replyTo = itemByObjectId(db, hub.baseUrl, post.replyTargetId?.href);
  if (!replyTo && !recipients.length) return; // nobody here follows them or was addressed
  const visibility: Visibility = isPublic ? (unlisted ? 'unlisted' : 'public') : toFollowers ? 'private' : 'direct';
  const acl: AccessLists = isPublic ? PUBLIC_ACL : { ...PUBLIC_ACL, allow_cid: toAclString([author.xchan_hash, ...recipients.map((c) => c.channel_hash)]) };
  const keeper = recipients[0] ?? getChannel(db, replyTo!.uid)!;
  const html = await htmlOf(post);
  // Committed together with the other writes of this turn (a burst of posts from elsewhere).
  await writeTogether(db, () => receivePost(hub, {
    keeper,
    author,
    mid: post.id!.href,
    html,
    title: titleOf(post),
    summary: post.summary?.toString() ?? '',
    sensitive: Boolean(post.sensitive) || Boolean(post.summary),
    created: dbDate(post.published),
    url: post.url instanceof URL ? post.url.href : post.url instanceof Link ? (post.url.href?.href ?? '') : '',
    acl,
    visibility,
    replyTo,
    mentions: mentioned.map((m) => m.xchan_hash),
    hashtags,
  }));
}

/** The post an activity carries, if it is the sender's own post on the sender's own server. */
async function ownPost(activity: Create | Update, senderId: URL | null): Promise<Post | undefined> {
  const object = await activity.getObject().catch(() => null);
  if (!(object instanceof Note || object instanceof Article) || !object.id || !senderId) return undefined;
  if (object.attributionId?.href !== senderId.href || object.id.origin !== senderId.origin) return undefined;
  return object;
}

export async function onCreate(ctx: InboxContext<Hub>, create: Create): Promise<void> {
  const post = await ownPost(create, create.actorId);
  if (post) await receive(ctx, post, create.actorId!.href);
}

export async function onUpdate(ctx: InboxContext<Hub>, update: Update): Promise<void> {
  const object: ApObject | null = await update.getObject().catch(() => null);
  if (object && isActor(object) && object.id?.href === update.actorId?.href) {
    await rememberActor(ctx.data, object);
    return;
  }
  const post = await ownPost(update, update.actorId);
  if (!post) return;
  const item = itemByObjectId(ctx.data.db, ctx.data.baseUrl, post.id!.href);
  if (!item || item.author_xchan !== update.actorId!.href) return;
  receiveEdit(ctx.data, item, {
    html: await htmlOf(post),
    title: titleOf(post),
    summary: post.summary?.toString() ?? '',
    sensitive: Boolean(post.sensitive) || Boolean(post.summary),
    edited: dbDate(post.updated ?? null),
  });
}

export async function onDelete(ctx: InboxContext<Hub>, del: Delete): Promise<void> {
  const sender = del.actorId?.href;
  const objectId = del.objectId?.href;
  if (!sender || !objectId) return;
  if (objectId === sender) {
    actorDeleted(ctx.data, sender);
    return;
  }
  const item = itemByObjectId(ctx.data.db, ctx.data.baseUrl, objectId);
  if (item && item.author_xchan === sender) receiveDelete(ctx.data, item);
}
