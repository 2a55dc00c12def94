import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Hub } from '../hub-context.js';
import { actorsWithAvatarCopies, getFedActor, setRemoteAvatar } from '../store/federation.js';
import { nowDb } from '../util/time.js';
import { inspectImage, renderScale } from '../services/images.js';
import { FetchRefused, guardedGetBytes } from './fetch-documents.js';
import { federationInsecure } from './settings.js';

/** The largest icon fetched: a larger one is refused (the actor keeps a default avatar). */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const AVATAR_FETCH = { maxBytes: AVATAR_MAX_BYTES, timeoutMs: 15_000, maxRedirects: 3 };

/** The sizes kept of a remote avatar: the square profile photo scales (300, 80 and 48 pixels). */
export const AVATAR_SCALES = { l: 4, m: 5, s: 6 } as const;
export type AvatarSize = keyof typeof AVATAR_SCALES;
const SIZES = Object.keys(AVATAR_SCALES) as AvatarSize[];

/** A cache: it can be removed at any time, and the avatars are fetched again as their actors are seen. */
export const remoteAvatarFolder = (dataDir: string) => join(dataDir, 'cache', 'avatars');
const folderOf = (hub: Pick<Hub, 'dataDir'>) => remoteAvatarFolder(hub.dataDir);
const fileOf = (hub: Pick<Hub, 'dataDir'>, actorId: string, size: AvatarSize) =>
  join(folderOf(hub), `${createHash('sha256').update(actorId).digest('hex').slice(0, 40)}-${size}`);

/**
 * Where the hub serves a remote actor's avatar: its copy, or a default avatar. The version names
 * the icon it was made of, so that a changed picture has a new address that apps did not cache.
 */
export function remoteAvatarUrls(baseUrl: string, source: string) {
  const version = source ? createHash('sha256').update(source).digest('hex').slice(0, 12) : 'default';
  return (xchanId: number) => {
    const url = (size: AvatarSize) => `${baseUrl}/photo/remote/${size}/${xchanId}?v=${version}`;
    return { l: url('l'), m: url('m'), s: url('s') };
  };
}

/** The hub's copy of a remote actor's avatar in one size, if it has one. */
export async function readRemoteAvatar(hub: Hub, actorId: string, size: AvatarSize): Promise<{ bytes: Buffer; type: string } | undefined> {
  const facts = getFedActor(hub.db, actorId);
  if (!facts?.avatar) return undefined;
  const bytes = await readFile(fileOf(hub, actorId, size)).catch(() => undefined);
  return bytes && { bytes, type: facts.avatar_type };
}

async function removeCopies(hub: Hub, actorId: string): Promise<void> {
  await Promise.all(SIZES.map((size) => rm(fileOf(hub, actorId, size), { force: true })));
}

/** Fetches the icon (public addresses only, at most AVATAR_MAX_BYTES), decodes it and writes each size. */
async function copyIcon(hub: Hub, actorId: string, icon: string): Promise<string> {
  const { response, body } = await guardedGetBytes(icon, { insecure: federationInsecure(), limits: AVATAR_FETCH, accept: 'image/*' });
  if (!response.ok) throw new FetchRefused(icon, `HTTP ${response.status}`, response.status);
  const folder = folderOf(hub);
  await mkdir(folder, { recursive: true });
  const original = join(folder, `.${randomUUID()}`);
  const written: string[] = [original];
  try {
    await writeFile(original, body);
    const info = await inspectImage(original);
    for (const size of SIZES) {
      const part = `${fileOf(hub, actorId, size)}.${randomUUID()}`;
      written.push(part);
      await renderScale(original, info, AVATAR_SCALES[size], part);
    }
    // Each size replaces the one before at once; none is ever half written.
    for (const size of SIZES) await rename(written[SIZES.indexOf(size) + 1]!, fileOf(hub, actorId, size));
    return info.mimetype;
  } finally {
    await Promise.all(written.map((f) => rm(f, { force: true })));
  }
}

const keep = (hub: Hub, actorId: string, source: string, type: string) =>
  setRemoteAvatar(hub.db, actorId, { source, type, urls: remoteAvatarUrls(hub.baseUrl, source) }, nowDb());

/** Shows the copy of a remote actor's avatar the hub has, or a default avatar: always a picture of the hub's. */
export function showRemoteAvatar(hub: Hub, actorId: string): void {
  const facts = getFedActor(hub.db, actorId);
  if (facts) keep(hub, actorId, facts.avatar, facts.avatar_type);
}

/** Brings the hub's copy of an actor's avatar in line with the icon it names now. */
async function updateAvatar(hub: Hub, actorId: string): Promise<void> {
  if (!hub.db.open) return;
  const facts = getFedActor(hub.db, actorId);
  if (!facts) return;
  const copied = facts.avatar && (await stat(fileOf(hub, actorId, 'l')).catch(() => undefined));
  if (facts.icon === facts.avatar && (copied || !facts.icon)) return keep(hub, actorId, facts.avatar, facts.avatar_type);
  if (!facts.icon) {
    await removeCopies(hub, actorId);
    return keep(hub, actorId, '', '');
  }
  try {
    const type = await copyIcon(hub, actorId, facts.icon);
    if (hub.db.open) keep(hub, actorId, facts.icon, type);
  } catch (err) {
    hub.log.info(`federation: the avatar of ${actorId} (${facts.icon}) is refused: ${(err as Error).message}`);
    await removeCopies(hub, actorId);
    if (hub.db.open) keep(hub, actorId, '', '');
  }
}

/** Updates of avatars under way, per hub and actor: one at a time for an actor, awaited when the hub closes. */
const underWay = new WeakMap<Hub, Map<string, Promise<void>>>();

/**
 * Makes the hub's copy of a remote actor's avatar follow its icon, in the background: it shows the
 * copy it has (or a default avatar) meanwhile.
 */
export function refreshRemoteAvatar(hub: Hub, actorId: string): Promise<void> {
  let running = underWay.get(hub);
  if (!running) {
    const map = new Map<string, Promise<void>>();
    underWay.set(hub, (running = map));
    hub.onClose(() => Promise.allSettled([...map.values()]).then(() => undefined));
  }
  const map = running;
  const next: Promise<void> = (map.get(actorId) ?? Promise.resolve())
    .then(() => updateAvatar(hub, actorId))
    .catch((err: Error) => hub.log.warn(`federation: the avatar of ${actorId} could not be updated: ${err.message}`))
    .finally(() => {
      if (map.get(actorId) === next) map.delete(actorId);
    });
  map.set(actorId, next);
  return next;
}

/**
 * Empties the avatar cache: every actor shows a default avatar (at a new address, so that apps do
 * not keep the old picture for it) until it is seen again and its icon fetched anew. Returns the
 * files and bytes removed.
 */
export async function clearRemoteAvatars(hub: Hub): Promise<{ files: number; bytes: number }> {
  const db = hub.db;
  const actors = actorsWithAvatarCopies(db);
  db.transaction(() => {
    for (const actorId of actors) setRemoteAvatar(db, actorId, { source: '', type: '', urls: remoteAvatarUrls(hub.baseUrl, '') }, nowDb());
  })();
  const folder = folderOf(hub);
  const names = await readdir(folder).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  let files = 0;
  let bytes = 0;
  for (const name of names) {
    const file = join(folder, name);
    const size = (await stat(file).catch(() => undefined))?.size;
    if (size === undefined) continue;
    await rm(file, { force: true });
    files++;
    bytes += size;
  }
  return { files, bytes };
}
