import { useEffect, useRef, type ReactNode } from 'react';
import { Icon } from '../../components/Icon.tsx';

/** The photo viewer's dark stage: the picture between previous and next, which ← and → also go to. */
export function ViewerStage({ onPrev, onNext, children }: { onPrev?: () => void; onNext?: () => void; children: ReactNode }) {
  const nav = useRef({ onPrev, onNext });
  nav.current = { onPrev, onNext };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select')) return;
      if (e.key === 'ArrowLeft') nav.current.onPrev?.();
      if (e.key === 'ArrowRight') nav.current.onNext?.();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="viewer-stage">
      <button type="button" className="viewer-nav viewer-prev" onClick={() => onPrev?.()} disabled={!onPrev} aria-label="Previous photo">
        <Icon name="left" size={28} />
      </button>
      {children}
      <button type="button" className="viewer-nav viewer-next" onClick={() => onNext?.()} disabled={!onNext} aria-label="Next photo">
        <Icon name="right" size={28} />
      </button>
    </div>
  );
}

/** A picture at full size in a box that scrolls, starting at its middle as the fitted view showed it. */
export function FullSizeImage({ src, alt, width, height }: { src: string; alt: string; width?: number; height?: number }) {
  return (
    <div className="viewer-full" tabIndex={0} aria-label="The photo at full size; scroll to see all of it">
      <img
        className="viewer-full-image"
        src={src}
        alt={alt}
        width={width || undefined}
        height={height || undefined}
        onLoad={(e) => {
          const box = e.currentTarget.parentElement!;
          box.scrollTo((box.scrollWidth - box.clientWidth) / 2, (box.scrollHeight - box.clientHeight) / 2);
        }}
      />
    </div>
  );
}
