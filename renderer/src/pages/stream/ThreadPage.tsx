import { ApiError } from '../../api/http.ts';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link, navigate } from '../../router.tsx';
import { loadThreadOf } from './loadThread.ts';
import { ThreadCard } from './ThreadCard.tsx';

/** One conversation, opened from a notification or a post's time link. */
export function ThreadPage({ id }: { id: number }) {
  const thread = useLoad(async () => {
    try {
      return await loadThreadOf(id);
    } catch (err) {
      // The hub answers 400 or 404 for posts that are gone or not visible.
      if (err instanceof ApiError && (err.status === 400 || err.status === 404)) return undefined;
      throw err;
    }
  }, [id]);

  return (
    <div className="page">
      <p className="back">
        <Link to="/">← Back to the stream</Link>
      </p>
      <h1 className="visually-hidden">Conversation</h1>
      {thread.status === 'loading' && !thread.data && <Loading label="Loading the conversation…" />}
      {thread.status === 'error' && <ErrorNote error={`The conversation could not be loaded: ${thread.error}`} onRetry={thread.reload} />}
      {thread.status === 'ready' && !thread.data && <Empty title="This post does not exist any more, or you cannot see it." />}
      {thread.data && <ThreadCard thread={thread.data} onReplace={(t) => thread.setData(t)} onRemoved={() => navigate('/')} />}
    </div>
  );
}
