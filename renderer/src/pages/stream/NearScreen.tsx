import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';

/** How far above and below the screen content stays mounted: a few screens' worth of scrolling. */
const MARGIN = '1500px 0px';

type Watcher = (entry: IntersectionObserverEntry) => void;
const watchers = new Map<Element, Watcher>();
let observer: IntersectionObserver | undefined;

/** One observer for every watched element (one per element would cost more than it saves). */
function watch(el: Element, watcher: Watcher): () => void {
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) watchers.get(e.target)?.(e);
  }, { rootMargin: MARGIN });
  watchers.set(el, watcher);
  observer.observe(el);
  return () => {
    watchers.delete(el);
    observer?.unobserve(el);
  };
}

/** Whether unmounting would lose something of the owner's: the focus, or words typed and not sent. */
function holdsWork(el: Element): boolean {
  if (el.contains(document.activeElement)) return true;
  return Array.from(el.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('textarea, input:not([type]), input[type="text"]')).some((input) => input.value !== '');
}

/**
 * Keeps its content mounted only while it is near the screen, so that a long list stays light:
 * far off, an empty box of the height it had stands in for it (the page keeps its length, and the
 * browser's scroll anchoring keeps the reader in place when it comes back).
 */
export function NearScreen({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [awayHeight, setAwayHeight] = useState<number>();

  useEffect(
    () =>
      watch(box.current!, (e) => {
        // Rendered in slices between frames: scrolling goes on while threads come and go.
        if (e.isIntersecting) startTransition(() => setAwayHeight(undefined));
        else if (!holdsWork(e.target)) {
          const height = e.boundingClientRect.height;
          startTransition(() => setAwayHeight(height));
        }
      }),
    [],
  );

  return awayHeight === undefined ? (
    <div ref={box} className="near-screen">{children}</div>
  ) : (
    <div ref={box} style={{ height: awayHeight }} data-thread-placeholder="" />
  );
}
