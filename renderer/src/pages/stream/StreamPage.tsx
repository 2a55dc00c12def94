import { useEffect, useState } from 'react';
import { describeError } from '../../api/http.ts';
import { Empty } from '../../components/Status.tsx';
import { useNotify } from '../../notices.tsx';
import { navigate, useLocation } from '../../router.tsx';
import { NewPost } from './NewPost.tsx';
import { filterFromQuery, filterQuery, StreamFilters } from './StreamFilters.tsx';
import { ThreadList } from './ThreadList.tsx';
import { useLiveThreads } from './useLiveThreads.ts';
import { useStream } from './useStream.ts';

/** The network stream: the composer, then threads, loading older ones as the reader scrolls; live, with a bar for new posts. */
export function StreamPage() {
  const { query } = useLocation();
  const filter = filterFromQuery(query);
  const stream = useStream(filter);
  // A filtered stream cannot tell which new posts belong in it: it is read again instead.
  const live = useLiveThreads(stream, { newPosts: !filter });
  // Whether the stream has answered its first page: what else the page shows is asked for after it.
  const [listed, setListed] = useState(false);
  useEffect(() => {
    if (!stream.loading) setListed(true);
  }, [stream.loading]);

  return (
    <div className="page page-stream">
      <h1 className="visually-hidden">Stream</h1>
      <NewPost onPosted={() => void stream.reload()} />
      <StreamFilters filter={filter} onChange={(f) => navigate(filterQuery(f), { replace: true })} ready={listed} />
      <NewPostsBar count={live.unseen} onShow={live.show} />
      <ThreadList
        stream={stream}
        texts={{
          label: 'Stream',
          loading: 'Loading your stream…',
          failed: 'The stream could not be loaded',
          end: 'You have reached the beginning of your stream.',
          empty: filter ? (
            <Empty title="No posts match this filter.">Choose another group or connection, or show everything.</Empty>
          ) : (
            <Empty title="Nothing here yet.">Write your first post above, or connect with someone under Connections to see their posts here.</Empty>
          ),
        }}
      />
    </div>
  );
}

/** "3 new posts": shown while others' new posts wait; a click puts them on top and goes there. */
function NewPostsBar({ count, onShow }: { count: number; onShow: () => Promise<void> }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const show = async () => {
    setBusy(true);
    try {
      await onShow();
      window.scrollTo({ top: 0 });
    } catch (err) {
      notify(`The new posts could not be loaded: ${describeError(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="new-posts" role="status">
      {count > 0 && (
        <button type="button" className="button button-primary new-posts-button" onClick={show} disabled={busy}>
          {count === 1 ? 'Show 1 new post' : `Show ${count} new posts`}
        </button>
      )}
    </div>
  );
}
