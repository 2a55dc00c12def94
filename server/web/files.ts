import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Hub } from '../hub-context.js';
import { authenticate, sessionAuthenticator, type Authenticator } from '../auth/identity.js';
import { getChannel } from '../store/channels.js';
import { getVisibleAttach } from '../store/attachments.js';
import { getXchanById } from '../store/xchans.js';
import { AVATAR_SCALES, readRemoteAvatar, type AvatarSize } from '../federation/avatars.js';
import { getProfilePhotoScale, getVisiblePhotoScale } from '../store/photos.js';
import { notFound } from '../http/errors.js';
import { phpUrlencode } from '../util/urlencode.js';
import { defaultAvatar } from './avatar.js';
import { sendStored } from './send-stored.js';

const PROFILE_SCALES: Record<string, number> = { l: 4, m: 5, s: 6 };
const PROFILE_SIZES: Record<number, number> = { 4: 300, 5: 80, 6: 48 };
/** Types a browser may show inline from an attachment URL; everything else is downloaded. */
const INLINE_TYPES = /^(image\/(jpeg|png|gif|webp)|audio\/[\w.+-]+|video\/[\w.+-]+|text\/plain)$/;

/** Content-Disposition with an ASCII fallback name and the exact UTF-8 name (RFC 6266). */
function disposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${phpUrlencode(filename).replace(/\+/g, '%20')}`;
}

/**
 * Photo and file URLs for browsers and clients: /photo/<resource>-<scale>[.<ext>],
 * /photo/profile/{l,m,s}/<channel_id>, /photo/remote/{l,m,s}/<xchan_id>, /attach/<hash>. Public rows are public; restricted ones
 * need an observer the ACL admits — the owner's session cookie (no CSRF header needed for these
 * reads) or API credentials. Anything not visible is 404, as if it did not exist.
 */
export function mountFiles(router: Router, hub: Hub): void {
  const readers: Authenticator[] = [sessionAuthenticator(hub.db, { requireCsrfHeader: false }), ...hub.authenticators];
  const observer = async (ctx: Context): Promise<string> => (await authenticate(ctx, readers))?.channel.channel_hash ?? '';

  router.get('/photo/profile/:size/:channel', async (ctx) => {
    const scale = PROFILE_SCALES[ctx.params.size!];
    const id = /^\d{1,15}$/.test(ctx.params.channel!) ? Number(ctx.params.channel) : undefined;
    const channel = id !== undefined ? getChannel(hub.db, id) : undefined;
    if (scale === undefined || !channel) throw notFound('no such profile photo');
    const photo = getProfilePhotoScale(hub.db, channel.channel_id, scale);
    const key = photo && hub.files.keyOf(photo.content);
    if (photo && key && (await hub.files.size(key)) !== undefined) return sendStored(ctx, hub, { key, type: photo.mimetype });
    const png = await defaultAvatar(channel.channel_hash, PROFILE_SIZES[scale]!);
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'image/png';
    ctx.body = png;
  });

  // A remote actor's avatar: the hub's copy (clients never fetch it from the other server), or a default one.
  router.get('/photo/remote/:size/:id', async (ctx) => {
    const size = ctx.params.size as AvatarSize;
    const id = /^\d{1,15}$/.test(ctx.params.id!) ? Number(ctx.params.id) : undefined;
    const x = id !== undefined && Object.hasOwn(AVATAR_SCALES, size) ? getXchanById(hub.db, id) : undefined;
    if (!x || x.xchan_network !== 'activitypub') throw notFound('no such avatar');
    const copy = await readRemoteAvatar(hub, x.xchan_hash, size);
    // Its address changes with the picture (?v=): it may be kept.
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = copy?.type ?? 'image/png';
    ctx.body = copy?.bytes ?? (await defaultAvatar(x.xchan_hash, PROFILE_SIZES[AVATAR_SCALES[size]]!));
  });

  router.get('/photo/:spec', async (ctx) => {
    const m = /^([0-9A-Za-z_-]{1,100}?)(?:-(\d))?(?:\.[A-Za-z0-9]{1,5})?$/.exec(ctx.params.spec!);
    if (!m) throw notFound('no such photo');
    const photo = getVisiblePhotoScale(hub.db, m[1]!, Number(m[2] ?? 0), await observer(ctx));
    const key = photo && hub.files.keyOf(photo.content);
    if (!photo || !key) throw notFound('no such photo');
    await sendStored(ctx, hub, { key, type: photo.mimetype });
  });

  router.get('/attach/:hash', async (ctx) => {
    const hash = ctx.params.hash!;
    const row = /^[0-9A-Za-z_-]{1,100}$/.test(hash) ? getVisibleAttach(hub.db, hash, await observer(ctx)) : undefined;
    const key = row && !row.is_dir ? hub.files.keyOf(row.content) : undefined;
    if (!row || !key) throw notFound('no such file');
    // Uploaded HTML or SVG must never run as a page of the hub.
    ctx.set('Content-Security-Policy', "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'");
    const inline = INLINE_TYPES.test(row.filetype) && ctx.query.download === undefined;
    await sendStored(ctx, hub, { key, type: row.filetype, disposition: disposition(inline ? 'inline' : 'attachment', row.filename) });
  });
}
