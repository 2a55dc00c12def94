import { Create, type Recipient } from '@fedify/vocab';
import type { Federation } from '@fedify/fedify';
import type { Hub } from '../hub-context.js';
import { getChannelByNick } from '../store/channels.js';
import { followersOf, friendsOf } from '../store/social-graph.js';
import { countPublicPosts, pinnedPublicPostsOf, publicPostsOf, remoteFollowers } from '../store/federation.js';
import { getItem } from '../store/items.js';
import { actorIdOf, objectIdOf } from './ids.js';
import { audienceOf } from './audience.js';
import { noteOf, instantOf } from './note.js';

const PAGE = 40;

/** A channel's inbox, followers, following, outbox and pinned posts, as collections other servers page through. */
export function mountCollections(federation: Federation<Hub>): void {
  // What a channel received is its own business: read by anyone, its inbox is an empty collection.
  federation.setInboxDispatcher('/channel/{identifier}/inbox', (ctx, nick) => (getChannelByNick(ctx.data.db, nick) ? { items: [] } : null));

  federation
    .setFollowersDispatcher('/channel/{identifier}/followers', (ctx, nick) => {
      const db = ctx.data.db;
      const channel = getChannelByNick(db, nick);
      if (!channel) return null;
      // The items are the followers elsewhere, whom deliveries to the followers go to; channels of
      // this hub see the channel's posts here already. The count is all of them (followersOf).
      const remote = remoteFollowers(db, channel.channel_id).map(
        (a) => ({ id: new URL(a.xchan_hash), inboxId: new URL(a.inbox), endpoints: a.shared_inbox ? { sharedInbox: new URL(a.shared_inbox) } : null }) satisfies Recipient,
      );
      return { items: remote };
    })
    .setCounter((ctx, nick) => {
      const channel = getChannelByNick(ctx.data.db, nick);
      return channel ? followersOf(ctx.data.db, channel.channel_hash).length : null;
    });

  federation
    .setFollowingDispatcher('/channel/{identifier}/following', (ctx, nick) => {
      const db = ctx.data.db;
      const channel = getChannelByNick(db, nick);
      if (!channel) return null;
      return { items: friendsOf(db, channel.channel_id).flatMap((f) => actorIdOf(db, ctx.data.baseUrl, f.hash) ?? []).map((id) => new URL(id)) };
    })
    .setCounter((ctx, nick) => {
      const channel = getChannelByNick(ctx.data.db, nick);
      return channel ? friendsOf(ctx.data.db, channel.channel_id).length : null;
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
