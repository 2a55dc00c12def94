import { exportSpki } from '@fedify/vocab-runtime';
import { isActor, Link, type Actor, type Image } from '@fedify/vocab';
import type { Context } from '@fedify/fedify';
import type { Hub } from '../hub-context.js';
import type { XchanRow } from '../store/rows.js';
import { getFedActor, upsertRemoteActor } from '../store/federation.js';
import { getXchan, getXchanByAddress } from '../store/xchans.js';
import { nowDb } from '../util/time.js';
import { guardedGet } from './fetch-documents.js';
import { outboundUrlProblem } from './public-address.js';
import { federationInsecure } from './settings.js';
import { refreshRemoteAvatar, showRemoteAvatar } from './avatars.js';

/** How long a remote actor's document is trusted before it is fetched again. */
const REFRESH_MS = 24 * 3600_000;

export class ActorRefused extends Error {}

/** An absolute http(s) URL, or ''. */
function httpUrl(u: string): string {
  return URL.canParse(u) && /^https?:$/.test(new URL(u).protocol) ? u : '';
}

function urlOf(v: URL | Link | null | undefined): string {
  if (!v) return '';
  return v instanceof URL ? v.href : (v.href?.href ?? '');
}

/**
 * Records a remote actor as an identity of the hub (an xchan whose hash is its id) with what
 * delivery needs. Its inboxes must be addresses the hub may deliver to.
 */
export async function rememberActor(hub: Hub, actor: Actor): Promise<XchanRow> {
  const id = actor.id?.href;
  const inbox = actor.inboxId?.href;
  if (!id || !inbox) throw new ActorRefused('the actor has no id or no inbox');
  const insecure = federationInsecure();
  const sharedInbox = actor.endpoints?.sharedInbox?.href ?? '';
  for (const u of [inbox, sharedInbox].filter(Boolean)) {
    const url = new URL(u);
    if (url.host !== new URL(id).host && !insecure) throw new ActorRefused(`the actor's inbox ${u} is on another host`);
    const problem = await outboundUrlProblem(url, insecure);
    if (problem) throw new ActorRefused(`the actor's inbox ${u}: ${problem}`);
  }
  const key = await actor.getPublicKey().catch(() => null);
  const icon = (await actor.getIcon().catch(() => null)) as Image | null;
  const username = actor.preferredUsername?.toString() ?? '';
  const host = new URL(id).host;
  upsertRemoteActor(
    hub.db,
    {
      id,
      address: username ? `${username}@${host}` : '',
      name: actor.name?.toString() || username || id,
      url: urlOf(actor.url) || id,
      icon: httpUrl(urlOf(icon?.url as URL | Link | null)),
      publicKeyPem: key?.publicKey ? await exportSpki(key.publicKey) : '',
      inbox,
      sharedInbox,
      followers: actor.followersId?.href ?? '',
      keyId: key?.id?.href ?? '',
      manuallyApproves: Boolean(actor.manuallyApprovesFollowers),
    },
    nowDb(),
  );
  showRemoteAvatar(hub, id);
  void refreshRemoteAvatar(hub, id);
  return getXchan(hub.db, id)!;
}

/** The actor document at an id, fetched (signed) through the federation's loader. */
async function fetchActor(ctx: Context<Hub>, id: string): Promise<Actor> {
  const obj = await ctx.lookupObject(id, { documentLoader: await signedLoader(ctx) });
  if (!obj || !isActor(obj)) throw new ActorRefused(`${id} is not an actor`);
  if (obj.id?.href !== id && obj.id?.origin !== new URL(id).origin) throw new ActorRefused(`${id} names another actor`);
  return obj;
}

/** A document loader that signs as the hub's first channel (GoToSocial answers only signed fetches). */
export async function signedLoader(ctx: Context<Hub>) {
  const first = ctx.data.db.prepare('SELECT channel_address FROM channel WHERE channel_removed = 0 ORDER BY channel_id LIMIT 1').pluck().get() as string | undefined;
  return first ? ctx.getDocumentLoader({ identifier: first }) : ctx.documentLoader;
}

/**
 * A remote actor by its id: known and fetched within a day, or fetched (again) and remembered. A
 * known actor whose server does not answer now is taken as it was.
 */
export async function actorById(ctx: Context<Hub>, id: string): Promise<XchanRow> {
  const known = getXchan(ctx.data.db, id);
  const facts = known && getFedActor(ctx.data.db, id);
  const usable = known && facts && !known.xchan_deleted;
  if (usable && Date.now() - facts.fetched < REFRESH_MS) return known;
  try {
    return await rememberActor(ctx.data, await fetchActor(ctx, id));
  } catch (err) {
    if (!usable) throw err;
    ctx.data.log.info(`federation: ${id} could not be fetched again (${(err as Error).message}); it stays as it was`);
    return known;
  }
}

/**
 * A remote actor by its address (user@host), through WebFinger: over https, and over http only
 * where the insecure setting allows it.
 */
export async function actorByAddress(ctx: Context<Hub>, address: string): Promise<XchanRow> {
  const clean = address.replace(/^@/, '').replace(/^acct:/, '');
  const at = clean.lastIndexOf('@');
  if (at < 1) throw new ActorRefused(`${address} is not an address`);
  const known = getXchanByAddress(ctx.data.db, clean);
  if (known?.xchan_network === 'activitypub') return actorById(ctx, known.xchan_hash);
  const host = clean.slice(at + 1);
  const insecure = federationInsecure();
  let lastError: unknown;
  for (const scheme of insecure ? ['https', 'http'] : ['https']) {
    try {
      const { response, text } = await guardedGet(`${scheme}://${host}/.well-known/webfinger?resource=${encodeURIComponent(`acct:${clean}`)}`, { insecure, accept: 'application/jrd+json, application/json' });
      if (!response.ok) throw new ActorRefused(`WebFinger answered ${response.status} for ${clean}`);
      const jrd = JSON.parse(text) as { links?: { rel?: string; type?: string; href?: string }[] };
      const self = jrd.links?.find((l) => l.rel === 'self' && /activity\+json|ld\+json/.test(l.type ?? ''));
      if (!self?.href) throw new ActorRefused(`${clean} has no ActivityPub actor`);
      return await actorById(ctx, self.href);
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError instanceof Error ? lastError : new ActorRefused(`${clean} could not be found`);
}
