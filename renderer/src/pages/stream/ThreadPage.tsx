import { conversation } from '../../api/statuses.ts';
import { Empty, ErrorNote, Loading } from '../../components/Status.tsx';
import { useLoad } from '../../hooks/useLoad.ts';
import { Link, navigate } from '../../router.tsx';
import { ThreadCard } from './ThreadCard.tsx';
import { isComment, threadId, toThread } from './threads.ts';

/** One conversation, opened from a notification or a post's time link. */
export function ThreadPage({ id }: { id: number }) {
  const thread = useLoad(async () => {
    const statuses = await conversation(id);
    const anyItem = statuses.find((s) => s.id === id) ?? statuses[0];
    if (!anyItem) return undefined;
    const top = statuses.find((s) => !isComment(s))?.id ?? threadId(anyItem);
    return toThread(top, statuses);
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
