import type { ReactNode } from 'react';
import { getPhoto } from '../../api/photos.ts';
import { ApiError } from '../../api/http.ts';
import { correspondentOf, messageById } from '../../api/messages.ts';
import { statusByMid } from '../../api/statuses.ts';
import { Link, match } from '../../router.tsx';
import { albumPath } from '../photos/albumNames.ts';
import { threadId } from '../stream/threads.ts';
import { PhotoOfChannel } from './PhotoOfChannel.tsx';
import { Gone, Redirecting } from './Redirecting.tsx';

/** A post by its message id: the thread it belongs to. */
function PostLink({ mid }: { mid: string }) {
  return (
    <Redirecting
      what="post"
      find={async () => {
        const status = await statusByMid(mid);
        return status && `/item/${threadId(status)}`;
      }}
      missing={
        <Gone title="This post does not exist any more, or you cannot see it.">
          <Link to="/">Go to your stream</Link>
        </Gone>
      }
    />
  );
}

/** One of the channel's own photos: the album, with the photo open. */
function OwnPhotoLink({ id }: { id: string }) {
  return (
    <Redirecting
      what="photo"
      find={async () => {
        try {
          const photo = await getPhoto(id);
          return `${albumPath(photo.album)}?photo=${encodeURIComponent(id)}`;
        } catch (err) {
          if (err instanceof ApiError && (err.status === 400 || err.status === 404)) return undefined;
          throw err;
        }
      }}
      missing={
        <Gone title="This photo was deleted.">
          <Link to="/photos">Go to your photos</Link>
        </Gone>
      }
    />
  );
}

/** A direct message (what a message's notification links to): the conversation it is part of. */
function MessageLink({ id, nick }: { id: number; nick: string }) {
  return (
    <Redirecting
      what="message"
      find={async () => {
        const message = Number.isSafeInteger(id) && id > 0 ? await messageById(id) : undefined;
        return message && `/messages/${encodeURIComponent(correspondentOf(message, nick).nick)}`;
      }}
      missing={
        <Gone title="This message was deleted.">
          <Link to="/messages">Go to your messages</Link>
        </Gone>
      }
    />
  );
}

/** Album URLs carry the album name in hexadecimal UTF-8 (/photos/<nick>/album/<hex>). */
function albumFromHex(hex: string): string | undefined {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16)));
  } catch {
    return undefined;
  }
}

/**
 * Pages for the URLs the APIs hand out (item llink and plink, photo and album pages, the follow
 * and contacts links of a channel), so that each opens something in the UI. `nick` is the
 * logged-in channel's.
 */
export function hubLinkRoute(path: string, query: URLSearchParams, nick: string): ReactNode | undefined {
  let m: Record<string, string> | undefined;
  if ((m = match('/display/:mid', path))) return <PostLink key={m.mid} mid={m.mid!} />;
  const mid = query.get('mid');
  if (mid && match('/channel/:nick', path)) return <PostLink key={mid} mid={mid} />;
  if ((m = match('/photos/:nick/image/:id', path))) {
    return m.nick === nick ? <OwnPhotoLink key={m.id} id={m.id!} /> : <PhotoOfChannel key={m.id} nick={m.nick!} id={m.id!} />;
  }
  if ((m = match('/photos/:nick/album/:hex', path)) || (m = match('/photos/:nick/album', path))) {
    const album = m.hex === undefined ? '' : albumFromHex(m.hex);
    if (m.nick !== nick || album === undefined) return <PhotoOfChannel nick={m.nick!} />;
    return <Redirecting what="album" find={async () => albumPath(album)} missing={null} />;
  }
  if ((m = match('/mail/:id', path))) return <MessageLink key={m.id} id={Number(m.id)} nick={nick} />;
  if ((m = match('/poco/:nick', path))) return <Redirecting what="channel" find={async () => (m!.nick === nick ? '/connections' : `/channel/${encodeURIComponent(m!.nick!)}`)} missing={null} />;
  if (path === '/follow') {
    const address = query.get('url')?.replace(/^@/, '').trim() ?? '';
    return <Redirecting what="connection" find={async () => `/connections${address ? `?connect=${encodeURIComponent(address)}` : ''}`} missing={null} />;
  }
  return undefined;
}
