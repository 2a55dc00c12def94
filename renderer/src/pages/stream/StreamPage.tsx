import { Empty } from '../../components/Status.tsx';
import { navigate, useLocation } from '../../router.tsx';
import { NewPost } from './NewPost.tsx';
import { filterFromQuery, filterQuery, StreamFilters } from './StreamFilters.tsx';
import { ThreadList } from './ThreadList.tsx';
import { useStream } from './useStream.ts';

/** The network stream: the composer, then threads, loading older ones as the reader scrolls. */
export function StreamPage() {
  const { query } = useLocation();
  const filter = filterFromQuery(query);
  const stream = useStream(filter);

  return (
    <div className="page page-stream">
      <h1 className="visually-hidden">Stream</h1>
      <NewPost onPosted={() => void stream.reload()} />
      <StreamFilters filter={filter} onChange={(f) => navigate(filterQuery(f), { replace: true })} />
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
