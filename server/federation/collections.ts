import { Create, type Recipient } from '@fedify/vocab';
import type { Federation } from '@fedify/fedify';
import type { Hub } from '../hub-context.js';
import { getChannelByNick } from '../store/channels.js';
import { followersCount, friendsCount, friendsOf, friendsPage } from '../store/social-graph.js';
import { countPublicPosts, pinnedPublicPostsOf, publicPostsOf, remoteFollowers, remoteFollowersPage, type FedActorRow } from '../store/federation.js';
import { getItem } from '../store/items.js';
import { actorIdOf, objectIdOf } from './ids.js';
import { audienceOf } from './audience.js';
import { noteOf, instantOf } from './note.js';

const PAGE = 40;

/** A collection page's cursor: '' for the first page, else the key the page starts below. */
function pageKey(cursor: string): number | undefined {
  const key = Number(cursor);
  return cursor !== '' && Number.isSafeInteger(key) && key > 0 ? key : undefined;
}

/** A channel's inbox, followers, following, outbox and pinned posts, as collections other servers page through. */
export function mountCollections(federation: Federation<Hub>): void {
  // What a channel received is its own business: read by anyone, its inbox is an empty collection.
  federation.setInboxDispatcher('/channel/{identifier}/inbox', (ctx, nick) => (getChannelByNick(ctx.data.db, nick) ? { items: [] } : null));

  // Both collections are paged for other servers (a page's cursor is the key of its last person);
  // with no cursor, Fedify asks for every follower, to deliver to them.
  federation
    .setFollowersDispatcher('/channel/{identifier}/followers', (ctx, nick, cursor) => {
      const db = ctx.data.db;
      const channel = getChannelByNick(db, nick);
      if (!channel) return null;
      // The items are the followers elsewhere, whom deliveries to the followers go to; channels of
      // this hub see the channel's posts here already. The count is all of them (followersOf).
      const recipient = (a: FedActorRow): Recipient => ({ id: new URL(a.xchan_hash), inboxId: new URL(a.inbox), endpoints: a.shared_inbox ? { sharedInbox: new URL(a.shared_inbox) } : null });
      if (cursor === null) return { items: remoteFollowers(db, channel.channel_id).map(recipient) };
      const rows = remoteFollowersPage(db, channel.channel_id, pageKey(cursor), PAGE);
      return { items: rows.map(recipient), nextCursor: rows.length === PAGE ? String(rows[rows.length - 1]!.page_key) : null };
    })
    .setFirstCursor((ctx, nick) => (getChannelByNick(ctx.data.db, nick) ? '' : null))
    .setCounter((ctx, nick) => {
      const channel = getChannelByNick(ctx.data.db, nick);
      return channel ? followersCount(ctx.data.db, channel.channel_hash, {}) : null;
    });

  federation
    .setFollowingDispatcher('/channel/{identifier}/following', (ctx, nick, cursor) => {
      const db = ctx.data.db;
      const channel = getChannelByNick(db, nick);
      if (!channel) return null;
      const people = cursor === null ? friendsOf(db, channel.channel_id) : friendsPage(db, channel.channel_id, { below: pageKey(cursor), limit: PAGE });
      const items = people.flatMap((f) => actorIdOf(db, ctx.data.baseUrl, f.hash) ?? []).map((id) => new URL(id));
      return { items, nextCursor: cursor !== null && people.length === PAGE ? String(people[people.length - 1]!.id) : null };
    })
    .setFirstCursor((ctx, nick) => (getChannelByNick(ctx.data.db, nick) ? '' : null))
    .setCounter((ctx, nick) => {
      const channel = getChannelByNick(ctx.data.db, nick);
      return channel ? friendsCount(ctx.data.db, channel.channel_id, {}) : null;
    });

  federation
    .setOutboxDispatcher('/channel/{identifier}/outbox', (ctx, nick, cursor) => {
      const db = ctx.data.db;
      const channel = getChannelByNick(db, nick);
      if (!channel || cursor === null) return channel ? { items: [] } : null;
      const before = cursor === '' ? undefined : Number(cursor);
      const ids = publicPostsOf(db, channel.channel_hash, before, PAGE);
      const publicUrl = ctx.data.baseUrl;
      const items = ids.flatMap((id) => {
        const item = getItem(db, id);
        if (!item) return [];
        const audience = audienceOf(db, item, ctx.getFollowersUri(nick));
        const note = noteOf(db, publicUrl, item, audience, {});
        return [new Create({ id: new URL(`${objectIdOf(publicUrl, item)}#create`), actor: ctx.getActorUri(nick), object: note, tos: audience.to, ccs: audience.cc, published: instantOf(item.created) })];
      });
      return { items, nextCursor: ids.length === PAGE ? String(ids[ids.length - 1]) : null };
    })
    .setFirstCursor((ctx, nick) => (getChannelByNick(ctx.data.db, nick) ? '' : null))
    .setCounter((ctx, nick) => {
      const channel = getChannelByNick(ctx.data.db, nick);
      return channel ? countPublicPosts(ctx.data.db, channel.channel_hash) : null;
    });

  // Mastodon shows these on the profile, above the posts.
  federation.setFeaturedDispatcher('/channel/{identifier}/featured', (ctx, nick) => {
    const db = ctx.data.db;
    const channel = getChannelByNick(db, nick);
    if (!channel) return null;
    const items = pinnedPublicPostsOf(db, channel.channel_hash).flatMap((id) => {
      const item = getItem(db, id);
      return item ? [noteOf(db, ctx.data.baseUrl, item, audienceOf(db, item, ctx.getFollowersUri(nick)), {})] : [];
    });
    return { items };
  });
}
