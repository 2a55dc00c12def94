import { useEffect, useRef, type ReactNode } from 'react';
import { ErrorNote, Loading } from '../../components/Status.tsx';
import { NearScreen } from './NearScreen.tsx';
import { ThreadCard } from './ThreadCard.tsx';
import type { useStream } from './useStream.ts';

interface Texts {
  label: string;
  loading: string;
  failed: string;
  empty: ReactNode;
  end: string;
}

/** Threads of a stream, loading older ones as the reader scrolls (or clicks "Show older posts"); those far off screen are unmounted. */
export function ThreadList({ stream, texts }: { stream: ReturnType<typeof useStream>; texts: Texts }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const loadMore = useRef(stream.loadMore);
  loadMore.current = stream.loadMore;
  const canLoad = !stream.loading && !stream.ended && !stream.error;

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !canLoad) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore.current();
    }, { rootMargin: '600px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [canLoad, stream.threads.length]);

  return (
    <section aria-label={texts.label} className="stream" aria-busy={stream.loading}>
      {stream.threads.map((t) => (
        <NearScreen key={t.top.id}>
          <ThreadCard thread={t} onReplace={stream.replaceThread} onRemoved={() => stream.removeThread(t.top.id)} />
        </NearScreen>
      ))}
      {stream.loading && <Loading label={stream.threads.length ? 'Loading older posts…' : texts.loading} />}
      {stream.error && <ErrorNote error={`${texts.failed}: ${stream.error}`} onRetry={() => void (stream.threads.length ? stream.loadMore() : stream.reload())} />}
      {!stream.loading && !stream.error && stream.threads.length === 0 && texts.empty}
      {!stream.loading && stream.ended && stream.threads.length > 0 && <p className="stream-end muted">{texts.end}</p>}
      {canLoad && (
        <div ref={sentinel} className="stream-more">
          <button type="button" className="button button-quiet" onClick={() => void stream.loadMore()}>
            Show older posts
          </button>
        </div>
      )}
    </section>
  );
}

