import { useState, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import { hubPhoto } from '../../content/hubPhoto.ts';
import type { Picture } from '../../content/pictureRuns.ts';
import { PhotoViewer } from '../photos/PhotoViewer.tsx';
import { PictureViewer } from '../photos/PictureViewer.tsx';

/** Tiles in a grid at most; more photos show as "+N" on the last tile and in the viewer. */
const TILES = 4;

/**
 * A post's photos as a grid (one large; two side by side; three as one tall and two; four and
 * more in two rows), each opening the photo viewer in the page. The channel's own photos open in
 * the albums' viewer (caption, album, delete), anybody else's in the same viewer without those.
 */
export function PostPhotos({ pictures, own, onChanged }: { pictures: Picture[]; own: boolean; onChanged?: () => void }) {
  const [open, setOpen] = useState<number>();
  const ids = pictures.map((p) => hubPhoto(p.src)?.resourceId);
  const editable = own && ids.every(Boolean);
  const shown = pictures.slice(0, TILES);
  const more = pictures.length - shown.length;
  const size = pictures.length > TILES ? 'many' : String(pictures.length);
  const click = (i: number) => (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    setOpen(i);
  };
  return (
    <div className={`post-photos post-photos-${size}`} role="group" aria-label={pictures.length === 1 ? 'Photo' : `${pictures.length} photos`}>
      {shown.map((p, i) => {
        const photo = hubPhoto(p.src);
        // The grid shows the 640 px scale of the hub's photos: the post's 320 px one blurs at this size.
        const src = photo ? photo.scale(1) : p.src;
        const last = i === shown.length - 1 && more > 0;
        return (
          <a key={i} href={p.href ?? p.src} className="post-photo" onClick={click(i)} aria-label={`Open photo ${i + 1} of ${pictures.length}${p.alt ? `: ${p.alt}` : ''}`}>
            <img
              src={src}
              alt={p.alt}
              loading="lazy"
              onError={(e) => {
                if (e.currentTarget.src !== new URL(p.src, location.href).href) e.currentTarget.src = p.src;
              }}
            />
            {last && (
              <span className="post-photo-more" aria-hidden="true">
                +{more}
              </span>
            )}
          </a>
        );
      })}
      {/* Out of the post's content, whose styles are for the post's own pictures. */}
      {open !== undefined &&
        createPortal(
          editable ? (
            <PhotoViewer id={ids[open]!} ids={ids as string[]} onNavigate={(id) => setOpen(ids.indexOf(id))} onClose={() => setOpen(undefined)} onChanged={() => onChanged?.()} />
          ) : (
            <PictureViewer pictures={pictures} index={open} onNavigate={setOpen} onClose={() => setOpen(undefined)} />
          ),
          document.body,
        )}
    </div>
  );
}
