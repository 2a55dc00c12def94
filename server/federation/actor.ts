import { createHash } from 'node:crypto';
import { Endpoints, Image, Person } from '@fedify/vocab';
import { Temporal } from '@js-temporal/polyfill';
import type { Context } from '@fedify/fedify';
import type { Db } from '../db/open.js';
import { actorFacts } from '../store/federation.js';
import { renderBody } from '../content/render.js';
import { plainToHtml } from '../serializers/mastodon/account.js';
import { approvesFollowersByHand } from './social.js';
import { NULL_DATE } from '../util/time.js';

/** The bio: the profile's short text as the apps show it, or else its longer text (a channel moved from Hubzilla). */
function summaryOf(description: string, about: string): string | null {
  if (description.trim()) return plainToHtml(description);
  return about.trim() ? renderBody(about) : null;
}

/**
 * The profile photo's address, made new by each photo: the address of a channel's photo stays the
 * same when the photo changes, and other servers fetch an avatar again only at a new address. The
 * photo's own address tells two photos apart when they came within the same second.
 */
function iconUrl(photoUrl: string, photoDate: string, photoSource: string, origin: string): URL {
  const url = new URL(photoUrl, origin);
  if (photoDate && photoDate !== NULL_DATE) url.searchParams.set('v', createHash('sha256').update(`${photoDate} ${photoSource}`).digest('hex').slice(0, 12));
  return url;
}

/** The Person a local channel is to other servers, or null for a nick no channel has. */
export async function channelActor(ctx: Context<unknown>, db: Db, nick: string): Promise<Person | null> {
  const facts = actorFacts(db, nick);
  if (!facts) return null;
  const { channel } = facts;
  const keys = await ctx.getActorKeyPairs(nick);
  const created = channel.channel_created.replace(' ', 'T') + 'Z';
  return new Person({
    id: ctx.getActorUri(nick),
    preferredUsername: nick,
    name: channel.channel_name,
    summary: summaryOf(facts.description, facts.about),
    url: ctx.getActorUri(nick),
    icon: facts.photoUrl ? new Image({ url: iconUrl(facts.photoUrl, facts.photoDate, facts.photoSource, ctx.canonicalOrigin), mediaType: facts.photoType }) : null,
    inbox: ctx.getInboxUri(nick),
    outbox: ctx.getOutboxUri(nick),
    followers: ctx.getFollowersUri(nick),
    following: ctx.getFollowingUri(nick),
    featured: ctx.getFeaturedUri(nick),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey,
    assertionMethods: keys.map((k) => k.multikey),
    manuallyApprovesFollowers: approvesFollowersByHand(db, channel.channel_id),
    discoverable: true,
    indexable: true,
    published: /^\d{4}-\d\d-\d\dT/.test(created) && !created.startsWith('0001') ? Temporal.Instant.from(created) : null,
    aliases: facts.movedFrom.flatMap((u) => (URL.canParse(u) ? [new URL(u)] : [])),
  });
}
