import { createHash } from 'node:crypto';
import { PUBLIC_COLLECTION, Update } from '@fedify/vocab';
import type { Hub } from '../../hub-context.js';
import type { ChannelRow } from '../../store/rows.js';
import { getChannel } from '../../store/channels.js';
import { getPConfig, setPConfig } from '../../store/config.js';
import { actorFacts } from '../../store/federation.js';
import { channelActor } from '../actor.js';
import { approvesFollowersByHand } from '../social.js';
import { newActivityId, sendAs } from './send.js';

/** The job that tells a channel's followers elsewhere of its changed actor (Update of the Person). */
export const ACTOR_JOB = 'hearth.actor';

export interface ActorJob {
  type: typeof ACTOR_JOB;
  channelId: number;
  /** What the actor showed when the change was queued (see shownBy). */
  shown: string;
}

/** Where the hub remembers what the channel's followers were last told its actor shows. */
const SHOWN = { cat: 'federation', k: 'actor_shown' } as const;

/** A digest of what the channel's Person shows other servers and its owner can change (keys aside). */
function shownBy(hub: Hub, channel: ChannelRow): string | undefined {
  const facts = actorFacts(hub.db, channel.channel_address);
  if (!facts) return undefined;
  const shown = [facts.channel.channel_name, facts.description, facts.about, facts.photoUrl, facts.photoType, facts.photoDate, facts.photoSource, approvesFollowersByHand(hub.db, channel.channel_id), facts.movedFrom];
  return createHash('sha256').update(JSON.stringify(shown)).digest('base64url');
}

/**
 * The job that delivers the channel's changed actor, or undefined when its actor shows nothing new
 * (a profile saved unchanged). Call it in the transaction that changes the profile.
 */
export function actorUpdateJob(hub: Hub, channel: ChannelRow): ActorJob | undefined {
  const shown = shownBy(hub, channel);
  if (!shown || getPConfig(hub.db, channel.channel_id, SHOWN.cat, SHOWN.k) === shown) return undefined;
  setPConfig(hub.db, channel.channel_id, SHOWN.cat, SHOWN.k, shown);
  return { type: ACTOR_JOB, channelId: channel.channel_id, shown };
}

/** Sends Update(Person), the actor as it is now, to the channel's followers elsewhere (its job's handler). */
export async function deliverActorUpdate(hub: Hub, job: ActorJob): Promise<void> {
  const channel = getChannel(hub.db, job.channelId);
  // Changed again before its turn came: the later job tells the newest actor, once.
  if (!channel || getPConfig(hub.db, channel.channel_id, SHOWN.cat, SHOWN.k) !== job.shown) return;
  const ctx = hub.federation.federation?.createContext(new URL(hub.baseUrl), hub);
  const person = ctx && (await channelActor(ctx, hub.db, channel.channel_address));
  if (!ctx || !person?.id) return;
  const update = new Update({ id: newActivityId(hub), actor: person.id, object: person, tos: [PUBLIC_COLLECTION], ccs: [ctx.getFollowersUri(channel.channel_address)] });
  await sendAs(hub, channel, [], update, { followers: true });
}
