import { useEffect, useRef } from 'react';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { navigate, useLocation } from '../../router.tsx';
import { Composer } from './Composer.tsx';
import { filterFromQuery, filterQuery, StreamFilters } from './StreamFilters.tsx';
import { ThreadCard } from './ThreadCard.tsx';
import { useStream } from './useStream.ts';

/** The network stream: the composer, then threads, loading older ones as the reader scrolls. */
export function StreamPage() {
  const { query } = useLocation();
  const filter = filterFromQuery(query);
  const stream = useStream(filter);
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
    <div className="page page-stream">
      <h1 className="visually-hidden">Stream</h1>
      <Composer onPosted={() => void stream.reload()} />
      <StreamFilters filter={filter} onChange={(f) => navigate(filterQuery(f), { replace: true })} />
      <section aria-label="Stream" className="stream" aria-busy={stream.loading}>
        {stream.threads.map((t) => (
          <ThreadCard key={t.top.id} thread={t} onReplace={stream.replaceThread} onRemoved={() => stream.removeThread(t.top.id)} />
        ))}
        {stream.loading && <Loading label={stream.threads.length ? 'Loading older posts…' : 'Loading your stream…'} />}
        {stream.error && <ErrorNote error={`The stream could not be loaded: ${stream.error}`} onRetry={() => void (stream.threads.length ? stream.loadMore() : stream.reload())} />}
        {!stream.loading && !stream.error && stream.threads.length === 0 && (
          filter ? (
            <Empty title="No posts match this filter.">Choose another group or connection, or show everything.</Empty>
          ) : (
            <Empty title="Nothing here yet.">Write your first post above, or connect with someone under Connections to see their posts here.</Empty>
          )
        )}
        {!stream.loading && stream.ended && stream.threads.length > 0 && <p className="stream-end muted">You have reached the beginning of your stream.</p>}
        {canLoad && (
          <div ref={sentinel} className="stream-more">
            <button type="button" className="button button-quiet" onClick={() => void stream.loadMore()}>
              Show older posts
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
